"""What an answer tells the caller to do next, named the way the caller calls things: an
agent gets the tool call (`expand_at server.py line:12`), a person at the command line the
command (`simple-brief expand server.py line:12`).

The CLI sets `SURFACE` to "cli" for the call it runs (a context variable, so the daemon's
worker thread and the MCP server's threads each keep their own); tools write every hint
with `command(...)`.
"""

from __future__ import annotations

import shlex
from contextvars import ContextVar

#: Who reads the answer: "mcp" (an agent calling tools) or "cli" (a person in a shell).
SURFACE: ContextVar[str] = ContextVar("simple_brief_surface", default="mcp")

#: CLI commands that take a tool's first argument as a positional, and its parameters as flags.
_CLI = {
    "simple_read": ("outline", ("path",)),
    "expand_at": ("expand", ("path", "selector")),
    "document_symbols": ("symbols", ("path",)),
    "search": ("search", ("query",)),
    "diagnostics": ("diagnostics", ("path",)),
    "docs search": ("docs search", ("query",)),
    "docs get": ("docs get", ("id",)),
    "docs list": ("docs list", ("module",)),
    "docs resolve": ("docs resolve", ("query",)),
    "docs index": ("docs index", ("library",)),
}
#: Tools whose command depends on one parameter: `docs action=search` is `simple-brief docs search`.
_CLI_MODES = {"docs": "action"}
#: Parameters the CLI leaves out when they have these values (its defaults).
_CLI_DEFAULTS = {("simple_read", "mode"): "outline"}
#: Parameters the CLI spells as a flag of its own.
_CLI_FLAGS = {("document_symbols", "include_hover", "false"): "--no-hover"}


def command(tool: str, *args: str, **params: object) -> str:
    """The next step: `tool arg1 arg2 k=v` for an agent, the `simple-brief` command for a
    person (a tool without a command of its own goes through `simple-brief run`)."""
    if SURFACE.get() != "cli":
        return " ".join([tool, *args, *(f"{k}={v}" for k, v in params.items())])
    mode = _CLI_MODES.get(tool)
    if mode is not None and mode in params:
        params = dict(params)
        tool = f"{tool} {params.pop(mode)}"
    known = _CLI.get(tool)
    if known is None:
        words = ["simple-brief", "run", tool]
        names = ("path", "selector", "query", "id")
        for field, arg in zip(names, args, strict=False):
            words += ["--param", f"{field}={arg}"]
        words += [part for k, v in params.items() for part in ("--param", f"{k}={v}")]
        return " ".join(shlex.quote(w) if w != "…" else w for w in words)
    command_name, positional = known
    words = ["simple-brief", *command_name.split(), *args]
    for key, value in params.items():
        if key in positional[len(args) :]:
            words.append(str(value))
        elif flag := _CLI_FLAGS.get((tool, key, str(value))):
            words.append(flag)
        elif _CLI_DEFAULTS.get((tool, key)) != value:
            words += [f"--{key.replace('_', '-')}", str(value)]
    return " ".join(w if w in ("…", "NAME") or w.startswith("line:") else shlex.quote(w) for w in words)
