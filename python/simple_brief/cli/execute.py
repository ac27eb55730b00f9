"""A tool call (`calls.ToolCall`) run against the engine: what the standalone command and the
daemon both do with one, up to the answer `calls.render` prints."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, Protocol

from simple_brief import lsp as _disk_servers  # noqa: F401  (registers the disk-mode language servers)
from simple_brief import tools as registry
from simple_brief.cli.calls import EXIT_CANCELLED, ToolCall, error_answer
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.workspace import Workspace
from simple_brief.tools import hints


class Sessions(Protocol):
    """Where a call's session comes from and goes to."""

    def start(self, ws: Workspace) -> registry.Session:
        """The call's session."""
        ...

    def end(self, ws: Workspace, session: registry.Session) -> None:
        """After the call."""
        ...


class OneCallSessions:
    """A call's session in a standalone run: new, and stopped after the call (its language
    servers, docs index). The daemon keeps them with its warm workspaces instead (`daemon.warm`)."""

    def start(self, ws: Workspace) -> registry.Session:
        """The call's session."""
        return registry.Session()

    def end(self, ws: Workspace, session: registry.Session) -> None:
        """After the call: stop what its session started."""
        session.close()


class ProgressBar:
    """A `ProgressFn` drawing a tqdm bar on `file`, the command's stderr (never on stdout,
    which --json keeps clean); `columns` wide when given, else as wide as its terminal."""

    def __init__(self, file: Any, columns: int | None = None) -> None:
        self.bar: Any = None
        self.file = file
        self.columns = columns

    def __call__(self, done: float, total: float | None, message: str) -> None:
        from tqdm import tqdm

        label = message if len(message) <= 40 else "…" + message[-39:]
        if self.bar is None:
            width = {"ncols": self.columns} if self.columns else {"dynamic_ncols": True}
            self.bar = tqdm(total=total, desc=label, file=self.file, unit="file", leave=False, **width)
        elif total != self.bar.total:
            self.bar.reset(total=total)
        self.bar.set_description_str(label, refresh=False)
        self.bar.update(done - self.bar.n)
        if total is not None and done >= total:
            self.bar.refresh()  # the last step is drawn even inside tqdm's redraw interval

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def budget(given: int | None, settings: config.Config) -> int:
    """--budget when given, else the workspace config's (its default when it names none)."""
    if given is None:
        return settings.budget
    if given < 100:
        raise UserError("--budget must be at least 100 tokens.")
    return given


def tools_listing(as_json: bool) -> str:
    """What `simple-brief tools` prints."""
    tools = registry.load()
    if as_json:
        listing = [
            {"name": t.name, "toolset": t.toolset, "description": t.description, "inputSchema": t.input_schema()}
            for t in tools.values()
        ]
        return json.dumps(listing, indent=2) + "\n"
    parts = []
    for t in tools.values():
        params = " ".join(f"{p.name}=" + ("…" if p.required else f"[{p.default}]") for p in t.params)
        parts.append(f"{t.name} ({t.toolset}): {params}\n  {t.description}\n\n")
    return "".join(parts)


def answer(
    call: ToolCall,
    cancelled: threading.Event,
    stderr: Any,
    workspaces: Callable[[ToolCall], Workspace],
    sessions: Sessions,
) -> dict[str, Any]:
    """Run the call: its answer (`calls` describes it). `workspaces` opens the call's
    workspace, `sessions` starts and ends its session; a progress bar goes to `stderr`."""
    if not call.tool:
        return {"listing": tools_listing(call.as_json)}
    surface = hints.SURFACE.set("cli")  # this call's next steps named as commands (not for `mcp`)
    try:
        ws = workspaces(call)
        ws.max_bytes = call.max_bytes
        given = budget(call.budget, config.load(ws.root))
        columns = call.env.get("COLUMNS", "")
        bar = ProgressBar(stderr, int(columns) if columns.isdigit() else None) if call.progress else None
        session = sessions.start(ws)
        try:
            if call.command == "run":
                # As an agent would see it: with the editor's live state and context (AC2).
                result = _with_editor(ws, call, given, session, bar, cancelled)
            else:
                run = registry.Call(workspace=ws, budget=given, progress=bar, session=session, cancelled=cancelled)
                result = registry.invoke(call.tool, call.params, run)
        finally:
            if bar is not None:
                bar.close()
            sessions.end(ws, session)  # the docs index, language servers
    except UserError as err:
        return error_answer(err)
    except (KeyboardInterrupt, registry.Cancelled):
        return {"code": EXIT_CANCELLED}  # (Cancelled: in the daemon, whose client went away)
    finally:
        hints.SURFACE.reset(surface)
    shown: dict[str, Any] = {"tool": call.tool, "blocks": result.blocks}
    if call.as_json:
        shown["data"] = result.data
    return shown


def _with_editor(
    ws: Workspace,
    call: ToolCall,
    given: int,
    session: registry.Session,
    bar: ProgressBar | None,
    cancelled: threading.Event,
) -> registry.ToolResult:
    from simple_brief.servers import envelope

    tool = registry.get(call.tool)
    state = envelope.ServerState(workspace=ws, budget=given, session=session)
    state.editor = envelope.attach_editor(ws.root, call.nvim)
    result = envelope.answer(state, tool, call.params, bar, cancelled)
    if result.is_error:
        raise UserError(result.blocks[0])
    return registry.ToolResult(result.blocks, result.data)
