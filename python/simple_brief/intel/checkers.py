"""Checkers: what judges a file's syntax (`E`), where the grammar only hints (`H003`).

A language unit names its checkers (`LanguageSpec.checks`, tried in order: the first one
installed judges the file); this module knows how to run each and read what it prints.

- In-process, always: `python-compile` (`compile()`: parses and compiles, runs nothing)
  and `tomllib`. Where this interpreter's parser rejects a text the grammar reads whole,
  the syntax may be newer than the engine's Python (3.12's `type X = …`): no verdict, said.
- Programs that only parse, run without trust: `gofmt`, `rustfmt` (stdin: it follows no
  `mod` to other files, runs no build script or macro), `node-check` (`node --check`),
  `bash-n` (`bash -n`: reads, runs no command), `ruby-c` (`ruby -c`: no `BEGIN` block runs),
  `php-l` (`php -n -l`: compiles, no php.ini), `nvim-lua` (Neovim's LuaJIT `loadstring`,
  `nvim --clean -l`). Not `perl -c`: it runs the file's `BEGIN` blocks and `use`d modules'
  code (project code), so Perl is left to a language server or the `check` task.
- After trust only: `clang-syntax` and `gcc-syntax`. Their preprocessor opens every file
  an `#include` names, anywhere on the machine (a secrets file too), and quotes what it
  read in its messages; in a workspace the person trusted that is their own build's
  business. Without the project's flags a header may be missing or a macro unknown: a
  run that met a missing header or an unknown name (`unknown type name`, `undeclared`)
  gives no verdict (the answer says why) rather than errors the build would not see.

Programs are looked up on PATH outside the workspace (`proc.programs`), run under the
keeper with a memory limit (`proc.process_limits`) and a time bound, never through a
shell, with the text on stdin (the editor's unsaved text is what is judged), in a small
environment (no NODE_OPTIONS, BASH_ENV …) and from a folder outside the workspace (no
`rust-toolchain.toml` there decides which toolchain runs). A checker that is not
installed is not an error: the answer says which to install.
"""

from __future__ import annotations

import ast
import contextlib
import re
import subprocess
import sys
import tempfile
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from simple_brief.model import Diagnostic, Position, Range, Severity
from simple_brief.proc import environment, process_limits, programs
from simple_brief.source import Source

#: Seconds one checker may run.
TIMEOUT = 15.0
#: Megabytes of address space a checker gets.
MEMORY_MB = 2048
#: At most this many errors of one checker are reported (the first ones: later ones cascade).
MAX_ERRORS = 10
#: The variables a checker's environment keeps from the call's.
_KEPT_VARIABLES = ("PATH", "HOME", "TMPDIR", "RUSTUP_HOME", "CARGO_HOME")


@dataclass
class Verdict:
    """What the checkers said about one file.

    Attributes:
        judged_by: the checker that judged it (`gofmt`), None when none did.
        diagnostics: its errors (`E`, the checker's name as their source).
        note: why no checker judged it, and what to do; None when one did.
        task: what the project's declared `check` task said about it, or why it was not
            run or did not finish (`tools.checks`); None when none is declared.
    """

    judged_by: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    note: str | None = None
    task: str | None = None


@dataclass(frozen=True)
class Run:
    """One file to check: its text, where it is, and whether its workspace is trusted."""

    source: Source
    path: Path
    root: Path
    trusted: bool
    language: str
    tree: Any = None


#: A checker's reader: (run, program) -> its errors, or a sentence saying it gives no verdict.
Judge = Callable[[Run, Path | None], "list[Diagnostic] | str"]


@dataclass(frozen=True)
class Checker:
    """A checker simple-brief knows how to run and read.

    Attributes:
        name: as the language units name it.
        program: the program looked up on PATH; "" for an in-process check.
        install: what the person installs to get it.
        safe: whether it runs without trust (it only parses: no project code, no other file).
        judge: runs it on one file and reads its output.
    """

    name: str
    program: str
    install: str
    safe: bool
    judge: Judge


def error_at(source: Source, line: int, col: int, message: str, by: str, byte_col: bool = True) -> Diagnostic:
    """An `E` at 1-based `line`:`col` (bytes, or characters), clamped into the text."""
    row = min(max(line - 1, 0), max(len(source.lines) - 1, 0))
    text = source.lines[row] if source.lines else ""
    col0 = max(col - 1, 0)
    char = source.char_col(row, min(col0, len(text.encode()))) if byte_col else min(col0, len(text))
    at = Position(row, char)
    return Diagnostic(Range(at, at), " ".join(message.split()), Severity.Error, "", by)


def _child_env() -> dict[str, str]:
    given = environment.for_child()
    env = {name: given[name] for name in _KEPT_VARIABLES if name in given}
    env["LC_ALL"] = "C"
    return env


def _run_program(program: Path, args: list[str], text: bytes) -> tuple[int, str]:
    """`program args` under the keeper, `text` on stdin: (exit status, stdout + stderr).

    Raises:
        TimeoutError: it ran past TIMEOUT (its whole process tree was stopped).
    """
    argv = process_limits.kept(str(program), [program.name, *args], MEMORY_MB)
    with tempfile.TemporaryDirectory(prefix="simple-brief-check-") as folder:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=folder,
            env=_child_env(),
            start_new_session=True,
        )
        try:
            out, err = proc.communicate(text, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.terminate()  # the keeper stops the tree it keeps
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.communicate(timeout=process_limits.STOP_WAIT)
            proc.kill()
            proc.wait()
            raise TimeoutError(f"{program.name} ran past {TIMEOUT:g} s") from None
    return proc.returncode, (out + b"\n" + err).decode("utf-8", "replace")


# --- the checkers ------------------------------------------------------------------------------


def _python_compile(run: Run, _program: Path | None) -> list[Diagnostic] | str:
    found = _compile_error(run.source.text)
    if found is None:
        return []
    if _newer_syntax(run, found):
        line, _col, message = found
        return (
            f"Python {sys.version_info.major}.{sys.version_info.minor}'s parser stops at line {line} ({message}) where"
            " the grammar reads the file whole: syntax newer than the engine's Python; the project's `check` task"
            " (`build_check`) or its language server judges it"
        )
    return [error_at(run.source, *found, "python", byte_col=False)]


def _newer_syntax(run: Run, found: tuple[int, int, str]) -> bool:
    """Whether `compile()`'s error may be only this interpreter's age: its parser rejects the
    text (`type X = …`, `def f[T]()`, 3.12's f-strings) while the grammar, which knows newer
    Python, reads all of it. An error the compiler finds after parsing (`return` outside a
    function) is one in every version."""
    if run.tree is None or run.tree.root_node.has_error:
        return False
    try:
        ast.parse(run.source.text)
    except SyntaxError:
        return True
    except (ValueError, RecursionError, MemoryError):
        return False
    return False


@lru_cache(maxsize=16)
def _compile_error(text: str) -> tuple[int, int, str] | None:
    """Where `compile()` stops on `text` (1-based line, character column, message), or None;
    kept for the texts read last (simple_read asks again for the same unchanged file, and a
    str's hash is computed once)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning (`"\d"`) is not an error
            compile(text, "<file>", "exec", dont_inherit=True)
    except SyntaxError as err:
        return err.lineno or 1, err.offset or 1, err.msg or "invalid syntax"
    except (ValueError, RecursionError, MemoryError) as err:  # NUL bytes, nesting too deep for the compiler
        return 1, 1, str(err) or type(err).__name__
    return None


def _tomllib(run: Run, _program: Path | None) -> list[Diagnostic] | str:
    try:
        tomllib.loads(run.source.text)
    except tomllib.TOMLDecodeError as err:
        found = re.search(r"\(at line (\d+), column (\d+)\)", str(err))
        line, col = (int(found[1]), int(found[2])) if found else (1, 1)
        message = re.sub(r"\s*\(at (?:line \d+, column \d+|end of document)\)", "", str(err))
        return [error_at(run.source, line, col, message, "tomllib", byte_col=False)]
    return []


_GOFMT = re.compile(r"^<standard input>:(\d+):(\d+): (.*)$", re.MULTILINE)


def _gofmt(run: Run, program: Path | None) -> list[Diagnostic] | str:
    assert program is not None
    status, output = _run_program(program, [], run.source.data)
    if status == 0:
        return []
    found = [error_at(run.source, int(m[1]), int(m[2]), m[3], "gofmt") for m in _GOFMT.finditer(output)]
    return found or _unread_output("gofmt", output)


_RUSTFMT = re.compile(r"^error(?:\[E\d+\])?: (.*)\n\s*--> <stdin>:(\d+):(\d+)", re.MULTILINE)


def _rustfmt(run: Run, program: Path | None) -> list[Diagnostic] | str:
    assert program is not None
    status, output = _run_program(program, ["--edition", "2021", "--emit", "stdout"], run.source.data)
    if status == 0:
        return []
    found = [error_at(run.source, int(m[2]), int(m[3]), m[1], "rustfmt", False) for m in _RUSTFMT.finditer(output)]
    return found or _unread_output("rustfmt", output)


_NODE = re.compile(r"^\[stdin\]:(\d+)\n(?:.*\n){0,4}?(\w*Error): (.*)$", re.MULTILINE)


def _node_check(run: Run, program: Path | None) -> list[Diagnostic] | str:
    """CommonJS unless the file is `.mjs`; a file CommonJS rejects is tried as a module too,
    and is valid when either accepts it (else the error of the one that read further)."""
    assert program is not None
    if run.tree is not None and _has_jsx(run.tree.root_node):
        return "node does not read JSX; a language server judges this file, or the project's `check` task (build_check)"
    modes = [["--input-type=module"]] if run.path.suffix == ".mjs" else [["--input-type=commonjs"]]
    if run.path.suffix not in (".mjs", ".cjs"):
        modes.append(["--input-type=module"])
    errors: list[Diagnostic] = []
    for mode in modes:
        status, output = _run_program(program, [*mode, "--check"], run.source.data)
        if status == 0:
            return []
        found = _NODE.search(output)
        if found is None:
            return _unread_output("node", output)
        errors.append(error_at(run.source, int(found[1]), 1, f"{found[2]}: {found[3]}", "node"))
    return [max(errors, key=lambda d: d.range.start)]


def _has_jsx(root: Any) -> bool:
    cursor = root.walk()
    while True:
        if cursor.node.type.startswith("jsx_"):
            return True
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return False


_BASH = re.compile(r"^/dev/stdin: line (\d+): (?!`)(.*)$", re.MULTILINE)
_OTHER_SHELLS = re.compile(r"^#!\s*\S*?(?:/env\s+)?\S*\b(zsh|fish|csh|tcsh|ksh)\b")


def _bash_n(run: Run, program: Path | None) -> list[Diagnostic] | str:
    assert program is not None
    other = _OTHER_SHELLS.match(run.source.lines[0] if run.source.lines else "")
    if other or "zsh" in run.path.name:
        return f"bash does not judge {other[1] if other else 'zsh'} scripts"
    status, output = _run_program(program, ["--norc", "--noprofile", "-n", "/dev/stdin"], run.source.data)
    if status == 0:
        return []
    found = [error_at(run.source, int(m[1]), 1, m[2], "bash") for m in _BASH.finditer(output)]
    return found or _unread_output("bash", output)


_CC = re.compile(r"^<stdin>:(\d+):(\d+): (fatal error|error|warning): (.*?)(?: \[-W[^\]]*\])?$", re.MULTILINE)
#: Findings that mean the compiler lacks what the build gives it (headers, flags, a macro
#: such as musl's `weak_alias(a, b);` read as an implicit-int declaration): no verdict.
_UNKNOWN_NAME = re.compile(
    r"file not found|No such file|unknown type name|undeclared|implicit declaration|was not declared|"
    r"does not name a type|has not been declared|no member named|incomplete type|#error|not a (?:type|template)|"
    r"type specifier missing|defaults to .int.|parameter list without types|parameter names \(without types\)"
)


def _c_family(compiler: str) -> Judge:
    def judge(run: Run, program: Path | None) -> list[Diagnostic] | str:
        assert program is not None
        lang = "c++" if run.language == "cpp" else "c"
        args = ["-fsyntax-only", "-x", lang, "-iquote", str(run.path.parent)]
        args += ["-fno-caret-diagnostics", "-fno-color-diagnostics", "-ferror-limit=50"] if compiler == "clang" else []
        args += ["-fdiagnostics-plain-output", "-fmax-errors=50"] if compiler == "gcc" else []
        status, output = _run_program(program, [*args, "-"], run.source.data)
        found = list(_CC.finditer(output))
        if status == 0:
            return []
        unknown = next((m for m in found if _UNKNOWN_NAME.search(m[4])), None)
        if unknown is not None:
            return (
                f"{compiler} could not judge it without the project's build flags (line {unknown[1]}: "
                f"{unknown[4]}); the project's `check` task (build_check) builds it with them"
            )
        errors = [error_at(run.source, int(m[1]), int(m[2]), m[4], compiler) for m in found if m[3] != "warning"]
        return errors or _unread_output(compiler, output)

    return judge


_RUBY = re.compile(r"^-:(\d+): (.*)$", re.MULTILINE)


def _ruby_c(run: Run, program: Path | None) -> list[Diagnostic] | str:
    """`ruby -c`: parses only (no `BEGIN` block, no `-r` of the `#!` line is run)."""
    assert program is not None
    status, output = _run_program(program, ["--disable=gems", "-c", "-"], run.source.data)
    if status == 0:
        return []
    lines = output.splitlines()
    found = []
    for m in _RUBY.finditer(output):
        line, at = int(m[1]), output.count("\n", 0, m.start())
        found.append(error_at(run.source, line, _caret(run.source, line, lines[at + 1 : at + 3]), m[2], "ruby", False))
    return found or _unread_output("ruby", output)


def _caret(source: Source, line: int, quoted: list[str]) -> int:
    """The 1-based column of the `^` under the line a compiler quoted, when it quoted that
    very line (not cut short); else 1."""
    text = source.lines[line - 1] if 0 < line <= len(source.lines) else None
    if len(quoted) == 2 and quoted[0] == text and quoted[1].strip() == "^":
        return quoted[1].index("^") + 1
    return 1


_PHP = re.compile(r"^(?:PHP )?(?:Parse|Fatal) error:\s+(.*?) in Standard input code on line (\d+)$", re.MULTILINE)


def _php_l(run: Run, program: Path | None) -> list[Diagnostic] | str:
    """`php -n -l`: compiles only, with no php.ini (no `auto_prepend_file`, no extension)."""
    assert program is not None
    status, output = _run_program(program, ["-n", "-d", "display_errors=stderr", "-l"], run.source.data)
    if status == 0:
        return []
    found = [error_at(run.source, int(m[2]), 1, m[1], "php") for m in _PHP.finditer(output)]
    return found or _unread_output("php", output)


_LUA = re.compile(r"^(?:luac: )?stdin:(\d+): (.*)$", re.MULTILINE)
#: The Lua `nvim -l` runs: LuaJIT's `loadstring` compiles stdin's text, runs none of it.
_LUAJIT_LOAD = Path(__file__).with_name("luajit_load.lua")


def _nvim_lua(run: Run, program: Path | None) -> list[Diagnostic] | str:
    """Neovim's LuaJIT (`nvim --clean -l`: no config, no plugin of the user's) compiles the
    text (Lua 5.1 with LuaJIT's extensions: `goto`, `1ULL`); a text it rejects that the
    installed `luac` accepts is Lua 5.2+ (`//`, `&`) and valid. (`luac` alone does not judge:
    Debian's is Lua 5.2, which rejects LuaJIT's `1ULL` in Neovim's own Lua.)"""
    assert program is not None
    args = ["--clean", "--headless", "-l", str(_LUAJIT_LOAD)]
    status, output = _run_program(program, args, run.source.data)
    if status == 0:
        return []
    found = [error_at(run.source, int(m[1]), 1, m[2], "luajit") for m in _LUA.finditer(output)]
    if not found:
        return _unread_output("nvim -l", output)
    luac = programs.on_path("luac", run.root, environment.get("PATH"))
    if luac is not None and _run_program(luac, ["-p", "-"], run.source.data)[0] == 0:
        return []
    return found


def _unread_output(name: str, output: str) -> str:
    first = next((line.strip() for line in output.splitlines() if line.strip()), "")
    return f"{name} failed without an error simple-brief can read ({first[:120] or 'no output'})"


CHECKERS: dict[str, Checker] = {
    c.name: c
    for c in (
        Checker("python-compile", "", "", True, _python_compile),
        Checker("tomllib", "", "", True, _tomllib),
        Checker("gofmt", "gofmt", "Go (gofmt)", True, _gofmt),
        Checker("rustfmt", "rustfmt", "rustfmt (`rustup component add rustfmt`)", True, _rustfmt),
        Checker("node-check", "node", "Node.js", True, _node_check),
        Checker("bash-n", "bash", "bash", True, _bash_n),
        Checker("ruby-c", "ruby", "Ruby", True, _ruby_c),
        Checker("php-l", "php", "PHP (php-cli)", True, _php_l),
        Checker("nvim-lua", "nvim", "Neovim", True, _nvim_lua),
        Checker("clang-syntax", "clang", "clang", False, _c_family("clang")),
        Checker("gcc-syntax", "gcc", "gcc", False, _c_family("gcc")),
    )
}


def check(run: Run, names: tuple[str, ...], *, in_process_only: bool = False) -> Verdict:
    """The first of the checkers `names` that can judge the file, and what it said.

    `in_process_only`: only the checks that start no program (`simple_read`'s).
    """
    if not names:
        return Verdict(
            note=f"no checker is known for {run.language}; a language server judges it, or the project's `check` task "
            "(build_check)"
        )
    untrusted: list[str] = []
    missing: list[str] = []
    passes: list[str] = []
    for name in names:
        checker = CHECKERS[name]
        program: Path | None = None
        if checker.program:
            if in_process_only:
                continue
            program = programs.on_path(checker.program, run.root, environment.get("PATH"))
            if program is None:
                missing.append(checker.install)
                continue
            if not checker.safe and not run.trusted:
                untrusted.append(checker.program)
                continue
        try:
            said = checker.judge(run, program)
        except (OSError, TimeoutError) as err:
            passes.append(f"{checker.program or checker.name} could not run ({err})")
            continue
        if isinstance(said, str):  # the file is out of its reach: another would not do better
            return Verdict(note=said)
        return Verdict(checker.program or checker.name, said[:MAX_ERRORS])
    if in_process_only:
        return Verdict()
    if passes:
        return Verdict(note="; ".join(passes))
    if untrusted:
        return Verdict(
            note=f"{' and '.join(untrusted)} check {run.language} only in a workspace you trusted (a C preprocessor "
            "reads whatever file an #include names): run `simple-brief trust`, or the project's `check` task "
            "(build_check)"
        )
    return Verdict(
        note=f"no checker for {run.language} found; install {' or '.join(missing)}, or run the project's `check` "
        "task (build_check)"
    )


def checkable(names: tuple[str, ...]) -> bool:
    """Whether every one of `names` is known (a unit may name only known checkers)."""
    return all(name in CHECKERS for name in names)


__all__ = ["CHECKERS", "Checker", "Run", "Verdict", "check", "checkable", "error_at"]
