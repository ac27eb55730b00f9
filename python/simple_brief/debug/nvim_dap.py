"""A debug session's conversation through the person's nvim-dap instead of our own client.

`NvimDapClient` has `DapClient`'s surface (`request`, `alive`, `gone`, `sid`, `members`,
`kill`), so `DebugSession` drives it the same way; only the start differs: nvim-dap itself
sends `initialize`, `launch`, the breakpoints (the agent's, put into nvim-dap's store, and
the person's own) and `configurationDone` (`start`). The calls go to
lua/simple_brief/nvim_dap.lua through `bridge(function, args)` — given by the adapter that
owns the Neovim connection, so this module imports no editor code. Requests are answered
synchronously there (nvim-dap's callback, waited for with `vim.wait`); the session's events
ride along with every answer and are fetched by `pump` while a caller waits for a stop.

Processes: nvim-dap spawns the adapter through a tiny launcher that writes its pid to a
file and becomes the keeper (`process_limits.kept`: a child subreaper, with the memory
limit), so the watchdog's limits and `kill` work as with our own client: every process
of the keeper's tree is found in /proc and stopped.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from simple_brief.debug.client import AdapterGone, DapError, EventFn, session_members, stop_session
from simple_brief.proc.process_limits import kept, pid_announced

log = logging.getLogger(__name__)

#: Calls a function of lua/simple_brief/nvim_dap.lua with arguments and a deadline (seconds);
#: its return value, or None when Neovim did not answer.
Bridge = Callable[[str, list[Any], float], Any]

#: Seconds the adapter may take to write its pid once nvim-dap started the session.
PID_TIMEOUT = 10.0


class NvimDapClient:
    """A session nvim-dap runs (see the module doc)."""

    def __init__(
        self,
        bridge: Bridge,
        key: str,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        on_event: EventFn,
        memory_mb: int = 0,
        name: str = "debug adapter",
    ) -> None:
        self.name = name
        self.key = key
        self._bridge = bridge
        self._on_event = on_event
        self._cwd = cwd
        self._env = dict(env)
        self._folder = tempfile.mkdtemp(prefix="simple-brief-dap-")
        self._pidfile = os.path.join(self._folder, "adapter.pid")
        self._command = pid_announced(self._pidfile, kept(argv[0], list(argv), memory_mb))
        self.gone: str | None = None
        self.pid = 0
        #: The keeper's pid: every process of the session is its descendant (0: not known yet).
        self.sid = 0

    # ------------------------------------------------------------------ starting

    def start(
        self,
        arguments: dict[str, Any],
        breakpoints: list[tuple[Path, list[dict[str, Any]]]],
        exceptions: str,
        filters: list[str] | None,
        timeout: float,
    ) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
        """Have nvim-dap start the session with these `launch` arguments and breakpoints
        (`SourceBreakpoint`s by file); the adapter's capabilities and, per file, what it made
        of each breakpoint.

        Raises:
            DapError: the launch failed (nvim-dap's or the adapter's words).
            AdapterGone: Neovim or nvim-dap did not answer.
        """
        spec = {
            "command": self._command[0],
            "args": self._command[1:],
            "cwd": str(self._cwd),
            "env": self._env,
            "config": arguments,
            "exceptions": exceptions,
            "filters": filters,
            "breakpoints": [{"path": str(path), "items": items} for path, items in breakpoints],
        }
        answer = self._call("start", [spec], timeout)
        self._find_pid(PID_TIMEOUT if answer.get("ok") else 0.5)
        if not answer.get("ok"):
            raise DapError(str(answer.get("error") or "nvim-dap could not start the session"))
        states = [list(file.get("states") or []) for file in answer.get("breakpoints") or []]
        capabilities = answer.get("capabilities")
        return (capabilities if isinstance(capabilities, dict) else {}), states

    def _find_pid(self, wait: float) -> None:
        """Read the adapter's pid from the launcher's file (waiting up to `wait` seconds).
        The watchdog reads `alive` meanwhile: `sid` is set before the pid, since a pid
        without it would read as an adapter that is gone."""
        deadline = time.monotonic() + wait
        pid = 0
        while not pid and time.monotonic() < deadline:
            with contextlib.suppress(OSError, ValueError), open(self._pidfile, encoding="ascii") as handle:
                pid = int(handle.read().strip() or 0)
            if not pid:
                time.sleep(0.02)
        if pid:
            self.sid = pid
            self.pid = pid

    # ------------------------------------------------------------------ requests

    def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """Send a request through nvim-dap's session and wait for its body.

        Raises:
            DapError: the adapter refused it.
            AdapterGone: the session or Neovim is gone, or no answer came in time.
        """
        if self.gone is not None:
            raise AdapterGone(self.gone)
        answer = self._call("request", [command, arguments if arguments is not None else {}], timeout)
        if not answer.get("ok"):
            raise DapError(str(answer.get("error") or f"`{command}` failed"))
        body = answer.get("body")
        return body if isinstance(body, dict) else {}

    def set_breakpoints(self, path: Path, items: list[dict[str, Any]], timeout: float) -> list[dict[str, Any]]:
        """Replace the agent's breakpoints of `path` in nvim-dap's store and have it send the
        file's set; what the adapter made of each of `items`.

        Raises:
            DapError: nvim-dap did not send them.
            AdapterGone: as `request`.
        """
        if self.gone is not None:
            raise AdapterGone(self.gone)
        answer = self._call("set_breakpoints", [str(path), items], timeout)
        if not answer.get("ok"):
            raise DapError(str(answer.get("error") or "nvim-dap did not send the breakpoints"))
        return list(answer.get("states") or [])

    def pump(self) -> None:
        """Take the session's queued events and hand them on."""
        if self.gone is None:
            self._dispatch(self._bridge("take", [self.key], 5.0))

    def _call(self, function: str, args: list[Any], timeout: float) -> dict[str, Any]:
        answer = self._bridge(function, [self.key, *args, int(timeout * 1000)], timeout + 5.0)
        if not isinstance(answer, dict):
            raise AdapterGone(f"Neovim did not answer `{function}` for nvim-dap within {timeout:g} s")
        self._dispatch(answer.get("events"))
        return answer

    def _dispatch(self, events: Any) -> None:
        for item in events if isinstance(events, list) else []:
            if not isinstance(item, dict):
                continue
            body = item.get("body")
            try:
                self._on_event(str(item.get("event", "")), body if isinstance(body, dict) else {})
            except Exception:  # a failing handler must not end the conversation
                log.exception("handling the nvim-dap event %r failed", item.get("event"))

    # ------------------------------------------------------------------ processes

    @property
    def alive(self) -> bool:
        """Whether the adapter still runs (or is still being started by nvim-dap), and the
        session was not given up."""
        return self.gone is None and (self.pid == 0 or self.pid in self.members())

    @property
    def returncode(self) -> int | None:
        """Unknown: nvim-dap, not we, is the adapter's parent."""
        return None

    def stderr_tail(self, wait: float = 0.0) -> str:
        """Nothing: nvim-dap keeps the adapter's stderr (`:DapShowLog`)."""
        return ""

    def members(self) -> list[int]:
        """The live processes of the session (the keeper and its descendants)."""
        return session_members(self.sid) if self.sid else []

    def kill(self) -> None:
        """End every process of the adapter's session, and have nvim-dap forget the session
        (the agent's breakpoints leave its store)."""
        if self.gone is None:
            self.gone = "it was stopped"
        if self.sid:
            stop_session(self.sid)
        try:
            self._bridge("forget", [self.key], 5.0)
        except Exception:  # the editor is optional: never a reason to fail
            log.exception("nvim-dap could not forget session %s", self.key)
        shutil.rmtree(self._folder, ignore_errors=True)
