"""Debug adapters: the `[debug.NAME]` tables of the configs, and the built-in one for Python.

    [debug.python]                              # overrides the built-in default
    argv = ["python", "-m", "debugpy.adapter"]  # (`adapter`, its older name, is still read)
    timeout_s = 600                             # a session's time limit (then every process is killed)
    memory_mb = 4096                            # RLIMIT_AS of the adapter and what it starts (0: none)

    [debug.lldb]                                # any other adapter that speaks DAP over stdio
    argv = ["lldb-dap"]
    launch = { stopOnEntry = false }            # extra `launch` arguments, passed as written
    agent_env = ["PYTHONPATH"]                  # code-loading variables an agent may set (none by default)

Like tasks, an adapter is an argv list (never a shell string), used from the workspace's
`.simple-brief.toml` only once the person trusted it, from their own config always. With
nothing configured, `python` is debugpy (a dependency of simple-brief) run by this
interpreter: `sys.executable -m debugpy.adapter`. The adapter's program is found like a
task's (`simple_brief.proc.programs`: never through a relative PATH entry or one inside the
workspace). The environment an agent passes to `debug_launch` may not set a variable that
loads code (`LD_PRELOAD`, `PYTHONPATH`, … `simple_brief.tasks.agent_values`) unless
`agent_env` names it.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from typing import Any

from simple_brief.errors import UserError
from simple_brief.files.task_specs import _number, argv_spelling

#: A session's time limit and memory limit when the table does not say.
DEFAULT_TIMEOUT_S = 600.0
DEFAULT_MEMORY_MB = 4096
_KEYS = ("argv", "adapter", "launch", "timeout_s", "memory_mb", "agent_env")
#: What debugpy's `launch` needs besides the program (the program's output comes back as events).
PYTHON_LAUNCH: dict[str, Any] = {"type": "python", "console": "internalConsole", "redirectOutput": True}


@dataclass(frozen=True)
class AdapterSpec:
    """One debug adapter.

    Attributes:
        name: the table's name (`[debug.NAME]`), what `debug_launch(adapter=...)` names.
        argv: the adapter's program and arguments (stdio transport).
        launch: extra arguments of every `launch` request.
        timeout_s: a session's time limit, seconds.
        memory_mb: the address-space limit of its processes (0: none).
        builtin: the default that needs no config.
        agent_env: code-loading environment variables an agent may still set.
    """

    name: str
    argv: tuple[str, ...]
    launch: dict[str, Any] = field(default_factory=dict)
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB
    builtin: bool = False
    agent_env: tuple[str, ...] = ()

    @property
    def is_python(self) -> bool:
        """Whether it is debugpy (its launch arguments and exception filters are known)."""
        return self.name == "python" or "debugpy" in " ".join(self.argv)


def builtin_python() -> AdapterSpec:
    """debugpy, run by this interpreter.

    Raises:
        UserError: debugpy is not installed (it is the `debug` extra).
    """
    if importlib.util.find_spec("debugpy") is None:
        raise UserError(
            "the built-in Python debug adapter needs debugpy, which is not installed with this engine: "
            "install the `debug` extra (pip install 'simple-brief[debug]'; the plugin's :SimpleBriefInstall "
            "does), or configure an adapter under [debug.python]."
        )
    return AdapterSpec("python", (sys.executable, "-m", "debugpy.adapter"), dict(PYTHON_LAUNCH), builtin=True)


def parse_adapter(name: str, value: Any, where: str) -> AdapterSpec:
    """A `[debug.NAME]` table.

    Raises:
        UserError: it breaks the schema (the sentence names the key and the fix).
    """
    key = f"debug.{name}"
    if not isinstance(value, dict):
        raise UserError(f"`{key}` in {where} must be a table with an `argv` list (the adapter and its arguments).")
    unknown = sorted(set(value) - set(_KEYS))
    if unknown:
        raise UserError(f"`{key}.{unknown[0]}` in {where} is not a debug setting; use one of {', '.join(_KEYS)}.")
    spelled, _note = argv_spelling(value, key, where, "adapter")
    argv = value.get(spelled)
    if isinstance(argv, str):
        raise UserError(
            f"`{key}.{spelled}` in {where} is one string; give the program and its arguments as a list "
            f"(e.g. {argv.split()!r}): nothing runs through a shell."
        )
    if not isinstance(argv, list) or not argv or not all(isinstance(a, str) and a for a in argv):
        raise UserError(
            f"`{key}.{spelled}` in {where} must be a non-empty list of strings: the adapter and its arguments."
        )
    launch = value.get("launch", {})
    if not isinstance(launch, dict):
        raise UserError(f"`{key}.launch` in {where} must be a table of `launch` arguments.")
    allowed = value.get("agent_env", [])
    if not isinstance(allowed, list) or not all(isinstance(a, str) and a for a in allowed):
        raise UserError(f'`{key}.agent_env` in {where} must be a list of variable names, e.g. ["PYTHONPATH"].')
    is_python = name == "python" or "debugpy" in " ".join(argv)
    return AdapterSpec(
        name,
        tuple(argv),
        {**(PYTHON_LAUNCH if is_python else {}), **launch},
        timeout_s=_number(value, "timeout_s", DEFAULT_TIMEOUT_S, key, where),
        memory_mb=int(_number(value, "memory_mb", DEFAULT_MEMORY_MB, key, where, zero=True)),
        agent_env=tuple(allowed),
    )


def adapter_named(configured: dict[str, AdapterSpec], name: str) -> AdapterSpec:
    """The adapter `name`: configured, else the built-in one for `python`.

    Raises:
        UserError: nothing configures it (the sentence says how to).
    """
    if name in configured:
        return configured[name]
    if name == "python":
        return builtin_python()
    known = ", ".join(sorted({"python", *configured}))
    raise UserError(
        f"no debug adapter `{name}` is configured (known: {known}); add `[debug.{name}]` with "
        f'`argv = ["program", "arg"]` to your config or a trusted .simple-brief.toml.'
    )
