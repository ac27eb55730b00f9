"""Task declarations: what `[tasks]` in a config says to run (the config's schema of it;
running them is `simple_brief.tasks`, detecting what a project would declare `tasks.declared`).

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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
