"""System tools (no editor context, AC15): server_status, logs; and editor_get_context."""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from pathlib import Path
from typing import Annotated, Any, Literal

from simple_brief import __version__
from simple_brief.editor.context import ListsEditors
from simple_brief.errors import UserError
from simple_brief.files.path_escapes import escape_path
from simple_brief.proc import task_cgroup
from simple_brief.tools import Call, Doc, ToolResult, listed, tool

#: Log records kept in memory for the `logs` tool.
LOG_RECORDS = 500
_STARTED = time.time()


class RingHandler(logging.Handler):
    """Keeps the last LOG_RECORDS records of the `simple_brief` loggers for `logs`."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: deque[logging.LogRecord] = deque(maxlen=LOG_RECORDS)

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


RING = RingHandler()
logging.getLogger("simple_brief").addHandler(RING)

Level = Literal["debug", "info", "warning", "error"]
_LEVELS: dict[Level, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


@tool(
    "server_status",
    "system",
    "simple-brief's version, root, editor, tools and language servers, or its log lines. USE FOR: checking "
    "what it sees. DON'T USE FOR: code, your program's logs.",
    system=True,
)
def server_status(
    call: Call,
    logs: Annotated[Level | None, Doc("Instead: its log lines from this level.")] = None,
    limit: Annotated[int, Doc("logs: most lines.")] = 50,
) -> ToolResult:
    """Version, workspace, editor backend, the listed tools, uptime, a `language servers for
    LANG:` line per language the session's own servers were asked about (configured, or found
    where and chosen), and what keeps a task's processes (`tasks: …`, `task_cgroup`); with
    `logs`, the recent log lines instead (`log_lines`: a tool of its own before issue 30)."""
    if logs is not None:
        return log_lines(logs, limit)
    editor = call.editor.status()
    # The tools this server lists (its toolsets and the system tools), not every registered one.
    tools = listed(call.toolsets)
    data: dict[str, Any] = {
        "version": __version__,
        "workspace": str(call.workspace.root),
        "editor": editor,
        "budget_tokens": call.budget,
        "tools": len(tools),
        "toolsets": list(call.toolsets) if call.toolsets is not None else sorted({t.toolset for t in tools}),
        "uptime_s": round(time.time() - _STARTED, 1),
    }
    attached = ", ".join(f"{k}={v}" for k, v in editor.items())
    text = (
        f"simple-brief {__version__} · workspace {call.workspace.root}\n"
        f"editor: {attached}\n"
        f"budget {call.budget:,} tokens · {len(tools)} tools · up {data['uptime_s']:.0f} s\n"
        + "\n".join(_language_servers(call, data))
    )
    contained = task_cgroup.containment()
    data["tasks_cgroup"] = {
        "parent": contained.parent,
        "controllers": list(contained.controllers),
        "why": contained.why,
    }
    text += "\n" + contained.line()
    notes = _config_notes(call)
    if notes:
        data["config_notes"] = notes
        text += "\n" + "\n".join(f"config: {note}" for note in notes)
    return ToolResult([text], data)


def _config_notes(call: Call) -> list[str]:
    """What the configs say in an older spelling (or why they cannot be read)."""
    try:
        return list(call.config.notes)
    except UserError as error:
        return [str(error)]


def _language_servers(call: Call, data: dict[str, Any]) -> list[str]:
    """One line per language the session's own servers were asked about; their data in
    `data["language_servers"]` (by language) and `data["servers"]` (each one started)."""
    pool = call.session.language_servers
    seen = pool.discoveries() if hasattr(pool, "discoveries") else []
    started = pool.status() if hasattr(pool, "status") else []
    states = {s["name"]: _server_state(s) for s in started}
    data["language_servers"] = {d.filetype: d.data() for d in seen}
    data["servers"] = started
    if not seen:
        return ["language servers: none asked for yet (each language's are found on its first request)"]
    return [d.line(states) for d in seen]


def _server_state(server: dict[str, Any]) -> str:
    """`failed: …`, `stopped`, or `running, ready` / `running, loading the workspace (3 s so
    far; work: indexing)`: whether a workspace-wide question would wait for it now."""
    if server["failure"]:
        return f"failed: {server['failure']}"
    if not server["running"]:
        return "stopped"
    return f"running, {server['workspace']}" if server.get("workspace") else "running"


def log_lines(level: Level, limit: int) -> ToolResult:
    """The last log records at or above `level`, one line each: `time LEVEL logger: message`."""
    if limit < 1:
        raise UserError("parameter `limit` must be at least 1.")
    floor = _LEVELS[level]
    records = [r for r in RING.records if r.levelno >= floor][-limit:]
    lines = [
        f"{time.strftime('%H:%M:%S', time.localtime(r.created))} {r.levelname} {r.name}: {r.getMessage()}"
        for r in records
    ]
    data = {"lines": len(lines)}
    return ToolResult(["\n".join(lines) if lines else f"No log lines at {level} or above."], data)


@tool(
    "editor_get_context",
    "read",
    "Where the person works: file, cursor, selection, enclosing symbols. USE FOR: the start of an editing "
    "task. DON'T USE FOR: asking again (every answer carries it).",
)
def editor_get_context(
    call: Call,
    list_editors: Annotated[
        bool,
        Doc("Also list every Neovim on this workspace."),
    ] = False,
) -> ToolResult:
    """No data of its own (AC3): the adapter adds the editor context to every answer;
    with `list_editors`, one line per Neovim registered for the workspace."""
    blocks: list[str] = []
    data: dict[str, Any] = {}
    if call.editor.name == "disk":
        blocks.append("No editor is attached (disk mode): there is no cursor or selection to report.")
    if list_editors:
        editors = call.editor.editors() if isinstance(call.editor, ListsEditors) else []
        blocks.append(_editors_text(editors, call.workspace.root))
        # Not their addresses: a Neovim's server address lets anyone drive it.
        data["editors"] = [
            {
                k: escape_path(v) if k in ("cwd", "file") and isinstance(v, str) else v
                for k, v in item.items()
                if k != "address"
            }
            for item in editors
        ]
    return ToolResult(blocks, data)


def _editors_text(editors: list[dict[str, Any]], root: Path) -> str:
    """One line per Neovim: `2. pid 4242 · cwd . · src/x.py · used 3 s ago · followed (used last)`."""
    if not editors:
        return "No Neovim with simple-brief is registered for this workspace."
    now = time.time()
    lines = [f"Neovims on this workspace ({len(editors)}), in the order they started:"]
    for index, item in enumerate(editors, 1):
        parts = [f"{index}. pid {item['pid']}", f"cwd {_shown(item['cwd'], root)}"]
        if item.get("file"):
            parts.append(_shown(item["file"], root))
        parts.append(f"used {max(0, round(now - float(item['used'])))} s ago")
        if item.get("followed"):
            origin = item.get("origin")
            parts.append("followed" + (f" ({origin})" if origin in ("--nvim", "$NVIM") else ""))
        if item.get("usedLast"):
            parts.append("used last")
        lines.append(" · ".join(parts))
    return "\n".join(lines)


def _shown(path: str, root: Path) -> str:
    """A path relative to the workspace root when inside it (`.` for the root itself), escaped."""
    for base in (root, root.resolve()):
        try:
            rel = os.path.relpath(path, base)
        except ValueError:
            continue
        if rel != ".." and not rel.startswith(".." + os.sep):
            return escape_path(Path(rel).as_posix())
    return escape_path(path)
