"""What the `debug` tools say about a session (`tools.debug`): where execution stands as one
line (`stopped at app.py:16 in Function:main (breakpoint 1) · session d1`), frames named by
their enclosing symbol from the outline, breakpoints, the answer's shape, and the marks the
person's Neovim shows (`EditorBackend.show_debug`).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated, Any

from simple_brief import languages
from simple_brief.debug.model import Breakpoint
from simple_brief.debug.session import DebugSession
from simple_brief.debug.sessions import Sessions
from simple_brief.editor import Snapshot
from simple_brief.editor.context import build_context
from simple_brief.errors import UserError, excerpt
from simple_brief.scan import Outline, scan
from simple_brief.source import Source
from simple_brief.tools import Call, Doc, ToolResult

#: Characters of one variable's value shown (the data keeps up to VALUE_DATA_CHARS).
VALUE_CHARS = 200
VALUE_DATA_CHARS = 2000
#: Lines of new program output shown in an answer.
OUTPUT_LINES = 20
#: Characters per token, for cutting listings to the budget.
CHARS_PER_TOKEN = 4

SessionId = Annotated[str, Doc("The session id debug_launch returned (`d1`).")]
WaitS = Annotated[float, Doc("Seconds to wait for the program to stop before answering `running`.")]
FrameIndex = Annotated[int, Doc("Frame index from debug_stack (0: the innermost, where it stopped).")]


def sessions(call: Call) -> Sessions:
    """The server's debug sessions (created on first use)."""
    with call.session.debug_lock:
        if call.session.debug is None:
            call.session.debug = Sessions()
        found: Sessions = call.session.debug
    return found


def _file_lines(call: Call, path: Path) -> int:
    try:
        return call.workspace.read(path)[1].line_count
    except UserError:
        raise
    except Exception as exc:  # a decoding surprise: say so in one sentence
        raise UserError(f"{call.workspace.display(path)} cannot be read ({exc}); name a source file.") from None


def parse_location(call: Call, text: str) -> tuple[Path, int]:
    """`path:line` as a file of the workspace and a line inside it.

    Raises:
        UserError: not `path:line`, a missing file, or a line outside it.
    """
    where, sep, number = text.strip().rpartition(":")
    if not sep or not where or not number.strip().isdigit():
        raise UserError(f"{excerpt(text)} is not a `path:line` location; write it like `app.py:12`.")
    path = call.workspace.resolve(where)
    line = int(number)
    if not path.is_file():
        raise UserError(f"{call.workspace.display(path)} is not a file of the workspace; check the path.")
    count = _file_lines(call, path)
    if not 1 <= line <= count:
        raise UserError(
            f"line {line} is outside {call.workspace.display(path)}, which has {count} lines; "
            f"give a line from 1 to {count}."
        )
    return path, line


def _outline(call: Call, path: Path) -> Outline | None:
    try:
        real = path.resolve()
        if real == call.workspace.root or call.workspace.root in real.parents:
            return call.workspace.outline(real)[1]
        raw = call.workspace.read_anywhere(real)
        return scan(Source.from_bytes(raw, name=str(real)), languages.detect(real))
    except (UserError, OSError, ValueError):
        return None


def scope_of(call: Call, path: str, line: int, column: int = 1) -> str:
    """`Class:A > Method:b` around `path:line` from the outline, or "" when none is known."""
    outline = _outline(call, Path(path))
    if outline is None:
        return ""
    snapshot = Snapshot(
        Path(path),
        outline.language.name,
        outline.source.line_count,
        False,
        (line, max(column, 1)),
        text=outline.source.text,
    )
    hierarchy: str = build_context(snapshot, outline.symbols)["symbols"].get("scopeHierarchy") or ""
    return hierarchy


def shown_path(call: Call, path: str) -> str:
    """A frame's path as answers show it (workspace-relative inside it)."""
    return call.workspace.display(Path(os.path.abspath(path)))


def frame_data(call: Call, frame: dict[str, Any], index: int) -> dict[str, Any]:
    """One stack frame: index, name, path:line, enclosing symbol."""
    source = frame.get("source") or {}
    path = source.get("path")
    line = int(frame.get("line") or 0)
    data: dict[str, Any] = {"index": index, "name": frame.get("name", ""), "line": line, "id": frame.get("id")}
    if path:
        data["path"] = shown_path(call, path)
        data["symbol"] = scope_of(call, path, line, int(frame.get("column") or 1))
    return data


def _reason(session: DebugSession, hit: Breakpoint | None, exception: dict[str, Any]) -> str:
    stop = session.stop
    assert stop is not None
    if hit is not None:
        return f"breakpoint {hit.number}"
    if stop.reason == "exception":
        name = exception.get("exceptionId") or stop.text or "exception"
        detail = exception.get("description") or stop.description
        return f"exception {name}: {excerpt(detail, 120)}" if detail and detail != name else f"exception {name}"
    return {"entry": "entry", "step": "step", "pause": "paused", "breakpoint": "breakpoint"}.get(
        stop.reason, stop.reason or "stopped"
    )


def state_line(call: Call, session: DebugSession, waited: float | None = None) -> tuple[str, dict[str, Any]]:
    """The answer's first line and the session's state as data."""
    data: dict[str, Any] = {
        "session_id": session.id,
        "state": session.state,
        "adapter": session.spec.name,
        "driver": session.driver,
    }
    if session.state == "stopped" and session.stop is not None:
        frames = session.frames(1)
        top: dict[str, Any] = frame_data(call, frames[0], 0) if frames else {"name": "", "line": 0}
        exception = session.exception_info()
        path = (frames[0].get("source") or {}).get("path") if frames else None
        hit = session.hit_breakpoint(path, int(top.get("line") or 0))
        reason = _reason(session, hit, exception)
        place = f"{top['path']}:{top['line']}" if "path" in top else f"{top['name']} (no source)"
        symbol = f" in {top['symbol']}" if top.get("symbol") else (f" in {top['name']}" if top.get("name") else "")
        text = f"stopped at {place}{symbol} ({reason})"
        data["stopped"] = {
            **{k: top.get(k) for k in ("path", "line", "symbol", "name")},
            "reason": session.stop.reason,
            "breakpoint": hit.number if hit is not None else None,
            "thread_id": session.stop.thread_id,
        }
        if exception:
            data["stopped"]["exception"] = {
                "id": exception.get("exceptionId"),
                "description": exception.get("description"),
            }
    elif session.state == "ended":
        text = f"ended: {session.ended}"
        if session.exit_code is not None and session.limit_exceeded is None and session.ended == "the program exited":
            text += f" (exit code {session.exit_code})"
        data["exit_code"] = session.exit_code
        data["limit_exceeded"] = session.limit_exceeded
        data["ended"] = session.ended
    else:
        waited_text = f"no stop within {waited:g} s; " if waited is not None else ""
        text = f"running ({waited_text}debug_pause stops it, debug_continue waits for a breakpoint)"
    return f"{text} · session {session.id}", data


def answer(call: Call, session: DebugSession, blocks: list[str] | None = None, **extra: Any) -> ToolResult:
    """The state line, `blocks`, the program's new output; the state as data with `extra`."""
    waited = extra.pop("waited", None)
    line, data = state_line(call, session, waited)
    out = [line, *(blocks or [])]
    output = session.new_output()
    if output:
        lines = output.rstrip("\n").splitlines()
        more = f"… {len(lines) - OUTPUT_LINES} earlier lines\n" if len(lines) > OUTPUT_LINES else ""
        out.append("output:\n" + more + "\n".join(line[:VALUE_CHARS] for line in lines[-OUTPUT_LINES:]))
    data["output"] = output[-VALUE_DATA_CHARS * 4 :]
    data.update(extra)
    data["editor"] = show_in_editor(call, session)
    return ToolResult(out, data)


def show_in_editor(call: Call, session: DebugSession) -> dict[str, Any]:
    """Show the session's breakpoints and stopped line in the person's editor (Neovim)."""
    show = getattr(call.editor, "show_debug", None)
    if not callable(show):
        return {}
    if session.driver == "nvim-dap":
        return {"nvim_dap": True, "driver": "nvim-dap"}  # nvim-dap's own signs and UI show it
    stopped = None
    if session.state == "stopped":
        frames = session.frames(1)
        path = (frames[0].get("source") or {}).get("path") if frames else None
        if path:
            stopped = {"path": os.path.abspath(path), "line": int(frames[0].get("line") or 1)}
    view = {
        "session": session.id,
        "ended": session.state == "ended",
        "stopped": stopped,
        "breakpoints": [
            {
                "path": str(bp.path),
                "line": bp.actual_line or bp.line,
                "number": bp.number,
                "verified": bp.verified,
                "condition": bp.condition or bp.hit_condition or bp.log_message,
            }
            for bp in session.all_breakpoints()
        ],
    }
    shown: dict[str, Any] = show(view) or {}
    return shown


def breakpoint_line(call: Call, bp: Breakpoint) -> str:
    parts = [f"{bp.number}. {call.workspace.display(bp.path)}:{bp.line}"]
    if bp.actual_line and bp.actual_line != bp.line:
        parts.append(f"(moved to line {bp.actual_line})")
    if bp.condition:
        parts.append(f"if {bp.condition}")
    if bp.hit_condition:
        parts.append(f"hit {bp.hit_condition}")
    if bp.log_message:
        parts.append(f"log {bp.log_message!r}")
    if not bp.verified:
        parts.append(f"· not verified{': ' + bp.message if bp.message else ''}")
    return " ".join(parts)


def breakpoint_data(call: Call, bp: Breakpoint) -> dict[str, Any]:
    return {
        "number": bp.number,
        "path": call.workspace.display(bp.path),
        "line": bp.line,
        "actual_line": bp.actual_line,
        "verified": bp.verified,
        "condition": bp.condition or None,
        "hit_condition": bp.hit_condition or None,
        "log_message": bp.log_message or None,
    }


def split_env(text: str) -> dict[str, str]:
    env: dict[str, str] = {}
    for word in split_args(text, "env"):
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise UserError(f'env entry {excerpt(word)} is not NAME=value; write `env: "DEBUG=1 MODE=fast"`.')
        env[name] = value
    return env


def split_args(text: str, what: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise UserError(f"`{what}` cannot be split into words ({exc}); check its quotes.") from None
