"""Debug sessions: one program under one debug adapter (`DebugSession`); the sessions of one
MCP server or CLI run are `debug.sessions.Sessions`.

A session follows the adapter's events: `stopped` (where, why, which breakpoints),
`output`, `exited`, `terminated`. Every command that lets the program run (launch,
continue, step) waits — at most `wait_s` — for the next stop or the end, so an answer can
say where execution stands. A watchdog thread per session enforces its limits: past
`timeout_s` (or `memory_mb` of resident memory across its processes) every process of the
session is killed and the session ends saying which limit stopped it; an adapter that dies
ends the session too. `Sessions.close` ends every session and its processes.

Breakpoints are kept here by file and requested line, numbered 1, 2, … per session (the
numbers answers show); DAP's `setBreakpoints` replaces a file's whole set, so a change
sends the file's set again.
"""

from __future__ import annotations

import itertools
import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from simple_brief.debug.client import KILL_GRACE, AdapterGone, DapClient, DapError, session_rss_bytes
from simple_brief.debug.model import Breakpoint, Stop
from simple_brief.debug.nvim_dap import Bridge, NvimDapClient
from simple_brief.errors import UserError
from simple_brief.files.debug_adapters import AdapterSpec

log = logging.getLogger(__name__)

#: Seconds to wait for the adapter's answer to a request.
REQUEST_TIMEOUT = 30.0
#: How often the watchdog looks at the clock, the adapter and (every MEMORY_EVERY) memory.
TICK = 0.1
MEMORY_EVERY = 0.5
#: Seconds a wait may pass the time limit, for the watchdog to end the session first.
LIMIT_GRACE = 2.0
#: Seconds an answer waits for an ended session's processes to be stopped (SIGTERM, then
#: SIGKILL a grace period later).
STOP_WAIT = 3 * KILL_GRACE
#: Seconds between looks at nvim-dap's queued events while a caller waits for a stop.
NVIM_DAP_POLL = 0.05
#: Characters of program output a session keeps (older output is dropped).
MAX_OUTPUT_CHARS = 256 * 1024
#: Exception filters debugpy knows, by what the caller asks for.
PYTHON_EXCEPTION_FILTERS = {"uncaught": ["uncaught"], "raised": ["raised", "uncaught"], "none": []}


class DebugSession:
    """One program under a debug adapter (see the module doc)."""

    def __init__(
        self,
        session_id: str,
        spec: AdapterSpec,
        adapter_argv: list[str],
        cwd: Path,
        env: Mapping[str, str],
        label: str,
        timeout_s: float,
        bridge: Bridge | None = None,
    ) -> None:
        self.id = session_id
        self.spec = spec
        self.label = label
        self.timeout_s = timeout_s
        self.state = "starting"  # starting, running, stopped, ended
        self.stop: Stop | None = None
        self.generation = 0
        self.ended: str | None = None
        self.limit_exceeded: str | None = None
        self.exit_code: int | None = None
        self.breakpoints: dict[Path, dict[int, Breakpoint]] = {}
        self.capabilities: dict[str, Any] = {}
        self._numbers = itertools.count(1)
        self._frames: list[dict[str, Any]] | None = None
        self._frames_generation = -1
        self._output: list[str] = []
        self._output_chars = 0
        self._output_read = 0
        self._output_dropped = 0
        self._initialized = threading.Event()
        self._ending: str | None = None
        #: Set by the watchdog once the ended session's processes are stopped.
        self._processes_stopped = threading.Event()
        #: Called (from the watchdog) once the session has ended and its processes are gone,
        #: so the editor can drop its marks even when no tool call follows.
        self.on_end: Callable[[], object] | None = None
        self._cond = threading.Condition()
        self.started = time.monotonic()
        name = f"debug adapter `{spec.name}`"
        #: Who speaks DAP with the adapter: `own` (our DapClient) or `nvim-dap` (the person's).
        self.driver = "own" if bridge is None else "nvim-dap"
        self.client: DapClient | NvimDapClient
        if bridge is None:
            self.client = DapClient(adapter_argv, cwd, env, self._on_event, memory_mb=spec.memory_mb, name=name)
        else:
            key = f"{os.getpid()}-{session_id}"
            self.client = NvimDapClient(
                bridge, key, adapter_argv, cwd, env, self._on_event, memory_mb=spec.memory_mb, name=name
            )
        threading.Thread(target=self._watch, name=f"debug-watch-{session_id}", daemon=True).start()

    # ------------------------------------------------------------------ starting

    def launch(
        self,
        arguments: dict[str, Any],
        breakpoints: list[Breakpoint],
        exceptions: str,
        wait_s: float,
        cancelled: Callable[[], bool] = lambda: False,
    ) -> None:
        """initialize, launch, the breakpoints and exception filters, configurationDone;
        then wait up to `wait_s` for the first stop (or the end).

        Raises:
            UserError: the adapter refused the launch or did not start (its words).
        """
        try:
            if isinstance(self.client, NvimDapClient):
                before = self._start_through_nvim_dap(arguments, breakpoints, exceptions)
            else:
                before = self._start(arguments, breakpoints, exceptions)
        except (DapError, AdapterGone) as exc:
            if self.limit_exceeded is not None:
                self.wait_until_stopped()
                return  # a limit ended it while it started: the answer says which
            why = _sentence(str(exc))
            stderr = self.client.stderr_tail(wait=1.0 if isinstance(exc, AdapterGone) else 0.0).strip().splitlines()
            detail = f" (its last output: {stderr[-1][:200]})" if stderr and isinstance(exc, AdapterGone) else ""
            self.end(f"the launch failed: {why}")
            raise UserError(
                f"the {self.spec.name} debug adapter could not launch {self.label}: {why}{detail}; check the program "
                "and the adapter's config."
            ) from None
        except Exception:
            self.end("the launch failed")
            raise
        self.wait_for_stop(before, wait_s, cancelled)

    def _start(self, arguments: dict[str, Any], breakpoints: list[Breakpoint], exceptions: str) -> int:
        """Our own client's start: initialize, launch, breakpoints, configurationDone; the
        generation before the program runs."""
        assert isinstance(self.client, DapClient)
        self.capabilities = self.client.request(
            "initialize",
            {
                "clientID": "simple-brief",
                "clientName": "simple-brief",
                "adapterID": self.spec.name,
                "linesStartAt1": True,
                "columnsStartAt1": True,
                "pathFormat": "path",
                "supportsVariableType": True,
                "supportsRunInTerminalRequest": False,
                "locale": "en",
            },
            REQUEST_TIMEOUT,
        )
        launched = self.client.send("launch", arguments)
        deadline = time.monotonic() + REQUEST_TIMEOUT
        while not self._initialized.wait(TICK):
            if launched.done() or time.monotonic() > deadline or not self.client.alive:
                launched.result(timeout=0)  # the refusal, if that is why
                raise AdapterGone(self.client.gone or "it sent no `initialized` event")
        for bp in breakpoints:
            self.breakpoints.setdefault(bp.path, {})[bp.line] = bp
        for path in list(self.breakpoints):
            self._sync(path)
        self.client.request("setExceptionBreakpoints", {"filters": self._filters(exceptions)}, REQUEST_TIMEOUT)
        with self._cond:
            before = self.generation
            if self.state == "starting":
                self.state = "running"
        self.client.request("configurationDone", {}, REQUEST_TIMEOUT)
        launched.result(timeout=REQUEST_TIMEOUT)
        return before

    def _start_through_nvim_dap(self, arguments: dict[str, Any], breakpoints: list[Breakpoint], exceptions: str) -> int:
        """nvim-dap's start (it sends initialize, launch, the breakpoints of its store — the
        agent's put there — and configurationDone); the generation before the program runs."""
        assert isinstance(self.client, NvimDapClient)
        for bp in breakpoints:
            self.breakpoints.setdefault(bp.path, {})[bp.line] = bp
        files = [(path, self._wanted(path)) for path in self.breakpoints]
        filters = PYTHON_EXCEPTION_FILTERS[exceptions] if self.spec.is_python else None
        with self._cond:
            before = self.generation
            if self.state == "starting":
                self.state = "running"
        self.capabilities, states = self.client.start(
            arguments, [(p, [bp.request() for bp in w]) for p, w in files], exceptions, filters, REQUEST_TIMEOUT
        )
        for (_, wanted), answers in zip(files, states, strict=False):
            self._take_answers(wanted, answers)
        return before

    def _filters(self, exceptions: str) -> list[str]:
        if self.spec.is_python:
            return PYTHON_EXCEPTION_FILTERS[exceptions]
        offered = self.capabilities.get("exceptionBreakpointFilters") or []
        if exceptions == "none":
            return []
        if exceptions == "raised":
            return [f["filter"] for f in offered if isinstance(f, dict) and "filter" in f]
        return [f["filter"] for f in offered if isinstance(f, dict) and f.get("default")]

    # ------------------------------------------------------------------ events

    def _on_event(self, event: str, body: dict[str, Any]) -> None:
        if event == "initialized":
            self._initialized.set()
            return
        with self._cond:
            if event == "stopped":
                self.state = "stopped"
                self.stop = Stop(
                    str(body.get("reason", "")),
                    int(body.get("threadId") or 0),
                    str(body.get("description") or ""),
                    str(body.get("text") or ""),
                    [int(i) for i in body.get("hitBreakpointIds") or []],
                )
                self.generation += 1
            elif event == "output":
                self._add_output(str(body.get("output", "")), str(body.get("category", "console")))
            elif event == "exited":
                self.exit_code = body.get("exitCode")
            elif event == "terminated":
                self._end_locked(self._ending or "the program exited")
            elif event == "breakpoint":
                self._breakpoint_changed(body.get("breakpoint") or {})
            self._cond.notify_all()

    def _add_output(self, text: str, category: str) -> None:
        if category not in ("stdout", "stderr", "console", "important") or not text:
            return
        if category == "console" and self.spec.is_python:
            return  # debugpy's own notices
        self._output.append(text)
        self._output_chars += len(text)
        while self._output_chars > MAX_OUTPUT_CHARS and len(self._output) > 1:
            dropped = self._output.pop(0)
            self._output_chars -= len(dropped)
            self._output_dropped += 1
            self._output_read = max(self._output_read - 1, 0)

    def new_output(self) -> str:
        """The program's output since the last call."""
        with self._cond:
            text = "".join(self._output[self._output_read :])
            self._output_read = len(self._output)
        return text

    def _breakpoint_changed(self, data: dict[str, Any]) -> None:
        for bp in self.all_breakpoints():
            if bp.adapter_id is not None and bp.adapter_id == data.get("id"):
                bp.verified = bool(data.get("verified", bp.verified))
                bp.actual_line = data.get("line", bp.actual_line)
                bp.message = str(data.get("message") or "")

    # ------------------------------------------------------------------ ending

    def end(self, why: str, limit: str | None = None) -> None:
        """Mark the session ended (the watchdog then kills its processes)."""
        with self._cond:
            self._end_locked(why, limit)
            self._cond.notify_all()

    def _end_locked(self, why: str, limit: str | None = None) -> None:
        if self.state == "ended":
            return
        self.state = "ended"
        self.stop = None
        self.ended = why
        self.limit_exceeded = limit
        self.generation += 1

    def _watch(self) -> None:
        next_memory = time.monotonic()
        while True:
            with self._cond:
                if self.state != "ended":
                    self._cond.wait(TICK)
                state = self.state
            if state == "ended":
                break
            now = time.monotonic()
            if now - self.started > self.timeout_s:
                self.end(
                    f"the session ran past its time limit of {self.timeout_s:g} s and its processes were stopped",
                    "time",
                )
            elif not self.client.alive:
                code = self.client.returncode
                why = self.client.gone or ("it exited" if code is None else f"it exited with {code}")
                self.end(f"the debug adapter ended ({why})")
            elif self.spec.memory_mb and self.client.sid and now >= next_memory:
                next_memory = now + MEMORY_EVERY
                if session_rss_bytes(self.client.sid) > self.spec.memory_mb * 1024 * 1024:
                    self.end(
                        f"the session's processes passed the memory limit of {self.spec.memory_mb} MB and were stopped",
                        "memory",
                    )
        self.client.kill()
        self._processes_stopped.set()
        on_end = self.on_end
        if on_end is not None:
            try:
                on_end()
            except Exception:  # the editor is optional: never a reason to fail
                log.exception("showing the end of debug session %s failed", self.id)

    def terminate(self) -> None:
        """Ask the adapter to end the program, then kill what is left of the session."""
        self._ending = "terminated by debug_terminate"
        self.on_end = None  # the caller's answer shows the end (two updates at once would race)
        if self.client.alive:
            try:
                if self.capabilities.get("supportsTerminateRequest") and self.state != "ended":
                    self.client.request("terminate", {}, 3.0)
                self.client.request("disconnect", {"terminateDebuggee": True}, 3.0)
            except (DapError, AdapterGone) as exc:
                log.debug("ending debug session %s: %s", self.id, exc)
        self.end(self._ending)
        self.client.kill()

    # ------------------------------------------------------------------ running

    def require(self, stopped: bool = True) -> None:
        """Refuse a command the session's state does not allow, in one sentence."""
        if self.state == "ended":
            raise UserError(f"debug session `{self.id}` has ended ({self.ended}); start another with debug_launch.")
        if stopped and self.state != "stopped":
            raise UserError(
                f"debug session `{self.id}` is running, not stopped; call debug_pause, or debug_continue to wait "
                "for a breakpoint."
            )

    def resume(self, command: str, wait_s: float, cancelled: Callable[[], bool] = lambda: False) -> None:
        """`continue`, `next`, `stepIn` or `stepOut` the stopped thread, then wait for the next stop."""
        self.require(stopped=True)
        assert self.stop is not None
        thread = self.stop.thread_id
        with self._cond:
            self.state = "running"
            self.stop = None
            before = self.generation
        try:
            self.client.request(command, {"threadId": thread}, REQUEST_TIMEOUT)
        except (DapError, AdapterGone) as exc:
            raise UserError(f"the debug adapter refused `{command}`: {_sentence(str(exc))}.") from None
        self.wait_for_stop(before, wait_s, cancelled)

    def pause(self, wait_s: float) -> None:
        """Pause the running program, and wait for it to stop."""
        self.require(stopped=False)
        if self.state == "stopped":
            return
        with self._cond:
            before = self.generation
        try:
            self.client.request("pause", {"threadId": 0}, REQUEST_TIMEOUT)
        except (DapError, AdapterGone) as exc:
            raise UserError(f"the debug adapter refused to pause: {_sentence(str(exc))}.") from None
        self.wait_for_stop(before, wait_s)

    def wait_for_stop(self, before: int, wait_s: float, cancelled: Callable[[], bool] = lambda: False) -> bool:
        """Wait for a stop or the end after generation `before` — at most `wait_s`, or until
        the time limit has ended the session (so that answer says so), or `cancelled()`;
        whether one came."""
        limit_ends = self.started + self.timeout_s + LIMIT_GRACE
        deadline = min(time.monotonic() + max(wait_s, 0.0), limit_ends)
        pause = TICK * 5 if self.driver == "own" else NVIM_DAP_POLL
        while True:
            with self._cond:
                ended = self.state == "ended"
                if self.generation > before and (ended or self.state == "stopped"):
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0 or cancelled():
                    return False
                self._cond.wait(min(remaining, pause))
            self.client.pump()
        if ended:
            self.wait_until_stopped()
        return True

    def wait_until_stopped(self) -> None:
        """Wait (a few seconds at most) until the watchdog has stopped the ended session's
        processes, so an answer that says they were stopped is true when it is read."""
        self._processes_stopped.wait(STOP_WAIT)

    # ------------------------------------------------------------------ breakpoints

    def all_breakpoints(self) -> list[Breakpoint]:
        """Every breakpoint, by number."""
        return sorted((bp for lines in self.breakpoints.values() for bp in lines.values()), key=lambda b: b.number)

    def new_breakpoint(
        self, path: Path, line: int, condition: str = "", hit: str = "", log_msg: str = ""
    ) -> Breakpoint:
        """A breakpoint numbered for this session (the number of one already on that line)."""
        old = self.breakpoints.get(path, {}).get(line)
        number = old.number if old is not None else next(self._numbers)
        return Breakpoint(number, path, line, condition, hit, log_msg)

    def set_breakpoint(self, bp: Breakpoint) -> Breakpoint:
        """Add (or replace) a breakpoint and send its file's set."""
        self.require(stopped=False)
        self.breakpoints.setdefault(bp.path, {})[bp.line] = bp
        self._sync(bp.path)
        return bp

    def clear_breakpoints(self, path: Path | None, line: int | None) -> list[Breakpoint]:
        """Remove one breakpoint, a file's, or all (`path` None); the ones removed."""
        self.require(stopped=False)
        paths = [path] if path is not None else list(self.breakpoints)
        removed: list[Breakpoint] = []
        for p in paths:
            lines = self.breakpoints.get(p, {})
            for ln in [line] if line is not None else list(lines):
                if ln in lines:
                    removed.append(lines.pop(ln))
            self._sync(p)
            if not lines:
                self.breakpoints.pop(p, None)
        return removed

    def _wanted(self, path: Path) -> list[Breakpoint]:
        return sorted(self.breakpoints.get(path, {}).values(), key=lambda b: b.line)

    def _sync(self, path: Path) -> None:
        wanted = self._wanted(path)
        try:
            if isinstance(self.client, NvimDapClient):
                answers = self.client.set_breakpoints(path, [bp.request() for bp in wanted], REQUEST_TIMEOUT)
            else:
                body = self.client.request(
                    "setBreakpoints",
                    {
                        "source": {"path": str(path), "name": path.name},
                        "breakpoints": [bp.request() for bp in wanted],
                        "lines": [bp.line for bp in wanted],
                    },
                    REQUEST_TIMEOUT,
                )
                answers = list(body.get("breakpoints") or [])
        except (DapError, AdapterGone) as exc:
            raise UserError(
                f"the debug adapter refused the breakpoints of {path.name}: {_sentence(str(exc))}."
            ) from None
        self._take_answers(wanted, answers)

    @staticmethod
    def _take_answers(wanted: list[Breakpoint], answers: list[dict[str, Any]]) -> None:
        """What the adapter made of each breakpoint (its `Breakpoint`s, in the same order)."""
        for bp, answer in zip(wanted, answers, strict=False):
            if not answer:
                continue  # nvim-dap has no state for it (yet): it stays as it was
            bp.verified = bool(answer.get("verified"))
            bp.adapter_id = answer.get("id")
            bp.actual_line = answer.get("line")
            bp.message = str(answer.get("message") or "")

    def hit_breakpoint(self, path: str | None, line: int | None) -> Breakpoint | None:
        """The breakpoint the current stop is at (by the adapter's ids, else by place)."""
        if self.stop is None or self.stop.reason != "breakpoint":
            return None
        every = self.all_breakpoints()
        for bp in every:
            if bp.adapter_id is not None and bp.adapter_id in self.stop.hit_ids:
                return bp
        where = os.path.realpath(path) if path is not None else None
        for bp in every:
            if where == os.path.realpath(bp.path) and line in (bp.line, bp.actual_line):
                return bp
        return None

    # ------------------------------------------------------------------ inspecting

    def frames(self, levels: int = 50) -> list[dict[str, Any]]:
        """The stopped thread's frames, innermost first (cached for this stop)."""
        self.require(stopped=True)
        assert self.stop is not None
        if self._frames is None or self._frames_generation != self.generation or len(self._frames) < levels:
            body = self._ask("stackTrace", {"threadId": self.stop.thread_id, "startFrame": 0, "levels": levels})
            self._frames = [f for f in body.get("stackFrames") or [] if isinstance(f, dict)]
            self._frames_generation = self.generation
        return self._frames[:levels]

    def frame_id(self, index: int) -> int:
        """The adapter's id of frame `index` (0: innermost).

        Raises:
            UserError: no such frame.
        """
        frames = self.frames(max(index + 1, 20))
        if not 0 <= index < len(frames):
            raise UserError(
                f"frame {index} does not exist: the stopped thread has {len(frames)} frames (0 is the innermost)."
            )
        return int(frames[index]["id"])

    def scopes(self, frame: int) -> list[dict[str, Any]]:
        """The scopes of frame `frame` (Locals, Globals, …)."""
        return list(self._ask("scopes", {"frameId": self.frame_id(frame)}).get("scopes") or [])

    def variables(self, reference: int) -> list[dict[str, Any]]:
        """The children of a `variablesReference`.

        Raises:
            UserError: the reference is not one of this stop's.
        """
        self.require(stopped=True)
        try:
            body = self.client.request("variables", {"variablesReference": reference}, REQUEST_TIMEOUT)
        except DapError:
            raise UserError(
                f"variables reference {reference} is not one of this stop's; take one from debug_variables "
                "(references change at every stop)."
            ) from None
        except AdapterGone as exc:
            raise UserError(f"the debug adapter did not list the variables: {_sentence(str(exc))}.") from None
        return list(body.get("variables") or [])

    def evaluate(self, expression: str, frame: int, context: str) -> dict[str, Any]:
        """Evaluate `expression` in frame `frame`.

        Raises:
            UserError: the adapter could not evaluate it (its first line).
        """
        frame_id = self.frame_id(frame)
        try:
            return self.client.request(
                "evaluate", {"expression": expression, "frameId": frame_id, "context": context}, REQUEST_TIMEOUT
            )
        except (DapError, AdapterGone) as exc:
            raise UserError(f"evaluating it failed: {_sentence(str(exc))}.") from None

    def exception_info(self) -> dict[str, Any]:
        """The current exception stop's details (empty when the adapter has none)."""
        if (
            self.stop is None
            or self.stop.reason != "exception"
            or not self.capabilities.get("supportsExceptionInfoRequest")
        ):
            return {}
        try:
            return self.client.request("exceptionInfo", {"threadId": self.stop.thread_id}, REQUEST_TIMEOUT)
        except (DapError, AdapterGone):
            return {}

    def _ask(self, command: str, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            return self.client.request(command, arguments, REQUEST_TIMEOUT)
        except (DapError, AdapterGone) as exc:
            raise UserError(f"the debug adapter did not answer `{command}`: {_sentence(str(exc))}.") from None


def _sentence(text: str) -> str:
    """An adapter's message as part of a sentence: its first line, without a final period."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    first = (lines[-1] if lines and lines[0].startswith("Traceback") else lines[0]) if lines else ""
    return first[:300].rstrip(".") or "no reason given"
