"""The `debug` toolset: debug a program through the Debug Adapter Protocol — launch, breakpoints,
continue, step, pause, stack, variables, evaluate, terminate (`simple_brief.debug`).

Every answer's first line says where execution stands, in the project's text style:
`stopped at app.py:16 in Function:main (breakpoint 1) · session d1`, `running …`, or
`ended: …` (with the exit code, or the limit that stopped it); the structured data rides
beside it. Frames name their enclosing symbol from the outline, as the editor context
line does (`Class:A > Method:b`). Sessions live in the server (`Session.debug`) and end,
with every process, when it stops. In Neovim the agent's breakpoints show as signs and
the stopped line is highlighted (`EditorBackend.show_debug`).
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated, Any, Literal

from simple_brief import config, languages
from simple_brief.context import build_context
from simple_brief.debug.adapters import adapter_named
from simple_brief.debug.session import Breakpoint, DebugSession, Sessions
from simple_brief.editor import Snapshot
from simple_brief.errors import UserError, excerpt
from simple_brief.scan import Outline, scan
from simple_brief.source import Source
from simple_brief.tasks.sandbox import program
from simple_brief.tools import Call, Doc, ToolResult, tool

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


# ------------------------------------------------------------------------------ helpers


def sessions(call: Call) -> Sessions:
    """The server's debug sessions (created on first use)."""
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
    data: dict[str, Any] = {"session_id": session.id, "state": session.state, "adapter": session.spec.name}
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


def _breakpoint_line(call: Call, bp: Breakpoint) -> str:
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


def _breakpoint_data(call: Call, bp: Breakpoint) -> dict[str, Any]:
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


def _split_env(text: str) -> dict[str, str]:
    env: dict[str, str] = {}
    for word in _split_args(text, "env"):
        name, sep, value = word.partition("=")
        if not sep or not name:
            raise UserError(f'env entry {excerpt(word)} is not NAME=value; write `env: "DEBUG=1 MODE=fast"`.')
        env[name] = value
    return env


def _split_args(text: str, what: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise UserError(f"`{what}` cannot be split into words ({exc}); check its quotes.") from None


# ------------------------------------------------------------------------------- tools


@tool(
    "debug_launch",
    "debug",
    "Start a program (or a module such as pytest) under a debugger and run it to its first stop. "
    "Returns session_id and where it stopped. USE FOR: seeing why code misbehaves at run time "
    "(breakpoints, values, stepping). DON'T USE FOR: just running tests (test_run).",
    read_only=False,
)
def debug_launch(
    call: Call,
    program: Annotated[str | None, Doc("The program file to run, workspace-relative (`app.py`).")] = None,
    module: Annotated[str | None, Doc("A module to run instead (`pytest`), as `python -m`.")] = None,
    args: Annotated[str, Doc("Its arguments, split like a shell would (no shell runs): `-x tests/test_a.py`.")] = "",
    env: Annotated[str, Doc("Extra environment variables: `NAME=value NAME2=value`.")] = "",
    cwd: Annotated[str | None, Doc("The folder it runs in, workspace-relative (default: the root).")] = None,
    breakpoints: Annotated[str, Doc("Breakpoints to set before it runs: `app.py:12, lib.py:40`.")] = "",
    stop_on_entry: Annotated[bool, Doc("Stop at the program's first line.")] = False,
    exceptions: Annotated[
        Literal["uncaught", "raised", "none"], Doc("Stop on uncaught exceptions, every raised one, or none.")
    ] = "uncaught",
    just_my_code: Annotated[bool, Doc("Step only through the workspace's code (not libraries).")] = True,
    adapter: Annotated[str, Doc("The debug adapter by config name (`[debug.NAME]`); `python` is built in.")] = "python",
    wait_s: WaitS = 30.0,
    timeout_s: Annotated[
        float | None, Doc("This session's time limit in seconds (at most the adapter's `timeout_s`).")
    ] = None,
) -> ToolResult:
    """Launch a debug session."""
    if (program is None) == (module is None):
        raise UserError("give either `program` (a file) or `module` (like `pytest`) to debug_launch.")
    settings = config.load(call.workspace.root)
    spec = adapter_named(settings.debug, adapter)
    folder = call.workspace.resolve(cwd or ".")
    if not folder.is_dir():
        raise UserError(f"cwd {excerpt(cwd or '.')} is not a folder of the workspace; give one relative to the root.")
    extra_env = _split_env(env)
    arguments: dict[str, Any] = {
        **spec.launch,
        "name": f"simple-brief {program or module}",
        "request": "launch",
        "cwd": str(folder),
        "args": _split_args(args, "args"),
        "stopOnEntry": stop_on_entry,
    }
    if extra_env:
        arguments["env"] = extra_env
    if spec.is_python:
        arguments["justMyCode"] = just_my_code
    if program is not None:
        path = call.workspace.resolve(program)
        if not path.is_file():
            raise UserError(f"{excerpt(program)} is not a file of the workspace; give the program's path.")
        arguments["program"] = str(path)
        label = call.workspace.display(path)
    else:
        assert module is not None
        if not module.replace(".", "").replace("_", "").isalnum():
            raise UserError(f"{excerpt(module)} is not a module name; give one like `pytest` or `pkg.tool`.")
        arguments["module"] = module
        label = f"-m {module}"
    wanted = [parse_location(call, part) for part in breakpoints.replace("\n", ",").split(",") if part.strip()]
    limit = spec.timeout_s if timeout_s is None else min(max(timeout_s, 0.1), spec.timeout_s)
    adapter_env = dict(os.environ)
    argv = [program_path(spec.argv[0], folder, adapter_env, spec.name), *spec.argv[1:]]
    registry = sessions(call)
    session = DebugSession(registry.next_id(), spec, argv, folder, adapter_env, label, limit)
    registry.add(session)
    session.on_end = lambda: show_in_editor(call, session)
    points = [session.new_breakpoint(path, line) for path, line in dict.fromkeys(wanted)]
    session.launch(arguments, points, exceptions, wait_s, call.cancelled.is_set)
    blocks = []
    if settings.untrusted:
        blocks.append(settings.untrusted)
    if points:
        blocks.append("breakpoints:\n" + "\n".join("  " + _breakpoint_line(call, bp) for bp in points))
    note = editor_note(call)
    result = answer(call, session, blocks, waited=wait_s, breakpoints=[_breakpoint_data(call, bp) for bp in points])
    if note and result.data.get("editor"):
        result.blocks.append(
            note + (" (nvim-dap is installed; it is not used)" if result.data["editor"].get("nvim_dap") else "")
        )
    return result


def program_path(argv0: str, cwd: Path, env: dict[str, str], name: str) -> str:
    """The adapter's program (a full path, or found on PATH); never a shell."""
    return program(argv0, cwd, env, f"debug.{name}")


def editor_note(call: Call) -> str:
    """What the person sees in their editor, said once at launch."""
    if call.editor.name != "nvim":
        return ""
    return "Neovim: the breakpoints show as signs and the stopped line is highlighted (simple-brief's own DAP client)"


@tool(
    "debug_breakpoints",
    "debug",
    "Set, clear or list a debug session's breakpoints by `path:line`, with an optional condition, "
    "hit count or log message (a logpoint prints instead of stopping). USE FOR: choosing where the "
    "program stops. DON'T USE FOR: starting a session (debug_launch takes breakpoints too).",
    read_only=False,
)
def debug_breakpoints(
    call: Call,
    session_id: SessionId,
    action: Annotated[Literal["set", "clear", "list"], Doc("What to do.")] = "list",
    location: Annotated[
        str | None, Doc("`path:line` to set or clear (clear without it removes every breakpoint).")
    ] = None,
    condition: Annotated[str | None, Doc("Stop only when this expression is true (`i > 3`).")] = None,
    hit_condition: Annotated[str | None, Doc("Stop only at this hit count (`3`, `>= 5`).")] = None,
    log_message: Annotated[str | None, Doc("Print this instead of stopping (`{x}` interpolates).")] = None,
) -> ToolResult:
    """Manage breakpoints."""
    session = sessions(call).get(session_id)
    blocks: list[str] = []
    if action == "set":
        if location is None:
            raise UserError("setting a breakpoint needs `location` as `path:line`.")
        path, line = parse_location(call, location)
        bp = session.set_breakpoint(
            session.new_breakpoint(path, line, condition or "", hit_condition or "", log_message or "")
        )
        blocks.append("set " + _breakpoint_line(call, bp))
    elif action == "clear":
        if location is not None:
            path, line = parse_location(call, location)
            removed = session.clear_breakpoints(path, line)
            if not removed:
                raise UserError(f"there is no breakpoint at {excerpt(location)}; debug_breakpoints lists them.")
        else:
            removed = session.clear_breakpoints(None, None)
        blocks.append(f"cleared {len(removed)} breakpoint{'s' * (len(removed) != 1)}")
    every = session.all_breakpoints()
    blocks.append(
        "breakpoints:\n" + "\n".join("  " + _breakpoint_line(call, bp) for bp in every) if every else "no breakpoints"
    )
    return answer(call, session, blocks, breakpoints=[_breakpoint_data(call, bp) for bp in every])


@tool(
    "debug_continue",
    "debug",
    "Let a stopped program run until the next breakpoint, exception or its end. "
    "USE FOR: reaching the next breakpoint. DON'T USE FOR: one line at a time (debug_step).",
    read_only=False,
)
def debug_continue(call: Call, session_id: SessionId, wait_s: WaitS = 30.0) -> ToolResult:
    """Continue."""
    session = sessions(call).get(session_id)
    session.resume("continue", wait_s, call.cancelled.is_set)
    return answer(call, session, waited=wait_s)


@tool(
    "debug_step",
    "debug",
    "Step a stopped program: over the current line, into the call on it, or out of the current function. "
    "USE FOR: following execution line by line. DON'T USE FOR: long runs (set a breakpoint, debug_continue).",
    read_only=False,
)
def debug_step(
    call: Call,
    session_id: SessionId,
    kind: Annotated[Literal["over", "in", "out"], Doc("Step over, into, or out of.")] = "over",
    wait_s: WaitS = 10.0,
) -> ToolResult:
    """Step."""
    session = sessions(call).get(session_id)
    session.resume({"over": "next", "in": "stepIn", "out": "stepOut"}[kind], wait_s, call.cancelled.is_set)
    return answer(call, session, waited=wait_s)


@tool(
    "debug_pause",
    "debug",
    "Pause a running program where it is. USE FOR: a program that seems stuck (an endless loop). "
    "DON'T USE FOR: a stopped one.",
    read_only=False,
)
def debug_pause(call: Call, session_id: SessionId, wait_s: WaitS = 5.0) -> ToolResult:
    """Pause."""
    session = sessions(call).get(session_id)
    session.pause(wait_s)
    return answer(call, session, waited=wait_s)


@tool(
    "debug_stack",
    "debug",
    "The stopped thread's call stack: each frame's path:line and its enclosing symbol (`Class:A > Method:b`). "
    "USE FOR: how execution got here; frame indexes for debug_variables and debug_evaluate. "
    "DON'T USE FOR: values (debug_variables).",
)
def debug_stack(
    call: Call, session_id: SessionId, levels: Annotated[int, Doc("Frames to list, innermost first.")] = 20
) -> ToolResult:
    """The call stack."""
    session = sessions(call).get(session_id)
    session.require(stopped=True)
    frames = [frame_data(call, f, i) for i, f in enumerate(session.frames(max(levels, 1)))]
    lines = []
    for f in frames:
        where = f"{f['path']}:{f['line']}" if "path" in f else "(no source)"
        symbol = f.get("symbol") or f["name"]
        lines.append(f"  #{f['index']} {where} in {symbol}")
    return answer(call, session, ["stack:\n" + "\n".join(lines)], frames=frames)


def _variable_line(var: dict[str, Any], width: int) -> str:
    value = str(var.get("value", ""))
    shown = value if len(value) <= width else value[: width - 1] + "…"
    kind = f": {var['type']}" if var.get("type") else ""
    ref = f"  [ref {var['variablesReference']}]" if var.get("variablesReference") else ""
    return f"  {var.get('name', '')}{kind} = {shown}{ref}"


def _variable_data(var: dict[str, Any]) -> dict[str, Any]:
    value = str(var.get("value", ""))
    return {
        "name": var.get("name", ""),
        "type": var.get("type"),
        "value": value[:VALUE_DATA_CHARS],
        "truncated": len(value) > VALUE_DATA_CHARS,
        "reference": var.get("variablesReference") or 0,
    }


def _listing(call: Call, title: str, variables: list[dict[str, Any]]) -> tuple[str, int]:
    """Variables as lines, cut to the budget; (text, how many shown)."""
    room = call.budget * CHARS_PER_TOKEN
    lines: list[str] = []
    used = 0
    for var in variables:
        line = _variable_line(var, VALUE_CHARS)
        if used + len(line) > room and lines:
            lines.append(f"  … {len(variables) - len(lines)} more (over the answer's budget)")
            break
        lines.append(line)
        used += len(line) + 1
    shown = len([line for line in lines if not line.startswith("  … ")])
    return f"{title}:\n" + ("\n".join(lines) if lines else "  (none)"), shown


@tool(
    "debug_variables",
    "debug",
    "Variables of a stopped frame: its scopes with the locals listed, or the children of one value by its "
    "reference ([ref N]). Values are cut to the budget. USE FOR: what the program holds. "
    "DON'T USE FOR: computing something from them (debug_evaluate).",
)
def debug_variables(
    call: Call,
    session_id: SessionId,
    frame: FrameIndex = 0,
    reference: Annotated[
        int | None, Doc("A value's reference (`[ref N]` of an earlier answer) to list its members.")
    ] = None,
) -> ToolResult:
    """Scopes and variables."""
    session = sessions(call).get(session_id)
    session.require(stopped=True)
    if reference is not None:
        if reference <= 0:
            raise UserError(f"reference {reference} has no members; give a `[ref N]` of debug_variables (N > 0).")
        children = session.variables(reference)
        text, shown = _listing(call, f"members of ref {reference}", children)
        return answer(call, session, [text], variables=[_variable_data(v) for v in children[:shown]])
    scopes = session.scopes(frame)
    blocks = []
    data_scopes = []
    for i, scope in enumerate(scopes):
        ref = int(scope.get("variablesReference") or 0)
        entry: dict[str, Any] = {"name": scope.get("name"), "reference": ref, "expensive": bool(scope.get("expensive"))}
        if i == 0 and ref and not scope.get("expensive"):
            variables = session.variables(ref)
            text, shown = _listing(call, f"{scope.get('name', 'scope')} (ref {ref})", variables)
            blocks.append(text)
            entry["variables"] = [_variable_data(v) for v in variables[:shown]]
        else:
            blocks.append(f"{scope.get('name', 'scope')}: [ref {ref}] (debug_variables with reference={ref} lists it)")
        data_scopes.append(entry)
    return answer(call, session, blocks, frame=frame, scopes=data_scopes)


@tool(
    "debug_evaluate",
    "debug",
    "Evaluate an expression in a stopped frame (`len(items)`, `user.name`). USE FOR: checking a hypothesis "
    "about values. DON'T USE FOR: listing every local (debug_variables).",
    read_only=False,
)
def debug_evaluate(
    call: Call,
    session_id: SessionId,
    expression: Annotated[str, Doc("The expression, in the program's language.")],
    frame: FrameIndex = 0,
    context: Annotated[
        Literal["repl", "watch", "hover"], Doc("How the adapter treats it (`repl` may run statements).")
    ] = "repl",
) -> ToolResult:
    """Evaluate."""
    session = sessions(call).get(session_id)
    session.require(stopped=True)
    if session.spec.is_python:
        check_python(expression)
    result = session.evaluate(expression, frame, context)
    value = str(result.get("result", ""))
    kind = f": {result['type']}" if result.get("type") else ""
    ref = int(result.get("variablesReference") or 0)
    more = f"  [ref {ref}]" if ref else ""
    width = max(call.budget * CHARS_PER_TOKEN // 2, VALUE_CHARS)
    shown = value if len(value) <= width else value[: width - 1] + "…"
    return answer(
        call,
        session,
        [f"{expression}{kind} = {shown}{more}"],
        result={"value": value[: VALUE_DATA_CHARS * 4], "type": result.get("type"), "reference": ref},
    )


def check_python(expression: str) -> None:
    """Refuse Python that does not parse, in one sentence (statements are allowed in a repl)."""
    try:
        compile(expression, "<expression>", "eval")
        return
    except SyntaxError:
        pass
    try:
        compile(expression, "<expression>", "exec")
    except SyntaxError as exc:
        column = f" at column {exc.offset}" if exc.offset else ""
        raise UserError(
            f"{excerpt(expression)} is not valid Python ({exc.msg}{column}); fix the expression and evaluate it again."
        ) from None


@tool(
    "debug_terminate",
    "debug",
    "End a debug session: the program and the adapter, every process they started. "
    "USE FOR: done debugging. DON'T USE FOR: letting it finish (debug_continue).",
    read_only=False,
)
def debug_terminate(call: Call, session_id: SessionId) -> ToolResult:
    """Terminate."""
    session = sessions(call).get(session_id)
    session.terminate()
    left = session.client.members()
    return answer(call, session, processes_left=left)


@tool(
    "debug_sessions",
    "debug",
    "The server's debug sessions and where each stands. USE FOR: finding a session id. "
    "DON'T USE FOR: one session's details (debug_stack, debug_variables).",
)
def debug_sessions(call: Call) -> ToolResult:
    """List sessions."""
    every = sessions(call).all()
    if not every:
        return ToolResult(["no debug sessions (debug_launch starts one)"], {"sessions": []})
    lines = []
    data = []
    for session in every:
        line, state = state_line(call, session)
        lines.append(f"{line} · {session.label}")
        data.append({**state, "label": session.label})
    alive = sum(1 for s in every if s.state != "ended")
    return ToolResult(
        [f"{len(every)} debug session{'s' * (len(every) != 1)}, {alive} alive", "\n".join(lines)], {"sessions": data}
    )
