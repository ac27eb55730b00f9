"""Task declarations: what `[tasks]` in a config says to run, and, where nothing is
declared, the lines that would declare what the project looks like it uses.

Two forms, in the user's own config or a trusted `.simple-brief.toml`::

    [tasks]
    build = ["make", "-j2"]                      # an argv list: the program and its arguments

    [tasks.test]
    argv = ["python", "-m", "pytest", "-q", "--junitxml={junit}"]
    filter = ["-k", "{filter}"]                  # added to the (last) command when a filter is given
    timeout_s = 600                              # limits of the run (defaults below)
    memory_mb = 4096
    output_mb = 8
    cwd = "backend"                              # inside the workspace
    env = { PYTHONHASHSEED = "0" }
    artifacts = ["build/**/*.o"]                 # files the run creates or changes, reported
    report = "coverage.json"                     # a report the run writes (instead of {report})

`argv` may also be a list of argv lists, run in order (phases; the first that fails stops
the run, except in `coverage`: failing tests still leave data for its report step), e.g.
`coverage run -m pytest` then `coverage json -o {report}`.

Placeholders, the only interpolation: `{filter}` (in `filter` only), `{file}` (the file
a profile or a single test run is about), `{junit}` and `{report}` (a fresh file
simple-brief reads the JUnit XML or the report from). `{filter}` and `{file}` hold what an
agent passed: data, never an option (`simple_brief.tasks.agent_values`). Nothing runs
through a shell: a command whose program is a shell is refused when it would run.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simple_brief.beneath import read_beneath
from simple_brief.errors import UserError

#: The tasks the tools run, and what each is for.
KNOWN = {
    "build": "build_compile",
    "check": "build_check",
    "clean": "build_clean",
    "test": "test_run",
    "test_list": "test_list",
    "coverage": "test_coverage",
    "profile": "profile_run",
}
PLACEHOLDERS = ("{filter}", "{file}", "{junit}", "{report}")
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MEMORY_MB = 4096
DEFAULT_OUTPUT_MB = 8.0
#: Programs that are shells: a task never runs one (its text would be a command string).
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox", "pwsh"})
_KEYS = ("argv", "filter", "timeout_s", "memory_mb", "output_mb", "cwd", "env", "artifacts", "report")


@dataclass(frozen=True)
class TaskSpec:
    """One declared task.

    Attributes:
        name: its key under `[tasks]`.
        steps: the commands, run in order (most tasks have one).
        filter: arguments added to the last command when the caller gives a filter.
        timeout_s, memory_mb, output_mb: the run's limits (0 memory: none).
        cwd: the folder it runs in, relative to the workspace root ("" the root).
        env: variables added to the environment.
        artifacts: globs (relative to cwd) of the files the run produces.
        report: a report file the run writes, relative to cwd ("" none).
    """

    name: str
    steps: tuple[tuple[str, ...], ...]
    filter: tuple[str, ...] = ()
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    output_mb: float = DEFAULT_OUTPUT_MB
    cwd: str = ""
    env: dict[str, str] = field(default_factory=dict)
    artifacts: tuple[str, ...] = ()
    report: str = ""

    @property
    def argv(self) -> list[str]:
        """The first command (what `Config.programs` shows)."""
        return list(self.steps[0])

    def uses(self, placeholder: str) -> bool:
        """Whether an argument of a command holds the placeholder."""
        return any(placeholder in arg for step in self.steps for arg in step)


def parse_task(name: str, value: Any, where: str) -> TaskSpec:
    """A `[tasks]` entry: an argv list, or a table with `argv` and options.

    Raises:
        UserError: it breaks the schema (the sentence names the key and the fix).
    """
    key = f"tasks.{name}"
    if not isinstance(value, dict):
        return TaskSpec(name, (_argv(value, key, where),))
    unknown = sorted(set(value) - set(_KEYS))
    if unknown:
        raise UserError(f"`{key}.{unknown[0]}` in {where} is not a task setting; use one of {', '.join(_KEYS)}.")
    if "argv" not in value:
        raise UserError(f"`{key}` in {where} has no `argv`; give the program and its arguments as a list.")
    raw = value["argv"]
    if isinstance(raw, list) and raw and all(isinstance(step, list) for step in raw):
        steps = tuple(_argv(step, f"{key}.argv", where) for step in raw)
    else:
        steps = (_argv(raw, f"{key}.argv", where),)
    filter_args = tuple(_strings(value.get("filter", []), f"{key}.filter", where))
    if filter_args and not any("{filter}" in arg for arg in filter_args):
        raise UserError(
            f'`{key}.filter` in {where} must hold `{{filter}}` where the filter goes, e.g. ["-k", "{{filter}}"].'
        )
    env = value.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items()):
        raise UserError(f'`{key}.env` in {where} must be a table of strings, e.g. {{ PYTHONHASHSEED = "0" }}.')
    cwd = value.get("cwd", "")
    if not isinstance(cwd, str) or Path(cwd).is_absolute() or ".." in Path(cwd).parts:
        raise UserError(f"`{key}.cwd` in {where} must be a folder inside the workspace, relative to its root.")
    report = value.get("report", "")
    if not isinstance(report, str) or Path(report).is_absolute() or ".." in Path(report).parts:
        raise UserError(f"`{key}.report` in {where} must be a file path inside the workspace, relative to cwd.")
    return TaskSpec(
        name,
        steps,
        filter=filter_args,
        timeout_s=_number(value, "timeout_s", DEFAULT_TIMEOUT_S, key, where),
        memory_mb=int(_number(value, "memory_mb", DEFAULT_MEMORY_MB, key, where, zero=True)),
        output_mb=_number(value, "output_mb", DEFAULT_OUTPUT_MB, key, where),
        cwd=cwd,
        env=dict(env),
        artifacts=tuple(_strings(value.get("artifacts", []), f"{key}.artifacts", where)),
        report=report,
    )


def argv_spelling(table: dict[str, Any], key: str, where: str, alias: str) -> tuple[str, str | None]:
    """Which key of `table` (the `key` table of a config) holds its program and arguments:
    `argv`, the one spelling of every table that runs a program, or `alias`, the older
    spelling of this kind of table (`command` for servers, `adapter` for debug adapters),
    still read; with a note when it is the alias.

    Raises:
        UserError: both are given.
    """
    if "argv" in table and alias in table:
        raise UserError(f"`{key}` in {where} has both `argv` and `{alias}`; keep `argv` (`{alias}` is its old name).")
    if alias in table:
        return alias, f"`{key}.{alias}` in {where} is the old spelling of `argv`, still read; rename it to `argv`."
    return "argv", None


def _argv(value: Any, key: str, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        raise UserError(
            f"`{key}` in {where} is one string; give the program and its arguments as a list "
            f"(e.g. {value.split()!r}): nothing runs through a shell."
        )
    if not isinstance(value, list) or not value or not all(isinstance(a, str) and a for a in value):
        raise UserError(f"`{key}` in {where} must be a non-empty list of strings: the program and its arguments.")
    return tuple(value)


def _strings(value: Any, key: str, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(a, str) for a in value):
        raise UserError(f"`{key}` in {where} must be a list of strings.")
    return list(value)


def _number(table: dict[str, Any], name: str, default: float, key: str, where: str, zero: bool = False) -> float:
    value = table.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0 or (value == 0 and not zero):
        floor = "0 or more" if zero else "above 0"
        raise UserError(f"`{key}.{name}` in {where} must be a number {floor}, not {value!r}.")
    return float(value)


# --------------------------------------------------------------------------- detection


@dataclass(frozen=True)
class Suggestion:
    """What the project looks like, and the config text that declares its tasks."""

    kind: str
    evidence: str
    tasks: dict[str, dict[str, Any]]

    def toml(self, names: list[str] | None = None) -> str:
        """The `[tasks.NAME]` tables (only `names` when given), ready to paste."""
        out = []
        for name, table in self.tasks.items():
            if names is not None and name not in names:
                continue
            out.append(f"[tasks.{name}]")
            out.extend(f"{key} = {_toml_value(value)}" for key, value in table.items())
            out.append("")
        return "\n".join(out).rstrip()


def _toml_value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def detect(root: Path) -> list[Suggestion]:
    """What the project at `root` looks like it is built and tested with (nothing is run)."""
    found: list[Suggestion] = []
    python = _python_project(root)
    if python:
        found.append(python)
    if (root / "Cargo.toml").is_file():
        found.append(
            Suggestion(
                "Rust (cargo)",
                "Cargo.toml",
                {
                    "build": {"argv": ["cargo", "build", "--message-format=json"]},
                    "check": {"argv": ["cargo", "check", "--message-format=json"]},
                    "clean": {"argv": ["cargo", "clean"]},
                    # after `--` the filter reaches only the test binary, as its positional filter
                    "test": {"argv": ["cargo", "test"], "filter": ["--", "{filter}"]},
                    "test_list": {"argv": ["cargo", "test", "--", "--list"]},
                },
            )
        )
    if (root / "go.mod").is_file():
        found.append(
            Suggestion(
                "Go",
                "go.mod",
                {
                    "build": {"argv": ["go", "build", "./..."]},
                    "check": {"argv": ["go", "vet", "./..."]},
                    "clean": {"argv": ["go", "clean", "./..."]},
                    "test": {"argv": ["go", "test", "./..."], "filter": ["-run", "{filter}"]},
                    "test_list": {"argv": ["go", "test", "-list", ".", "./..."]},
                },
            )
        )
    node = _node_project(root)
    if node:
        found.append(node)
    make = _make_project(root)
    if make:
        found.append(make)
    return found


def _python_project(root: Path) -> Suggestion | None:
    marks = [n for n in ("pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini") if (root / n).is_file()]
    if not marks and not (root / "tests").is_dir():
        return None
    venv = next((f"{d}/bin/python" for d in (".venv", "venv") if (root / d / "bin" / "python").exists()), "python3")
    if not _uses_pytest(root):
        tests = {"test": {"argv": [venv, "-m", "unittest"], "filter": ["-k", "{filter}"]}}
        return Suggestion("Python (unittest)", ", ".join(marks) or "tests/", tests)
    tasks: dict[str, dict[str, Any]] = {
        "test": {"argv": [venv, "-m", "pytest", "-q"], "filter": ["-k", "{filter}"]},
        "test_list": {"argv": [venv, "-m", "pytest", "--collect-only", "-q"]},
        "coverage": {
            "argv": [
                [venv, "-m", "coverage", "run", "-m", "pytest", "-q"],
                [venv, "-m", "coverage", "json", "-o", "{report}"],
            ]
        },
        "profile": {"argv": [venv, "-m", "cProfile", "-o", "{report}", "{file}"]},
        "check": {"argv": [venv, "-m", "mypy", "."]},
    }
    return Suggestion("Python (pytest)", ", ".join(marks) or "tests/", tasks)


def _uses_pytest(root: Path) -> bool:
    """Whether the project looks tested with pytest rather than unittest: its config
    (pytest.ini, conftest.py, `[tool.pytest…]`, `[tool:pytest]`, tox's `[pytest]`), pytest
    named in pyproject.toml, the setup or requirements files, or installed in its venv; else
    its test files (`test_*.py` at the root, in tests/ or test/): `import pytest` or
    module-level `def test_` functions say pytest, `unittest.TestCase` classes alone say
    unittest; no evidence either way says pytest."""
    if any((root / name).is_file() for name in ("pytest.ini", "conftest.py", "tests/conftest.py")):
        return True
    for name in ("pyproject.toml", "setup.cfg", "tox.ini", "setup.py", "requirements-dev.txt", "requirements.txt"):
        if b"pytest" in _head(root, name):
            return True
    if any(root.glob(".venv/lib/python3*/site-packages/pytest")) or any(
        root.glob("venv/lib/python3*/site-packages/pytest")
    ):
        return True
    texts = [_head(root, rel) for rel in _test_files(root)]
    if any(b"import pytest" in t or re.search(rb"^def test_", t, re.M) for t in texts):
        return True
    return not any(b"TestCase" in t for t in texts)


def _head(root: Path, rel: str) -> bytes:
    """The first MB of a file of the project (no link followed), b"" when it cannot be read."""
    try:
        return read_beneath(root, rel, 1024 * 1024)
    except UserError:
        return b""


def _test_files(root: Path, most: int = 20) -> list[str]:
    found = []
    for folder in ("", "tests", "test"):
        try:
            names = sorted(os.listdir(root / folder)) if folder == "" or (root / folder).is_dir() else []
        except OSError:
            continue
        found += [f"{folder}/{n}" if folder else n for n in names if n.startswith("test_") and n.endswith(".py")]
    return found[:most]


def _node_project(root: Path) -> Suggestion | None:
    import json

    try:
        data = json.loads((root / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return None
    tasks: dict[str, dict[str, Any]] = {}
    for task, script in (("build", "build"), ("check", "typecheck"), ("clean", "clean"), ("test", "test")):
        if script in scripts:
            tasks[task] = {"argv": ["npm", "run", script]}
    if "check" not in tasks and (root / "tsconfig.json").is_file():
        tasks["check"] = {"argv": ["npx", "tsc", "--noEmit", "--pretty", "false"]}
    return Suggestion("Node (package.json scripts)", "package.json", tasks) if tasks else None


def _make_project(root: Path) -> Suggestion | None:
    for name in ("GNUmakefile", "makefile", "Makefile"):
        try:
            text = (root / name).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        targets = set(re.findall(r"^([A-Za-z0-9_.-]+)\s*:(?!=)", text, re.M))
        tasks: dict[str, dict[str, Any]] = {"build": {"argv": ["make"]}}
        for task in ("check", "clean", "test"):
            if task in targets:
                tasks[task] = {"argv": ["make", task]}
        return Suggestion("Makefile", f"{name} (targets: {', '.join(sorted(targets)[:8]) or 'none'})", tasks)
    return None


@dataclass(frozen=True)
class Detected:
    """A task nobody declared, taken from what the project looks like: `spec` is the first
    suggestion's; `others` the other suggestions that have the task."""

    spec: TaskSpec
    suggestion: Suggestion
    others: tuple[Suggestion, ...] = ()

    def note(self) -> str:
        """The line saying what ran and why."""
        name = self.spec.name
        also = f"; also found: {', '.join(s.kind for s in self.others)}" if self.others else ""
        return (
            f"No [tasks.{name}] is declared: ran `{' '.join(self.spec.argv)}`, detected from "
            f"{self.suggestion.evidence} ({self.suggestion.kind}) in this trusted workspace{also}; declare "
            f"[tasks.{name}] in .simple-brief.toml to run something else."
        )

    def json(self) -> dict[str, Any]:
        return {"argv": self.spec.argv, "kind": self.suggestion.kind, "evidence": self.suggestion.evidence}


def detect_task(root: Path, name: str) -> Detected | None:
    """The task `name` as the first suggestion of `detect(root)` that has it, or None."""
    found = [s for s in detect(root) if name in s.tasks]
    if not found:
        return None
    spec = parse_task(name, found[0].tasks[name], f"{found[0].evidence} (detected)")
    return Detected(spec, found[0], tuple(found[1:]))
