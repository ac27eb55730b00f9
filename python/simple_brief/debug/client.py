"""One debug adapter's process and its Debug Adapter Protocol conversation over stdio.

DAP frames its JSON exactly as LSP does, so the framing and the writer thread are the
engine's `simple_brief.proc.framing` (shared with `lsp.process`). Three threads per adapter: a
reader parses frames, resolves the futures of requests by `request_seq` and hands events
to `on_event`; the outbox is the only writer; a third copies the adapter's stderr into the
log. The adapter's own requests (`runInTerminal`, `startDebugging`) are answered "not
supported": the program runs under the adapter, its output comes back as events.

Processes: like `tasks.sandbox`, the adapter runs under a keeper (`process_limits.kept`),
a child subreaper: every process it starts stays in the keeper's tree, whatever session
or process group it moves to (debugpy's launcher takes a group of its own for the program
it debugs; a debugged program may `setsid` or double-fork), so `kill()` ends every process
of the tree — found in /proc from the keeper's pid, `sid` — and none is left behind; the
keeper also stops the tree when the engine ends (its channel closes) and stops what the
adapter left running when it exits. Memory: the adapter and everything it starts get
`RLIMIT_AS`; `session_rss_bytes` lets the owner watch the total.

Transport: stdio, or TCP for adapters that only listen on a port (codelldb `--port`,
vscode-js-debug's `dapDebugServer.js`, `debugpy.adapter --port`): an argument holding
`{port}` gets a free loopback port, and the client connects to 127.0.0.1 on it once the
adapter listens (`CONNECT_TIMEOUT`). The outbox still writes to a pipe (its deadline
semantics unchanged); a pump thread copies the pipe to the socket.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import IO, Any

from simple_brief.errors import UserError
from simple_brief.proc.framing import MalformedMessage, Outbox, encode, read_message
from simple_brief.proc.process_keeper import running
from simple_brief.proc.process_limits import Keeping, tree_members, tree_rss_bytes

log = logging.getLogger(__name__)

#: Seconds a frame may wait to be written before the adapter counts as stalled.
WRITE_TIMEOUT = 10.0
#: Seconds between SIGTERM and SIGKILL when the session's processes are stopped.
KILL_GRACE = 1.0
#: Lines of the adapter's stderr kept for an answer when it dies.
STDERR_LINES = 20
#: The placeholder of an adapter argument that takes the port it should listen on.
PORT = "{port}"
#: Seconds an adapter listening on a port may take to accept the connection.
CONNECT_TIMEOUT = 15.0

EventFn = Callable[[str, dict[str, Any]], None]


class DapError(Exception):
    """The adapter answered a request with `success: false`; the text is its message."""


class AdapterGone(Exception):
    """The adapter's process ended or broke the protocol; the text says how."""


class DapClient:
    """A started debug adapter: `request` sends and waits, `send` returns a future, events
    go to `on_event(event, body)` (from the reader thread)."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: Path,
        env: Mapping[str, str],
        on_event: EventFn,
        memory_mb: int = 0,
        name: str = "debug adapter",
    ) -> None:
        """Start the adapter (`argv[0]` found by the caller: a full path or on PATH).

        Raises:
            UserError: the program could not be started.
        """
        self.name = name
        self._on_event = on_event
        self._seq = itertools.count(1)
        self._pending: dict[int, Future[dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._stderr: list[str] = []
        self.gone: str | None = None
        self._socket: socket.socket | None = None
        port = _free_port() if any(PORT in arg for arg in argv) else None
        if port is not None:
            argv = [arg.replace(PORT, str(port)) for arg in argv]
        self._keeping = Keeping()
        command = self._keeping.kept(argv[0], list(argv), memory_mb)
        try:
            self.proc = subprocess.Popen(
                command,
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.PIPE if port is None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                pass_fds=(self._keeping.fd,),
            )
        except OSError as exc:
            self._keeping.close()
            raise UserError(
                f"the {name} `{argv[0]}` could not start ({exc.strerror or exc}); check its `adapter` argv."
            ) from None
        self._keeping.started()
        #: The keeper's pid: every process of the session is its descendant.
        self.sid = self.proc.pid
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._stderr_thread = threading.Thread(
            target=self._drain, args=(self.proc.stderr,), name=f"dap-stderr-{self.sid}", daemon=True
        )
        self._stderr_thread.start()
        if port is None:
            assert self.proc.stdin is not None
            into, out_of = self.proc.stdin, self.proc.stdout
        else:
            into, out_of = self._connect(port)
            threading.Thread(
                target=self._drain, args=(self.proc.stdout,), name=f"dap-stdout-{self.sid}", daemon=True
            ).start()
        self._outbox = Outbox(
            into,
            f"dap-write-{self.sid}",
            WRITE_TIMEOUT,
            self._stalled,
            lambda: self._lost("its input closed"),
        )
        threading.Thread(target=self._read, args=(out_of,), name=f"dap-read-{self.sid}", daemon=True).start()

    def _connect(self, port: int) -> tuple[IO[bytes], IO[bytes]]:
        """Connect to the adapter listening on `port`: the pipe the outbox writes to (pumped
        into the socket) and the socket's reading side.

        Raises:
            UserError: it did not accept a connection in time, or exited first.
        """
        deadline = time.monotonic() + CONNECT_TIMEOUT
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=1.0)
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.kill()
                    tail = self.stderr_tail(wait=0.2).splitlines()
                    said = f" (it said: {tail[-1][:200]})" if tail else ""
                    raise UserError(
                        f"the {self.name} did not listen on port {port} within {CONNECT_TIMEOUT:g} s{said}; "
                        "check that its argv passes {port} where it takes the port to listen on."
                    ) from None
                time.sleep(0.05)
        sock.settimeout(None)
        self._socket = sock
        read_end, write_end = os.pipe()
        threading.Thread(target=_pump, args=(read_end, sock), name=f"dap-pump-{self.sid}", daemon=True).start()
        return os.fdopen(write_end, "wb", buffering=0), sock.makefile("rb")

    # ------------------------------------------------------------------ requests

    def send(self, command: str, arguments: dict[str, Any] | None = None) -> Future[dict[str, Any]]:
        """Send a request; the future holds the response's body (or raises DapError / AdapterGone)."""
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            if self.gone is not None:
                future.set_exception(AdapterGone(self.gone))
                return future
            seq = next(self._seq)
            self._pending[seq] = future
        message: dict[str, Any] = {"seq": seq, "type": "request", "command": command}
        if arguments is not None:
            message["arguments"] = arguments
        if not self._outbox.put(encode(message)):
            self._lost("it stopped reading its input")
        return future

    def request(self, command: str, arguments: dict[str, Any] | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """Send a request and wait for its response body.

        Raises:
            DapError: the adapter refused it (its message).
            AdapterGone: the adapter is gone or did not answer within `timeout`.
        """
        return wait(self.send(command, arguments), timeout, f"`{command}`")

    @property
    def alive(self) -> bool:
        """Whether the adapter still runs and speaks the protocol."""
        return self.gone is None and self.proc.poll() is None

    @property
    def returncode(self) -> int | None:
        """The adapter's exit status, None while it runs."""
        return self.proc.poll()

    def pump(self) -> None:
        """Nothing to do: the reader thread hands events on as they come."""

    def stderr_tail(self, wait: float = 0.0) -> str:
        """The last lines the adapter wrote to stderr; with `wait`, an adapter that is ending
        gets that long to exit and have its stderr read to the end."""
        if wait > 0:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=wait)
            if self.proc.poll() is not None:
                self._stderr_thread.join(timeout=wait)
        return "\n".join(self._stderr[-STDERR_LINES:])

    # ------------------------------------------------------------------ processes

    def members(self) -> list[int]:
        """The live processes of the session (the keeper, the adapter, the program, their children)."""
        return session_members(self.sid)

    def kill(self) -> None:
        """End every process of the session: SIGTERM, then SIGKILL after a grace period;
        the keeper is reaped."""
        self._lost("it was stopped")
        stop_session(self.sid, self.proc.poll)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=KILL_GRACE)
        outbox = getattr(self, "_outbox", None)  # (not there yet when the connection failed)
        if outbox is not None:
            outbox.close()
        if self._socket is not None:
            with contextlib.suppress(OSError):
                self._socket.close()
        self._keeping.close()

    # ------------------------------------------------------------------ threads

    def _read(self, stream: IO[bytes]) -> None:
        why = "its output ended"
        try:
            while True:
                message = read_message(stream)
                if message is None:
                    break
                self._dispatch(message)
        except MalformedMessage as exc:
            why = f"it broke the protocol's framing ({exc})"
        except Exception as exc:  # never a silent death: callers would wait for nothing
            log.exception("the DAP reader of %s failed", self.name)
            why = f"simple-brief could not read it: {type(exc).__name__}: {str(exc)[:100]}"
        self._lost(why)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "response":
            with self._lock:
                future = self._pending.pop(message.get("request_seq", -1), None)
            if future is None:
                return
            if message.get("success"):
                future.set_result(message.get("body") or {})
            else:
                body = message.get("body") or {}
                error = body["error"] if isinstance(body.get("error"), dict) else {}
                text = message.get("message") or error.get("format") or "the request failed"
                future.set_exception(DapError(str(text)))
        elif kind == "event":
            try:
                self._on_event(str(message.get("event", "")), message.get("body") or {})
            except Exception:  # a failing handler must not end the conversation
                log.exception("handling the DAP event %r failed", message.get("event"))
        elif kind == "request":  # runInTerminal, startDebugging: the program runs under the adapter
            reply = {
                "seq": 0,
                "type": "response",
                "request_seq": message.get("seq", 0),
                "success": False,
                "command": message.get("command", ""),
                "message": "simple-brief runs programs under the adapter (console: internalConsole)",
            }
            self._outbox.put(encode(reply))

    def _drain(self, stream: IO[bytes]) -> None:
        with contextlib.suppress(OSError, ValueError):
            for raw in stream:
                line = raw.decode("utf-8", "replace").rstrip()
                self._stderr.append(line)
                del self._stderr[:-STDERR_LINES]
                log.debug("%s: %s", self.name, line)

    def _stalled(self, why: str) -> None:
        self._lost(f"it stopped reading its input ({why})")

    def _lost(self, why: str) -> None:
        with self._lock:
            if self.gone is None:
                self.gone = why
            pending = list(self._pending.values())
            self._pending.clear()
        for future in pending:
            if not future.done():
                future.set_exception(AdapterGone(self.gone or why))


def wait(future: Future[dict[str, Any]], timeout: float, what: str) -> dict[str, Any]:
    """A request's response body, waited for at most `timeout` seconds.

    Raises:
        DapError, AdapterGone: as `DapClient.request`.
    """
    try:
        return future.result(timeout=max(timeout, 0.0))
    except FutureTimeout:
        raise AdapterGone(f"it did not answer {what} within {timeout:g} s") from None


def _free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _pump(read_end: int, sock: socket.socket) -> None:
    """Copy what the outbox writes into its pipe to the adapter's socket, until either ends."""
    with contextlib.suppress(OSError):
        while data := os.read(read_end, 65536):
            sock.sendall(data)
    with contextlib.suppress(OSError):
        os.close(read_end)
        sock.shutdown(socket.SHUT_WR)


def stop_session(root: int, reap: Callable[[], object] = lambda: None) -> None:
    """End every live process of the session kept by `root`: SIGTERM to all, SIGKILL to
    every descendant until none is left (while `root`, a subreaper, reaps them), then to
    `root`; `reap` is called while waiting (so a child of ours does not stay a zombie)."""
    _signal(session_members(root), signal.SIGTERM)
    deadline = time.monotonic() + KILL_GRACE
    while time.monotonic() < deadline and session_members(root):
        _reap(reap)
    deadline = time.monotonic() + KILL_GRACE
    while time.monotonic() < deadline and _signal(tree_members(root), signal.SIGKILL):
        _reap(reap)
    deadline = time.monotonic() + KILL_GRACE
    while time.monotonic() < deadline and _signal(session_members(root), signal.SIGKILL):
        _reap(reap)


def _signal(pids: list[int], sig: int) -> bool:
    """Send `sig` to each of `pids`; whether there was one."""
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
    return bool(pids)


def _reap(reap: Callable[[], object]) -> None:
    with contextlib.suppress(ChildProcessError):
        reap()
    time.sleep(0.02)


def session_members(root: int) -> list[int]:
    """The live processes of the session kept by `root`: its descendants, and `root`."""
    return [*tree_members(root), *([root] if running(root) else [])]


def session_rss_bytes(root: int) -> int:
    """The resident memory of the session's processes (`root`, the keeper, left out), summed."""
    return tree_rss_bytes(root)
