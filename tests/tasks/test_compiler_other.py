"""Output of compilers beyond the issue's list that a project's build may run, so that
their lines are not misread: javac (its column from the caret under the quoted line) and
the go tool (byte columns), really run where installed, on lines with a tab and non-ASCII
characters before the column."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from simple_brief.model import Position, Severity
from simple_brief.tasks.compiler_output import parse_output, to_diagnostics


def _diagnose(argv: list[str], cwd: Path) -> dict[Path, list[tuple[Position, Severity, str, str, str]]]:
    run = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode != 0
    found = to_diagnostics(parse_output(run.stdout + run.stderr, cwd), cwd, lambda p: p.read_text(encoding="utf-8"))
    return {p: [(d.range.start, d.severity, d.code, d.source, d.message) for d in ds] for p, ds in found.items()}


JAVA = (
    "class B {\n"
    '\tvoid f() { String s = "日本é"; int x = y; }\n'
    "\t@Deprecated void g() {}\n"
    "}\n"
    "class C { void h() { new B().g(); } }\n"
)


@pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
def test_javac_errors_and_lint_warnings(tmp_path: Path) -> None:
    (tmp_path / "B.java").write_text(JAVA, encoding="utf-8")
    found = _diagnose(["javac", "-Xlint:all", "-d", str(tmp_path / "out"), "B.java"], tmp_path)
    lines = JAVA.splitlines()
    assert found == {
        (tmp_path / "B.java").resolve(): [
            (
                Position(1, lines[1].index("y;")),
                Severity.Error,
                "",
                "javac",
                "cannot find symbol\nsymbol:   variable y\nlocation: class B",
            ),
            (
                Position(4, lines[4].index(".g()")),
                Severity.Warning,
                "deprecation",
                "javac",
                "g() in B has been deprecated",
            ),
        ]
    }


GO = 'package main\n\nfunc main() {\n\ts := "日本é"; x := 1; y := s + 1\n}\n'


@pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed")
def test_go_build_errors(tmp_path: Path) -> None:
    (tmp_path / "go.mod").write_text("module example.com/m\n\ngo 1.19\n", encoding="utf-8")
    (tmp_path / "main.go").write_text(GO, encoding="utf-8")
    found = _diagnose(["go", "build", "./..."], tmp_path)
    line = GO.splitlines()[3]
    (diags,) = found.values()
    assert list(found) == [(tmp_path / "main.go").resolve()]
    assert [(d[0], d[3]) for d in diags] == [
        (Position(3, line.index("x :=")), "go"),
        (Position(3, line.index("s + 1")), "go"),
    ]
    assert diags[0][4] in ("x declared but not used", "declared and not used: x")
