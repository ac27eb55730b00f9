"""Which test runner a declared command runs, and the structured reporter simple-brief adds
to it when the command has none (as neotest's adapters do), so a task declared the obvious
way — `["python", "-m", "pytest", "-q"]` — still gives per-test results.

A runner is recognised from the command's words, through the usual wrappers:

- pytest: `pytest`, `py.test`, `python -m pytest` (any `python*`, a venv's too), behind
  `uv run`, `poetry run`, `pdm run`, `pipenv run`, `hatch run`; gets `--junitxml={junit}`.
- unittest: `python -m unittest` (no reporter exists: its summary and FAIL sections are read).
- cargo: `cargo test` (`cargo +toolchain test`).
  Rust's harness has no stable structured output: its lines are read (`tasks.cargo_tests`).
- go: `go test`; gets `-json` after `test`.
- jest: `jest`, `npx jest`; gets `--json --outputFile={report}` (jest has no JUnit reporter
  of its own).
- vitest: `vitest`, `npx vitest`; gets `--reporter=default --reporter=junit
  --outputFile.junit={junit}` (its console output stays).
- node: `node --test`; gets the spec reporter on stdout and the junit reporter (Node 20.11
  and later) into `{junit}`.
- mocha: `mocha`, `npx mocha`; gets `--reporter xunit --reporter-option output={junit}`.
- `npm test` / `npm run NAME`: the script in `package.json` when it is one command of a
  runner above (no `&&`, `;`, pipes, redirections or substitutions: anything else is
  not recognised, and only the summary lines are read); the reporter goes after `--`.

A command that already names a reporter (`--junitxml`, `-json`, `--json`, `--reporter`,
`--test-reporter`) is left as it is. Nothing here runs anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePath

from simple_brief.files.task_specs import TaskSpec

#: The runners simple-brief knows, by the name the answers use.
RUNNERS = ("pytest", "unittest", "cargo", "go", "jest", "vitest", "node", "mocha")
#: Wrappers that run the rest of the command in a project's environment: (program, word).
_PYTHON_WRAPPERS = {"uv": "run", "poetry": "run", "pdm": "run", "pipenv": "run", "hatch": "run"}
_JS_WRAPPERS = {"npx": "", "pnpx": "", "bunx": ""}
_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)*)?$")
#: What makes a package.json script more than one plain command.
_SHELL_SYNTAX = re.compile(r"&&|\|\||[;|<>`]|\$\(|\$\{|\n")


@dataclass(frozen=True)
class Recognised:
    """A test runner found in a command.

    Attributes:
        runner: one of RUNNERS.
        via: how the command reaches it (`python -m pytest`, `npm test → jest`).
        reporter: the arguments that make it write structured results (placeholders
            `{junit}`/`{report}`); empty when it has none or the command names one.
        declared_reporter: the command already names a reporter.
        at: where `reporter` goes in the command (None: at its end).
        report_format: what `{report}` holds when `reporter` writes it (`jest-json`), else "".
    """

    runner: str
    via: str
    reporter: tuple[str, ...] = ()
    declared_reporter: bool = False
    at: int | None = None
    report_format: str = ""


def recognise(argv: Sequence[str], scripts: Callable[[], Mapping[str, str]] | None = None) -> Recognised | None:
    """The test runner `argv` runs, or None; `scripts` gives package.json's scripts (for `npm`)."""
    words = list(argv)
    if not words:
        return None
    program = PurePath(words[0]).name
    if program in _PYTHON_WRAPPERS and len(words) > 2 and words[1] == _PYTHON_WRAPPERS[program]:
        rest = _skip_options(words, 2)
        found = recognise(words[rest:]) if rest < len(words) else None
        return _shifted(found, rest, f"{program} run ") if found else None
    if program in _JS_WRAPPERS and len(words) > 1:
        rest = _skip_options(words, 1)
        found = recognise(words[rest:]) if rest < len(words) else None
        return _shifted(found, rest, f"{program} ") if found else None
    if program == "npm":
        return _npm_script(words, scripts)
    if _PYTHON.match(program):
        name = _python_module(words)
        if name == "pytest":
            return _pytest(words, f"{program} -m pytest")
        if name == "unittest":
            return Recognised("unittest", f"{program} -m unittest")
        return None
    if program in ("pytest", "py.test"):
        return _pytest(words, program)
    if program == "cargo":
        return _cargo(words)
    if program == "go" and len(words) > 1 and words[1] == "test":
        if any(w == "-json" or w.startswith("-json=") for w in words):
            return Recognised("go", "go test", declared_reporter=True)
        return Recognised("go", "go test", ("-json",), at=2)
    if program == "node" and "--test" in words:
        return _node(words)
    if program in ("jest", "vitest", "mocha"):
        return _js_runner(program, words, program)
    return None


def _skip_options(words: list[str], start: int) -> int:
    """The index of the first word at or after `start` that is not an option (`uv run --frozen pytest`)."""
    at = start
    while at < len(words) and words[at].startswith("-"):
        at += 1
    return at


def _shifted(found: Recognised, offset: int, prefix: str) -> Recognised:
    return replace(found, via=prefix + found.via, at=None if found.at is None else found.at + offset)


def _python_module(words: list[str]) -> str | None:
    """The NAME of `-m NAME` among the interpreter's own options, or None."""
    at = 1
    while at < len(words):
        word = words[at]
        if word == "-m" and at + 1 < len(words):
            return words[at + 1]
        if word.startswith("-m") and len(word) > 2:
            return word[2:]
        if word in ("-W", "-X", "-Q"):
            at += 2
            continue
        if not word.startswith("-") or word == "-c":
            return None  # a script or `-c` code: not a runner module
        at += 1
    return None


def _names(words: Sequence[str], *options: str) -> bool:
    """Whether an argument is one of `options` or starts with `option=`."""
    return any(w in options or any(w.startswith(o + "=") for o in options if o.startswith("--")) for w in words)


def _pytest(words: list[str], via: str) -> Recognised:
    if _names(words, "--junitxml", "--junit-xml") or "no:junitxml" in words or "-pno:junitxml" in words:
        return Recognised("pytest", via, declared_reporter=True)  # its own, or it turned the reporter off
    return Recognised("pytest", via, ("--junitxml={junit}",))


def _cargo(words: list[str]) -> Recognised | None:
    at = 2 if len(words) > 2 and words[1].startswith("+") else 1
    if at < len(words) and words[at] == "test":
        return Recognised("cargo", "cargo test")  # its harness lines are read (tasks.cargo_tests)
    return None


def _node(words: list[str]) -> Recognised:
    if _names(words, "--test-reporter"):
        return Recognised("node", "node --test", declared_reporter=True)
    reporter = (
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        "--test-reporter=junit",
        "--test-reporter-destination={junit}",
    )
    return Recognised("node", "node --test", reporter, at=words.index("--test") + 1)


def _js_runner(runner: str, words: Sequence[str], via: str) -> Recognised:
    if runner == "jest":
        if _names(words, "--json", "--reporters", "--testResultsProcessor"):
            return Recognised("jest", via, declared_reporter=True, report_format="jest-json")
        return Recognised("jest", via, ("--json", "--outputFile={report}"), report_format="jest-json")
    if runner == "vitest":
        if _names(words, "--reporter"):
            return Recognised("vitest", via, declared_reporter=True)
        return Recognised("vitest", via, ("--reporter=default", "--reporter=junit", "--outputFile.junit={junit}"))
    if _names(words, "--reporter", "-R"):
        return Recognised("mocha", via, declared_reporter=True)
    return Recognised("mocha", via, ("--reporter", "xunit", "--reporter-option", "output={junit}"))


def _npm_script(words: list[str], scripts: Callable[[], Mapping[str, str]] | None) -> Recognised | None:
    """`npm test`, `npm t`, `npm run[-script] NAME`: the runner of a one-command script."""
    if len(words) > 1 and words[1] in ("test", "t", "tst"):
        name, after = "test", 2
    elif len(words) > 2 and words[1] in ("run", "run-script", "rum", "urn"):
        name, after = words[2], 3
    else:
        return None
    script = (scripts() if scripts is not None else {}).get(name)
    if not isinstance(script, str) or _SHELL_SYNTAX.search(script):
        return None
    parts = script.split()
    while parts and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", parts[0]):
        parts = parts[1:]  # `NODE_ENV=test jest`: npm runs scripts through sh, which reads these
    if not parts:
        return None
    program = PurePath(parts[0]).name
    if program in _JS_WRAPPERS and len(parts) > 1:
        parts = parts[1:]
        program = PurePath(parts[0]).name
    via = f"npm {' '.join(words[1:after])} → {program}"
    if program in ("jest", "vitest", "mocha"):
        found = _js_runner(program, [*parts, *words[after:]], via)
    elif program == "node" and "--test" in parts:
        # Options after the script's own words would land after its file patterns: read its summary.
        return Recognised("node", via)
    else:
        return None
    if not found.reporter:
        return found
    separator = () if "--" in words[after:] else ("--",)
    return replace(found, reporter=(*separator, *found.reporter))


def with_reporter(
    spec: TaskSpec, scripts: Callable[[], Mapping[str, str]] | None = None
) -> tuple[TaskSpec, Recognised | None]:
    """`spec` with the recognised runner's reporter added to its test command (its last
    one), and what was recognised (None: no runner simple-brief knows)."""
    step = list(spec.steps[-1])
    found = recognise(step, scripts)
    if found is None or not found.reporter:
        return spec, found
    if found.at is None:
        step += found.reporter
    else:
        step[found.at : found.at] = found.reporter
    return replace(spec, steps=(*spec.steps[:-1], tuple(step))), found
