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

from pathlib import Path
from typing import Annotated, Any, Literal

from simple_brief.debug.nvim_dap import Bridge
from simple_brief.debug.session import DebugSession
from simple_brief.errors import UserError, excerpt
from simple_brief.files.debug_adapters import adapter_named
from simple_brief.proc import environment
from simple_brief.tasks.agent_values import check_env
from simple_brief.tasks.sandbox import program
from simple_brief.tools import Call, Doc, ToolResult, tool
from simple_brief.tools.debug_state import (
    CHARS_PER_TOKEN,
    VALUE_CHARS,
    VALUE_DATA_CHARS,
    FrameIndex,
    SessionId,
    WaitS,
    answer,
    breakpoint_data,
    breakpoint_line,
    frame_data,
    parse_location,
    sessions,
    show_in_editor,
    split_args,
    split_env,
    state_line,
)

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
    driver: Annotated[
        Literal["auto", "nvim-dap", "own"],
        Doc("Who talks to the adapter: the person's nvim-dap (auto: when their Neovim has it) or our own client."),
    ] = "auto",
    wait_s: WaitS = 30.0,
    timeout_s: Annotated[
        float | None, Doc("This session's time limit in seconds (at most the adapter's `timeout_s`).")
    ] = None,
) -> ToolResult:
    """Launch a debug session."""
    if (program is None) == (module is None):
        raise UserError("give either `program` (a file) or `module` (like `pytest`) to debug_launch.")
    settings = call.config
    spec = adapter_named(settings.debug, adapter)
    folder = call.workspace.resolve(cwd or ".")
    if not folder.is_dir():
        raise UserError(f"cwd {excerpt(cwd or '.')} is not a folder of the workspace; give one relative to the root.")
    extra_env = split_env(env)
    check_env(extra_env, spec.agent_env, f"[debug.{spec.name}]")
    arguments: dict[str, Any] = {
        **spec.launch,
        "name": f"simple-brief {program or module}",
        "request": "launch",
        "cwd": str(folder),
        "args": split_args(args, "args"),
        "stopOnEntry": stop_on_entry,
    }
    if extra_env:
        arguments["env"] = {**arguments.get("env", {}), **extra_env}
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
    adapter_env = environment.for_child()
    argv = [program_path(spec.argv[0], folder, adapter_env, spec.name, call.workspace.root), *spec.argv[1:]]
    registry = sessions(call)
    bridge = nvim_dap_bridge(call, driver)
    session = DebugSession(registry.next_id(), spec, argv, folder, adapter_env, label, limit, bridge)
    registry.add(session)
    session.on_end = lambda: show_in_editor(call, session)
    points = [session.new_breakpoint(path, line) for path, line in dict.fromkeys(wanted)]
    session.launch(arguments, points, exceptions, wait_s, call.cancelled.is_set)
    blocks = []
    if settings.untrusted:
        blocks.append(settings.untrusted)
    if points:
        blocks.append("breakpoints:\n" + "\n".join("  " + breakpoint_line(call, bp) for bp in points))
    result = answer(call, session, blocks, waited=wait_s, breakpoints=[breakpoint_data(call, bp) for bp in points])
    note = editor_note(call, session, result.data.get("editor") or {}, driver)
    if note:
        result.blocks.append(note)
    return result


def nvim_dap_bridge(call: Call, driver: str) -> Bridge | None:
    """The way to the person's nvim-dap when it drives the session (`driver` auto finds it
    in the attached Neovim), or None for our own client.

    Raises:
        UserError: nvim-dap was asked for and is not there.
    """
    if driver == "own":
        return None
    editor = call.editor

    def bridge(function: str, args: list[Any], timeout: float) -> Any:
        return editor.nvim_dap(function, args, timeout)

    if bridge("available", [], 5.0) is True:
        return bridge
    if driver == "nvim-dap":
        where = "the attached Neovim cannot load it" if editor.name == "nvim" else "no Neovim is attached"
        raise UserError(f"driver=nvim-dap needs the person's nvim-dap, and {where}; use driver=own (or auto).")
    return None


def program_path(argv0: str, cwd: Path, env: dict[str, str], name: str, root: Path) -> str:
    """The adapter's program (a full path, or found on PATH outside the workspace `root`); never a shell."""
    return program(argv0, cwd, env, f"debug.{name}", root=root)


def editor_note(call: Call, session: DebugSession, shown: dict[str, Any], driver: str) -> str:
    """Which client drives the session and what the person sees, said once at launch."""
    if session.driver == "nvim-dap":
        return (
            "Neovim: driven by the person's nvim-dap; the breakpoints and the stopped line show with nvim-dap's "
            "signs and UI"
        )
    if call.editor.name != "nvim" or not shown:
        return ""
    note = "Neovim: the breakpoints show as signs and the stopped line is highlighted (simple-brief's own DAP client)"
    if not shown.get("nvim_dap"):
        return note
    if driver == "own":
        return note + " (nvim-dap is installed; driver=own was asked for)"
    return note + " (a `dap` module is installed but lacks nvim-dap's run/sessions/listeners/breakpoints: not used)"


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
        blocks.append("set " + breakpoint_line(call, bp))
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
        "breakpoints:\n" + "\n".join("  " + breakpoint_line(call, bp) for bp in every) if every else "no breakpoints"
    )
    return answer(call, session, blocks, breakpoints=[breakpoint_data(call, bp) for bp in every])


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
