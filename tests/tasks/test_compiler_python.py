"""Python's tracebacks and syntax errors, printed by this very interpreter running tiny
scripts: one finding at the innermost frame of the project's code (not the standard
library's), at the carets where Python prints them, in code points on indented lines
with non-ASCII characters."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.model import Diagnostic, Position, Range, Severity
from simple_brief.tasks.compiler_output import parse_output, to_diagnostics

CARETS = sys.version_info >= (3, 11)  # carets under the failing expression in every frame


def _python313() -> str | None:
    """A Python 3.13 or later: before 3.13 the interpreter printed a syntax error's caret
    at its byte offset (CPython gh-102310), so only 3.13+ can check code points there."""
    if sys.version_info >= (3, 13):
        return sys.executable
    names = [shutil.which(f"python3.{minor}") for minor in range(13, 20)]
    pyenv = sorted(str(p) for p in (Path.home() / ".pyenv" / "versions").glob("3.1[3-9]*/bin/python3"))
    for found in [*names, *pyenv]:
        if found and subprocess.run([found, "-c", "pass"], capture_output=True, check=False).returncode == 0:
            return found
    return None


def _python(tmp_path: Path, files: dict[str, str], main: str, python: str = sys.executable) -> str:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    run = subprocess.run([python, main], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 1
    return run.stderr


def _diagnose(output: str, cwd: Path) -> dict[Path, list[Diagnostic]]:
    return to_diagnostics(
        parse_output(output, cwd), cwd, lambda p: p.read_text(encoding="utf-8") if p.is_file() else None
    )


def _range(line: int, text: str, start: str, end: str | None = None) -> Range:
    """The range of `start` (up to the end of `end`, if given) in line `line` reading `text`."""
    first = text.index(start)
    last = text.index(end) + len(end) if end is not None else first + len(start)
    return Range(Position(line, first), Position(line, last))


LIB = 'def boom(x):\n    if x:\n        raise ValueError(f"bad value: {x}")\n'
MAIN = 'import json\nfrom pkg.lib import boom\ndef main():\n    s = "h😀llo"; boom(s)\nmain()\n'


def test_a_traceback_is_one_finding_at_its_innermost_frame(tmp_path: Path) -> None:
    output = _python(tmp_path, {"pkg/__init__.py": "", "pkg/lib.py": LIB, "main.py": MAIN}, "main.py")
    found = _diagnose(output, tmp_path)
    (diag,) = found[(tmp_path / "pkg" / "lib.py").resolve()]
    assert (diag.message, diag.code, diag.severity, diag.source) == (
        "ValueError: bad value: h😀llo",
        "ValueError",
        Severity.Error,
        "python",
    )
    line = LIB.splitlines()[2]
    assert diag.range == _range(2, line, "raise", ")"), "no carets under a whole line: the statement"
    assert list(found) == [(tmp_path / "pkg" / "lib.py").resolve()]


def test_a_traceback_through_the_standard_library_points_at_the_project(tmp_path: Path) -> None:
    source = 'import json\n\n\ndef load():\n    s = "é"; return json.loads("{" + s)\n\n\nload()\n'
    output = _python(tmp_path, {"load.py": source}, "load.py")
    assert "json/decoder.py" in output
    for cwd in (tmp_path, None):
        (finding,) = parse_output(output, cwd)
        assert Path(finding.path).resolve() == (tmp_path / "load.py").resolve()
        assert finding.line == 5
        assert finding.message.startswith(
            "json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes"
        )
    (diag,) = _diagnose(output, tmp_path)[(tmp_path / "load.py").resolve()]
    line = source.splitlines()[4]
    assert diag.range == (_range(4, line, "json.loads", "s)") if CARETS else _range(4, line, "s =", "s)"))


def test_a_syntax_error_at_its_caret(tmp_path: Path) -> None:
    source = 'def f():\n    x = 3 + (1 +  # "日本é"\n    return x\n'
    output = _python(tmp_path, {"bad.py": source}, "bad.py")
    (diag,) = _diagnose(output, tmp_path)[(tmp_path / "bad.py").resolve()]
    assert (diag.code, diag.source) == ("SyntaxError", "python")
    assert diag.message == "SyntaxError: '(' was never closed"
    assert diag.range.start == Position(1, source.splitlines()[1].index("(1"))


@pytest.mark.skipif(_python313() is None, reason="no Python 3.13 or later (earlier ones print carets at byte offsets)")
def test_a_syntax_error_after_non_ascii_characters(tmp_path: Path) -> None:
    source = 'def f():\n    x = "日本é" + (1 +\n    return x\n'
    output = _python(tmp_path, {"bad.py": source}, "bad.py", _python313() or "")
    (diag,) = _diagnose(output, tmp_path)[(tmp_path / "bad.py").resolve()]
    assert diag.range.start == Position(1, source.splitlines()[1].index("(1"))


def test_a_syntax_error_in_an_imported_module_points_at_that_module(tmp_path: Path) -> None:
    files = {"main.py": "import broken\n", "broken.py": "def f():\n    s = 'e'; x = = 2  # é\n"}
    output = _python(tmp_path, files, "main.py")
    assert output.startswith("Traceback (most recent call last):")
    (diag,) = _diagnose(output, tmp_path)[(tmp_path / "broken.py").resolve()]
    assert diag.message == "SyntaxError: invalid syntax"
    assert diag.range.start == Position(1, "    s = 'e'; x = = 2".index("= 2"))


def test_an_indentation_error_and_chained_exceptions(tmp_path: Path) -> None:
    output = _python(tmp_path, {"ind.py": "def f():\n        return 1\n    return 2\n"}, "ind.py")
    (finding,) = parse_output(output, tmp_path)
    assert (finding.line, finding.code) == (3, "IndentationError")
    chained = "try:\n    {}['k']\nexcept KeyError:\n    raise RuntimeError('wrapped')\n"
    output = _python(tmp_path, {"chain.py": chained}, "chain.py")
    assert [(f.line, f.message) for f in parse_output(output, tmp_path)] == [
        (2, "KeyError: 'k'"),
        (4, "RuntimeError: wrapped"),
    ]


def test_warnings_before_a_traceback(tmp_path: Path) -> None:
    source = 'import warnings\n\n\ndef f():\n    s = "é"; warnings.warn("boom é")\n\n\nf()\nraise SystemExit(1)\n'
    output = _python(tmp_path, {"warn.py": source}, "warn.py")
    (diag,) = _diagnose(output, tmp_path)[(tmp_path / "warn.py").resolve()]
    assert (diag.range.start, diag.severity, diag.code, diag.source) == (
        Position(4, 0),
        Severity.Warning,
        "UserWarning",
        "python",
    )
    assert diag.message == "UserWarning: boom é"
