"""A command line's tool call (`request.ToolCall`) run on a host: what the standalone command
(a host of its own, closed after the call) and the daemon (its one long-lived host) both do
with one, up to the answer `cli.calls.render` prints."""

from __future__ import annotations

import json
import threading
from typing import Any

from simple_brief import tools as registry
from simple_brief.defaults import DEFAULT_TOOLSETS, MIN_BUDGET_TOKENS
from simple_brief.errors import UserError
from simple_brief.host.context import attach_editor
from simple_brief.host.core import Host
from simple_brief.host.request import EXIT_CANCELLED, ToolCall, error_answer
from simple_brief.tools import hints


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


def checked_budget(given: int | None) -> int | None:
    """--budget when given (None: the workspace config's, read by the host).

    Raises:
        UserError: under the least budget an answer needs.
    """
    if given is not None and given < MIN_BUDGET_TOKENS:
        raise UserError(f"--budget must be at least {MIN_BUDGET_TOKENS} tokens.")
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


def answer(call: ToolCall, cancelled: threading.Event, stderr: Any, host: Host) -> dict[str, Any]:
    """Run the call on `host`: its answer (`request` describes it); a progress bar goes to
    `stderr`. `run` sees the editor's live state and context as an agent would (AC2); the
    other commands read the disk."""
    if not call.tool:
        return {"listing": tools_listing(call.as_json)}
    surface = hints.SURFACE.set("cli")  # this call's next steps named as commands (not for `mcp`)
    columns = call.env.get("COLUMNS", "")
    bar = ProgressBar(stderr, int(columns) if columns.isdigit() else None) if call.progress else None
    try:
        spec = registry.get(call.tool)
        budget = checked_budget(call.budget)
        # `run` answers as an agent would see it, with the editor's live state and context (AC2).
        nvim = call.nvim
        attach = (lambda root, secrets: attach_editor(root, nvim, secrets)) if call.command == "run" else None
        result = host.call(
            spec,
            call.params,
            root=call.folder(),
            editor_for=attach,
            budget=budget,
            toolsets=DEFAULT_TOOLSETS if call.command == "run" else None,
            max_bytes=call.max_bytes or None,
            progress=bar,
            cancelled=cancelled,
        )
    except UserError as err:
        return error_answer(err)
    except (KeyboardInterrupt, registry.Cancelled):
        return {"code": EXIT_CANCELLED}  # (Cancelled: in the daemon, whose client went away)
    finally:
        if bar is not None:
            bar.close()
        hints.SURFACE.reset(surface)
    if result.is_error:
        return error_answer(result.blocks[0])
    shown: dict[str, Any] = {"tool": call.tool, "blocks": result.blocks}
    if call.as_json:
        shown["data"] = result.data
    return shown
