"""Compiler output into diagnostics, on the real output of gcc, clang (where installed),
make, rustc and cargo run on tiny sources here: exact places in code points (lines with
non-ASCII characters and tabs before the column), messages, codes, and fix-its that, once
applied, make the source compile with the same compiler. Garbage never raises."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief.intel.text_edits import apply_text_edits
from simple_brief.model import Diagnostic, Position, Range, Severity, TextEdit
from simple_brief.tasks.compiler_findings import Finding
from simple_brief.tasks.compiler_lines import MAX_FIXES, MAX_FOLDED
from simple_brief.tasks.compiler_output import parse_output, to_diagnostics

CARGO_BIN = Path.home() / ".cargo" / "bin"


def _which(name: str) -> str | None:
    return shutil.which(name) or shutil.which(name, path=str(CARGO_BIN))


def _run(argv: list[str], cwd: Path, merged: bool = False) -> subprocess.CompletedProcess[str]:
    """Run `argv`; `merged`: stderr into stdout in the order printed, as the sandbox keeps it."""
    # Not the variables of a `make test` around this run: a nested make says `make[1]: ***`.
    outer = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")}
    env = {**outer, "LC_ALL": "C.UTF-8", "PATH": f"{os.environ.get('PATH', '')}:{CARGO_BIN}"}
    err = subprocess.STDOUT if merged else subprocess.PIPE
    return subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=err, text=True, env=env, timeout=300)


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None


def _diagnose(output: str, cwd: Path) -> dict[Path, list[Diagnostic]]:
    return to_diagnostics(parse_output(output, cwd), cwd, _read)


def _at(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Range:
    end = Position(line if end_line is None else end_line, col if end_col is None else end_col)
    return Range(Position(line, col), end)


def _edit(line: int, start: int, end: int, text: str) -> TextEdit:
    return TextEdit(_at(line, start, line, end), text)


def _fixed(path: Path, diagnostics: list[Diagnostic]) -> str:
    edits = [edit for diag in diagnostics for fix in diag.fixits for edit in fix.edits]
    return apply_text_edits(path.read_text(encoding="utf-8"), edits)


# gcc counts display columns (the tab is 8, each CJK character 2) and its fix-its in bytes.
C_SOURCE = (
    "#include <stdio.h>\n"
    "struct point { int width; };\n"
    "int main(void) {\n"
    '\tstruct point p; const char *s = "日本é"; p.widht = 1; printf("%s %d\\n", s, p.width); return 0 }\n'
)
C_WIDTH = C_SOURCE.splitlines()[3].index("widht")
C_BRACE = C_SOURCE.splitlines()[3].rindex(" }")


@pytest.mark.skipif(_which("gcc") is None, reason="gcc is not installed")
def test_gcc_errors_and_fixits_in_code_points_and_the_fixed_source_compiles(tmp_path: Path) -> None:
    source = tmp_path / "point.c"
    source.write_text(C_SOURCE, encoding="utf-8")
    argv = ["gcc", "-fdiagnostics-parseable-fixits", "-Wall", "-c", "point.c", "-o", "point.o"]
    run = _run(argv, tmp_path)
    assert run.returncode != 0
    found = _diagnose(run.stderr, tmp_path)
    assert list(found) == [source.resolve()]
    diags = found[source.resolve()]
    assert [(d.range, d.message, d.severity, d.source) for d in diags] == [
        (_at(3, C_WIDTH), "‘struct point’ has no member named ‘widht’; did you mean ‘width’?", Severity.Error, "gcc"),
        (_at(3, C_BRACE), "expected ‘;’ before ‘}’ token", Severity.Error, "gcc"),
    ]
    assert [[(f.title, f.edits) for f in d.fixits] for d in diags] == [
        [("replace with 'width'", (_edit(3, C_WIDTH, C_WIDTH + 5, "width"),))],
        [("insert ';'", (_edit(3, C_BRACE, C_BRACE, ";"),))],
    ]
    source.write_text(_fixed(source, diags), encoding="utf-8")
    assert "p.width = 1;" in source.read_text(encoding="utf-8")
    assert _run(argv, tmp_path).returncode == 0


@pytest.mark.skipif(_which("gcc") is None, reason="gcc is not installed")
def test_gcc_warning_flags_and_notes_folded_into_their_finding(tmp_path: Path) -> None:
    (tmp_path / "w.c").write_text(
        'int main(void) {\n    const char *s = "é"; int unused; return retrn;\n}\n', encoding="utf-8"
    )
    run = _run(["gcc", "-Wall", "-c", "w.c", "-o", "w.o"], tmp_path)
    findings = parse_output(run.stderr, tmp_path)
    by_message = {f.message.split("\n")[0]: f for f in findings}
    undeclared = by_message["‘retrn’ undeclared (first use in this function)"]
    assert undeclared.message.endswith(
        "\nnote: each undeclared identifier is reported only once for each function it appears in"
    )
    assert (undeclared.line, undeclared.code) == (2, "")
    unused = by_message["unused variable ‘unused’"]
    assert (unused.severity, unused.code, unused.source) == (Severity.Warning, "-Wunused-variable", "gcc")
    diag = next(d for d in _diagnose(run.stderr, tmp_path)[(tmp_path / "w.c").resolve()] if d.code)
    assert diag.range == _at(1, len('    const char *s = "é"; int '))
    assert len(findings) == 3, "the note is not a finding of its own"
    assert Severity.Information not in {f.severity for f in findings}


@pytest.mark.skipif(_which("gcc") is None or _which("make") is None, reason="gcc or make is not installed")
def test_make_running_gcc_then_a_python_script_mixed_output(tmp_path: Path) -> None:
    (tmp_path / "point.c").write_text(C_SOURCE, encoding="utf-8")
    (tmp_path / "gen.py").write_text("def main():\n    return {}['é']\n\n\nmain()\n", encoding="utf-8")
    (tmp_path / "Makefile").write_text(
        "all: point.o gen\npoint.o: point.c\n\tgcc -fdiagnostics-parseable-fixits -c point.c -o point.o\n"
        f"gen:\n\t{sys.executable} gen.py\n",
        encoding="utf-8",
    )
    run = _run(["make", "-k"], tmp_path)
    output = run.stdout + run.stderr
    assert "make: ***" in output
    findings = parse_output(output, tmp_path)
    assert [(f.line, f.source) for f in findings] == [(4, "gcc"), (4, "gcc"), (2, "python")]
    assert findings[2].message == "KeyError: 'é'"
    found = _diagnose(output, tmp_path)
    assert list(found) == [(tmp_path / "point.c").resolve(), (tmp_path / "gen.py").resolve()]
    start = len("    return ") if sys.version_info >= (3, 11) else 4  # carets under the expression since 3.11
    assert found[(tmp_path / "gen.py").resolve()][0].range == _at(1, start, 1, len("    return {}['é']"))
    assert all("make" not in f.message for f in findings)


# clang counts columns (and fix-its) in bytes; gcc offers the same fix-its for this source.
TYPO_SOURCE = 'int main(void) {\n\tconst char *s = "日本é"; int width = (int)sizeof s; return widht }\n'
TYPO_LINE = TYPO_SOURCE.splitlines()[1]
TYPO_AT = TYPO_LINE.index("widht")
SAMPLES = Path(__file__).resolve().parent / "compiler_samples"


def _check_clang(output: str, cwd: Path, text: str | None = None) -> list[Diagnostic]:
    path = (cwd / "typo.c").resolve()
    found = to_diagnostics(parse_output(output, cwd), cwd, lambda p: text if text is not None else _read(p))
    diags = found[path]
    assert [(d.range, d.message, d.source) for d in diags] == [
        (
            _at(1, TYPO_AT),
            "use of undeclared identifier 'widht'; did you mean 'width'?\nnote: 'width' declared here",
            "clang",
        ),
        (_at(1, TYPO_AT + 5), "expected ';' after return statement", "clang"),
    ]
    assert [[f.edits for f in d.fixits] for d in diags] == [
        [(_edit(1, TYPO_AT, TYPO_AT + 5, "width"),)],
        [(_edit(1, TYPO_AT + 5, TYPO_AT + 5, ";"),)],
    ]
    return diags


def test_clang_verbatim_sample() -> None:
    """clang 14.0.6's output on TYPO_SOURCE (in /tmp/parsers_sample/c), for where clang is absent."""
    _check_clang((SAMPLES / "clang.txt").read_text(encoding="utf-8"), Path("/tmp/parsers_sample/c"), TYPO_SOURCE)


@pytest.mark.skipif(_which("clang") is None, reason="clang is not installed here")
def test_clang_byte_columns_and_fixits_and_the_fixed_source_compiles(tmp_path: Path) -> None:
    source = tmp_path / "typo.c"
    source.write_text(TYPO_SOURCE, encoding="utf-8")
    argv = ["clang", "-fdiagnostics-parseable-fixits", "-fno-color-diagnostics", "-Wall", "-c", "typo.c", "-o", "t.o"]
    run = _run(argv, tmp_path)
    diags = _check_clang(run.stderr, tmp_path)
    source.write_text(_fixed(source, diags), encoding="utf-8")
    assert "return width; }" in source.read_text(encoding="utf-8")
    assert _run(argv, tmp_path).returncode == 0


@pytest.mark.skipif(_which("gcc") is None, reason="gcc is not installed")
def test_gcc_and_clang_fixits_fix_the_same_source(tmp_path: Path) -> None:
    source = tmp_path / "typo.c"
    source.write_text(TYPO_SOURCE, encoding="utf-8")
    argv = ["gcc", "-fdiagnostics-parseable-fixits", "-c", "typo.c", "-o", "t.o"]
    diags = _diagnose(_run(argv, tmp_path).stderr, tmp_path)[source.resolve()]
    assert [d.range.start for d in diags] == [Position(1, TYPO_AT), Position(1, TYPO_AT + 5)]  # the blank before }
    source.write_text(_fixed(source, diags), encoding="utf-8")
    assert "return width; }" in source.read_text(encoding="utf-8")
    assert _run(argv, tmp_path).returncode == 0


RUST_SOURCE = 'fn main() {\n    let s = "h😀llo"; let mut unused = 1;\n    let Foo = 2;\n    println!("{}", s);\n}\n'
RUST_LINE = RUST_SOURCE.splitlines()[1]


def _cargo_project(tmp_path: Path, source: str) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "t"\nversion = "0.1.0"\nedition = "2021"\n', encoding="utf-8"
    )
    main = tmp_path / "src" / "main.rs"
    main.write_text(source, encoding="utf-8")
    return main


@pytest.mark.skipif(_which("cargo") is None, reason="cargo is not installed")
def test_cargo_json_warnings_with_suggestions_and_the_fixed_crate_builds_clean(tmp_path: Path) -> None:
    main = _cargo_project(tmp_path, RUST_SOURCE)
    cargo = _which("cargo") or "cargo"
    run = _run([cargo, "build", "--offline", "--message-format=json"], tmp_path)
    diags = _diagnose(run.stdout + run.stderr, tmp_path)[main.resolve()]
    mut = RUST_LINE.index("mut ")
    assert [(d.range, d.code, d.severity, d.source) for d in diags] == [
        (_at(1, mut, 1, mut + len("mut unused")), "unused_mut", Severity.Warning, "rustc"),
        (_at(1, mut, 1, mut + len("mut unused")), "unused_variables", Severity.Warning, "rustc"),
        (_at(2, 8, 2, 11), "unused_variables", Severity.Warning, "rustc"),
        (_at(2, 8, 2, 11), "non_snake_case", Severity.Warning, "rustc"),
    ]
    assert diags[0].message.startswith("variable does not need to be mutable")
    assert [(f.title, f.confidence) for f in diags[0].fixits] == [("remove this `mut`", 0.95)]
    assert diags[0].fixits[0].edits == (_edit(1, mut, mut + 4, ""),)
    # One suggestion per place: removing `mut`, and renaming `Foo` to snake case.
    fixes = [diags[0].fixits[0], diags[3].fixits[0]]
    edits = [e for f in fixes for e in f.edits]
    main.write_text(apply_text_edits(RUST_SOURCE, edits), encoding="utf-8")
    assert main.read_text(encoding="utf-8").splitlines()[1:3] == [
        '    let s = "h😀llo"; let unused = 1;',
        "    let foo = 2;",
    ]
    again = _run([cargo, "build", "--offline", "--message-format=json"], tmp_path)
    assert again.returncode == 0
    assert {d.code for d in _diagnose(again.stdout, tmp_path)[main.resolve()]} == {"unused_variables"}


@pytest.mark.skipif(_which("rustc") is None, reason="rustc is not installed")
def test_rustc_json_and_human_errors_agree(tmp_path: Path) -> None:
    source = tmp_path / "main.rs"
    source.write_text('fn main() {\n    let s = "héllo"; let x: i32 = "a";\n}\n', encoding="utf-8")
    rustc = _which("rustc") or "rustc"
    as_json = _run([rustc, "--error-format=json", "--emit=metadata", "--out-dir", str(tmp_path), "main.rs"], tmp_path)
    human = _run([rustc, "--emit=metadata", "--out-dir", str(tmp_path), "main.rs"], tmp_path)
    column = source.read_text(encoding="utf-8").splitlines()[1].index('"a"')
    for output in (as_json.stderr, human.stderr):
        (diag,) = _diagnose(output, tmp_path)[source.resolve()]
        assert (diag.range.start, diag.code, diag.severity) == (Position(1, column), "E0308", Severity.Error)
        assert diag.message.startswith("mismatched types")
    (diag,) = _diagnose(as_json.stderr, tmp_path)[source.resolve()]
    assert diag.range.end == Position(1, column + 3)
    assert diag.message == "mismatched types: expected `i32`, found `&str`"


def test_a_fix_in_another_file_goes_to_other_files(tmp_path: Path) -> None:
    (tmp_path / "a.c").write_text("int x;\n", encoding="utf-8")
    (tmp_path / "b.h").write_text("int é y;\n", encoding="utf-8")
    output = 'a.c:1:5: error: boom\nfix-it:"b.h":{1:8-1:9}:"z"\n'
    (diag,) = _diagnose(output, tmp_path)[(tmp_path / "a.c").resolve()]
    (fix,) = diag.fixits
    assert fix.edits == ()
    assert fix.other_files == (((tmp_path / "b.h").resolve(), (_edit(0, 6, 7, "z"),)),)


def test_fixit_text_is_c_unescaped() -> None:
    output = 'x.c:1:1: error: e\nfix-it:"x.c":{1:1-1:1}:"\\"q\\\\\\n\\303\\251\\t"\n'
    (finding,) = parse_output(output)
    assert finding.fixes[0].text == '"q\\\né\t'


def _garbage(seed: int) -> str:
    rnd = random.Random(seed)
    pieces = [
        "a.c:1:2: error: x",
        "fix-it:",
        '{"reason": "compiler-message", "message": {"spans": [{"file_name": 3}]}}',
        '{"reason": "compiler-message", "message": ',
        '{"level": "error", "message": "m", "spans": [{"file_name": "f.rs", "line_start": "1"}], "children": 7}',
        'Traceback (most recent call last):\n  File "x.py", line',
        '  File "x.py", line 3\n',
        "error[E1]: x\n --> ",
        "x.ts(1,",
        "  /a.py:1:1 - error: ",
        "\x1b[31m",
        "\x00\xff\ud800",
        "make: *** [all] Error 1",
        "make[1]: Entering directory '/x'",
        "make[1]: Leaving directory '/x'",
        '[{"kind": "error", "message": "m", "locations": [{"caret": 5, "finish": {"line": "2"}}], "fixits": [{}]}]',
        '[{"kind": "error", "message": "m", "locations": [{"caret": {"file": "a.c", "line": 1}}], "fixits": 3}]',
        '{"file": 1, "line": "x", "column": null, "severity": [], "message": {}}',
        '{"file": "a.py", "line": 2, "column": -4, "severity": "error", "message": "m", "end_line": 1}',
        "A.java:1: error: x",
        "\t ^",
        "./m.go:1:99999: x",
        "x.c:(.text+0x5): undefined reference to `f'",
        "{" * 50,
        "]",
    ]
    out = []
    for _ in range(rnd.randrange(1, 30)):
        if rnd.random() < 0.5:
            out.append(rnd.choice(pieces))
        else:
            out.append("".join(chr(rnd.randrange(0, 0x3000)) for _ in range(rnd.randrange(0, 40))))
    return "\n".join(out)


def test_garbage_truncated_json_and_unknown_text_never_raise(tmp_path: Path) -> None:
    for seed in range(300):
        text = _garbage(seed)
        findings = parse_output(text, tmp_path)
        assert all(isinstance(f, Finding) for f in findings)
        to_diagnostics(findings, tmp_path, lambda p: "x\té日本\n" * 3)
        to_diagnostics(findings, tmp_path, lambda p: None)
    record = {"reason": "compiler-message", "message": {"level": "error", "message": "m", "spans": []}}
    truncated = json.dumps(record)[:-5]
    assert parse_output(truncated) == []
    assert parse_output("{" * 100_000) == []
    assert parse_output("hello\nworld: nothing here\nmake: *** [Makefile:3: all] Error 1\n") == []


@pytest.mark.skipif(_which("gcc") is None, reason="gcc is not installed")
def test_link_errors_with_and_without_debug_lines(tmp_path: Path) -> None:
    (tmp_path / "link.c").write_text("int foo(void);\nint main(void) {\n    return foo();\n}\n", encoding="utf-8")
    path = (tmp_path / "link.c").resolve()
    for debug, line in ((["-g"], 2), ([], 0)):
        run = _run(["gcc", *debug, "link.c", "-o", "link"], tmp_path)
        assert "collect2" in run.stderr
        (diag,) = _diagnose(run.stderr, tmp_path)[path]
        assert (diag.range, diag.message, diag.source) == (_at(line, 0), "undefined reference to `foo'", "ld")


@pytest.mark.skipif(_which("cargo") is None, reason="cargo is not installed")
@pytest.mark.parametrize("json_output", [True, False])
def test_cargo_in_a_workspace_member_names_files_from_the_workspace_root(tmp_path: Path, json_output: bool) -> None:
    (tmp_path / "Cargo.toml").write_text('[workspace]\nmembers = ["crates/app"]\nresolver = "2"\n', encoding="utf-8")
    member = tmp_path / "crates" / "app"
    member.mkdir(parents=True)
    main = _cargo_project(member, 'fn main() {\n    let s = "é"; let mut x = 1;\n}\n')
    cargo = _which("cargo") or "cargo"
    run = _run([cargo, "build", "--offline", *(["--message-format=json"] if json_output else [])], member)
    assert "crates/app/src/main.rs" in run.stdout + run.stderr
    found = _diagnose(run.stdout + run.stderr, member)
    assert list(found) == [main.resolve()]
    unused_s, mut_x = len("    let "), len('    let s = "é"; let ')
    assert sorted(d.range.start for d in found[main.resolve()]) == [Position(1, unused_s), *[Position(1, mut_x)] * 2]


@pytest.mark.skipif(_which("gcc") is None or _which("make") is None, reason="gcc or make is not installed")
def test_recursive_make_paths_are_read_from_the_directory_make_entered(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "typo.c").write_text(TYPO_SOURCE, encoding="utf-8")
    (sub / "Makefile").write_text("typo.o: typo.c\n\tgcc -fdiagnostics-parseable-fixits -c typo.c -o typo.o\n")
    (tmp_path / "typo.c").write_text("int unrelated;\n", encoding="utf-8")
    (tmp_path / "Makefile").write_text("all:\n\t$(MAKE) -C sub\n", encoding="utf-8")
    run = _run(["make"], tmp_path, merged=True)
    assert "Entering directory" in run.stdout
    found = _diagnose(run.stdout, tmp_path)
    assert list(found) == [(sub / "typo.c").resolve()]
    first = found[(sub / "typo.c").resolve()][0].message
    assert first.endswith("?\nnote: each undeclared identifier is reported only once for each function it appears in")
    (sub / "typo.c").write_text(_fixed(sub / "typo.c", found[(sub / "typo.c").resolve()]), encoding="utf-8")
    assert _run(["make"], tmp_path).returncode == 0


def test_runaway_notes_continuations_and_fixits_are_capped() -> None:
    n = 50_000
    tsc = "x.ts(1,1): error TS1: first\n" + "  more\n" * n
    (finding,) = parse_output(tsc)
    assert finding.message.count("\n") == MAX_FOLDED
    gcc = "x.c:1:1: error: e\n" + "x.c:2:1: note: n\n" * n + 'fix-it:"x.c":{1:1-1:1}:";"\n' * n
    (finding,) = parse_output(gcc)
    assert (finding.message.count("\n"), len(finding.fixes)) == (MAX_FOLDED, MAX_FIXES)


@pytest.mark.skipif(_which("gcc") is None, reason="gcc is not installed")
def test_gcc_json_output_agrees_with_its_text_output(tmp_path: Path) -> None:
    source = tmp_path / "typo.c"
    source.write_text(TYPO_SOURCE, encoding="utf-8")
    text_run = _run(["gcc", "-fdiagnostics-parseable-fixits", "-c", "typo.c", "-o", "t.o"], tmp_path)
    argv = ["gcc", "-fdiagnostics-format=json", "-c", "typo.c", "-o", "t.o"]
    json_run = _run(argv, tmp_path)
    assert json_run.stderr.startswith("[{")
    as_text = _diagnose(text_run.stderr, tmp_path)[source.resolve()]
    as_json = _diagnose(json_run.stderr, tmp_path)[source.resolve()]
    assert [(d.range.start, d.message, d.fixits) for d in as_json] == [
        (d.range.start, d.message, d.fixits) for d in as_text
    ]
    assert as_json[0].range.end == Position(1, TYPO_AT + 5)
    source.write_text(_fixed(source, as_json), encoding="utf-8")
    assert _run(argv, tmp_path).returncode == 0


@pytest.mark.skipif(_which("gcc") is None or _which("make") is None, reason="gcc or make is not installed")
def test_diagnostics_of_many_findings_are_those_of_each_alone(tmp_path: Path) -> None:
    """Files are read and paths resolved once per run: the same answer as one finding at a
    time, through a symlinked directory and a directory make entered."""
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(real)
    for where in (real, real / "sub"):
        (where / "typo.c").write_text(TYPO_SOURCE, encoding="utf-8")
        (where / "w.c").write_text('int main(void) {\n    const char *s = "é"; int unused; return retrn;\n}\n')
    rule = "\tgcc -fdiagnostics-parseable-fixits -Wall -c typo.c w.c\n"
    (real / "sub" / "Makefile").write_text(f"all:\n{rule}", encoding="utf-8")
    (real / "Makefile").write_text(f"all:\n\t-$(MAKE) -C sub\n{rule}", encoding="utf-8")
    cwd = tmp_path / "link"
    output = _run(["make", "-k"], cwd, merged=True).stdout
    findings = parse_output(output, cwd)
    assert len({f.path for f in findings}) == 4
    alone: dict[Path, list[Diagnostic]] = {}
    for finding in findings:
        for path, diags in to_diagnostics([finding], cwd, _read).items():
            alone.setdefault(path, []).extend(diags)
    together = to_diagnostics(findings, cwd, _read)
    assert together == alone
    assert set(together) == {(real / name).resolve() for name in ("typo.c", "w.c", "sub/typo.c", "sub/w.c")}
