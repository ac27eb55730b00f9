"""One language server process and its JSON-RPC connection over stdio (disk mode).

A small synchronous client with three threads per server: a reader parses `Content-Length`
frames (`simple_brief.proc.framing`), resolves request futures, answers the server's own requests and
keeps published diagnostics; a writer is the only one to write to the server, from a
queue; a third copies the server's stderr into the log (our stdout is MCP's channel).
Messages stay plain JSON: results go back to the tools as the server sent them, and
importing lsprotocol (about 0.5 s) is not needed. `lsp_client.ServerPool` drives these.

Nothing waits without a bound: sending only queues a frame, so the reader never blocks
on a write; a frame not written within `WRITE_TIMEOUT`, a malformed frame or a reader
that dies for any reason stops the server with one sentence (`gone_note`) for every
waiting call, and the pool starts it again on the next. Floods are capped in memory.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import threading
from collections import deque
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path
from typing import IO, Any

from simple_brief import __version__
from simple_brief.errors import UserError
from simple_brief.files.config import FILENAME, ServerConfig
from simple_brief.intel.protocol import path_to_uri, uri_to_path
from simple_brief.intel.server_discovery import start_error_advice
from simple_brief.lsp.capabilities import CAPABILITY_OF, CLIENT_CAPABILITIES, COUNTS_CODE_POINTS
from simple_brief.lsp.readiness import WorkspaceReadiness
from simple_brief.positions import ENCODINGS
from simple_brief.proc import environment, programs
from simple_brief.proc.framing import MalformedMessage, Outbox, encode, read_message

log = logging.getLogger(__name__)

_STDERR_TAIL = 20
#: Longest stderr line kept whole, bytes (a line without end is read in pieces).
_STDERR_LINE = 4096
#: Seconds one message to a server may take to be written; past it the server, which has
#: stopped reading its input, is stopped (and started again on the next call).
WRITE_TIMEOUT = 8.0
#: Files whose published diagnostics are kept besides the open documents (newest kept).
MAX_PUBLISHED_FILES = 1000
#: Dynamically registered methods kept (the first ones; real servers register a dozen).
MAX_REGISTRATIONS = 256


class ServerGone(Exception):
    """The server's process ended (or its pipe broke) while we talked to it."""


def find_executable(config: ServerConfig, root: Path) -> str:
    """The program of `config.command` found on PATH outside the workspace (or a path with a slash,
    relative to `root`).

    Raises:
        UserError: not found or not executable.
    """
    program = config.command[0]
    found = programs.find(program, root, root)  # (PATH entries inside the workspace or relative are skipped)
    if found is None:
        raise UserError(
            f"the language server `{program}` named in {FILENAME} was not found on PATH; "
            f"install it or fix `servers.{config.name}.command`."
        )
    return str(found)


class Server:
    """A started language server: process, connection, capabilities, open documents, diagnostics.

    Attributes:
        config: what the workspace config says about it.
        encoding: the negotiated position encoding (`utf-16` until initialize says otherwise).
        capabilities: the server's capabilities from `initialize`.
        failure: why it could not start, or None.
    """

    def __init__(self, config: ServerConfig, root: Path) -> None:
        self.config = config
        self.root = root
        self.encoding = "utf-16"
        self.capabilities: dict[str, Any] = {}
        self.registered: set[str] = set()
        self.failure: str | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self._next_id = 0
        self._pending: dict[int, Future[dict[str, Any]]] = {}
        self._state = threading.Condition()
        self._sync_lock = threading.Lock()
        self._gone: str | None = None
        #: Why simple-brief stopped it (a misbehaviour), shown instead of its exit code.
        self._fault: str | None = None
        self._outbox: Outbox | None = None
        #: Whether `initialize` went unanswered in time (the pool remembers that).
        self.initialize_timed_out = False
        self._stderr_tail: deque[str] = deque(maxlen=_STDERR_TAIL)
        self._threads: list[threading.Thread] = []
        self._eof = threading.Event()
        #: path -> (version, text) as the server has it.
        self.documents: dict[Path, tuple[int, str]] = {}
        #: path -> last published diagnostics, and whether they follow the latest sync.
        self.published: dict[Path, list[dict[str, Any]]] = {}
        self._fresh: dict[Path, bool] = {}
        #: Whether the server has found the workspace's files (see `lsp.readiness`).
        self.workspace_ready = WorkspaceReadiness(config.command[0] if config.command else "")

    @property
    def name(self) -> str:
        """The config's name for this server."""
        return self.config.name

    @property
    def alive(self) -> bool:
        """Whether the process runs and the connection is open."""
        return self.proc is not None and self._gone is None and self.proc.poll() is None

    def gone_note(self) -> str:
        """Why the server is not running, with the end of its stderr."""
        if self._fault is not None:
            return f"the language server `{self.name}` was stopped: {self._fault}; it is restarted on the next request"
        code = self.proc.poll() if self.proc is not None else None
        note = self._gone or "it is not running"
        if code is not None:
            note = f"it exited with code {code}"
        tail = [line for line in self._stderr_tail if line.strip()]
        if tail:
            note += f" (stderr: {tail[-1].strip()[:200]})"
        return f"the language server `{self.name}` stopped: {note}; it is restarted on the next request"

    # --- process -------------------------------------------------------------

    def spawn(self) -> None:
        """Start the process and the reader threads.

        Raises:
            UserError: the program is missing or cannot be executed.
        """
        program = find_executable(self.config, self.root)
        try:
            # A session of its own: close() can kill the server with its children (jedi's
            # inference subprocesses), and Ctrl-C in a terminal reaches only simple-brief.
            self.proc = subprocess.Popen(
                [program, *self.config.command[1:]],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=self.root,
                env=environment.for_child(),  # (the PATH it was found on: the call's, in the daemon)
                start_new_session=True,
            )
        except OSError as exc:
            raise UserError(
                f"the language server `{program}` named in {FILENAME} could not be started ({exc.strerror}); "
                f"fix `servers.{self.name}.command`."
            ) from None
        assert self.proc.stdin is not None and self.proc.stdout is not None and self.proc.stderr is not None
        self._outbox = Outbox(
            self.proc.stdin,
            f"lsp-{self.name}-write",
            WRITE_TIMEOUT,
            on_stall=lambda why: self._fail(f"it stopped reading its input ({why})"),
            on_broken=lambda: self._mark_gone("its input pipe closed"),
        )
        for role, target, stream in (
            ("read", self._read_loop, self.proc.stdout),
            ("stderr", self._stderr_loop, self.proc.stderr),
        ):
            thread = threading.Thread(target=target, args=(stream,), name=f"lsp-{self.name}-{role}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def begin_initialize(self) -> Future[dict[str, Any]]:
        """Send `initialize` (the answer is awaited by `finish_initialize`)."""
        root_uri = path_to_uri(self.root)
        params: dict[str, Any] = {
            "processId": os.getpid(),
            "clientInfo": {"name": "simple-brief", "version": __version__},
            "rootUri": root_uri,
            "rootPath": str(self.root),
            "workspaceFolders": [{"uri": root_uri, "name": self.root.name}],
            "capabilities": CLIENT_CAPABILITIES,
            "trace": "off",
        }
        if self.config.init_options:
            params["initializationOptions"] = self.config.init_options
        return self.send_request("initialize", params)

    def finish_initialize(self, future: Future[dict[str, Any]], timeout: float, limit: float | None = None) -> None:
        """Wait up to `timeout` for the `initialize` answer, then send `initialized` (and the
        settings).

        Sets `failure` (and stops the process) when the server does not answer in time
        (`initialize_timed_out`; the sentence names `limit`, the whole start time allowed).
        """
        try:
            reply = future.result(timeout=timeout)
        except FutureTimeout:
            shown = timeout if limit is None else limit
            self.failure = f"the language server `{self.name}` did not answer `initialize` within {shown:g}s"
            self.initialize_timed_out = True
            self.kill()
            return
        except ServerGone:
            self.failure = self.gone_note()
            return
        if "error" in reply:
            why = error_text(reply["error"])
            advice = start_error_advice(why)
            self.failure = f"the language server `{self.name}` refused `initialize`: {why}" + (
                f"; {advice}" if advice else ""
            )
            self.kill()
            return
        result = reply.get("result") or {}
        self.capabilities = result.get("capabilities") or {}
        info = result.get("serverInfo") or {}
        announced = self.capabilities.get("positionEncoding")
        encoding = self.config.position_encoding or announced
        if encoding is None and info.get("name") in COUNTS_CODE_POINTS:
            encoding = "utf-32"
        self.encoding = encoding if encoding in ENCODINGS else "utf-16"
        log.info("%s started (%s %s, positions %s)", self.name, info.get("name"), info.get("version"), self.encoding)
        self.workspace_ready.expect(info.get("name"))
        self.notify("initialized", {})
        self.workspace_ready.initialized()
        if self.config.settings:
            # Servers that never ask workspace/configuration (pylsp) read settings from here.
            self.notify("workspace/didChangeConfiguration", {"settings": self.config.settings})

    def supports(self, method: str) -> bool:
        """Whether the server's capabilities (or a dynamic registration) include `method`."""
        if method in self.registered:
            return True
        key = CAPABILITY_OF.get(method)
        if key is None:
            return True  # not a capability-gated method: let the server answer or refuse
        node: Any = self.capabilities
        for part in key.split("."):
            if not isinstance(node, dict):
                return False
            node = node.get(part)
        # `true` or an options object (even an empty one: `"completionProvider": {}`) means yes.
        return node is True or isinstance(node, dict)

    def stop(self, timeout: float, exit_wait: float = 1.0) -> None:
        """`shutdown` (answered within `timeout`) then `exit`, waiting `exit_wait` for the
        process to end; then kill its process group. jedi-language-server 0.47 takes ~4 s
        to end after `exit` with nothing left to save: it is killed once its output closes."""
        if self.alive:
            try:
                self.send_request("shutdown", None).result(timeout=timeout)
                self.notify("exit", None)
            except (FutureTimeout, ServerGone):
                pass
        # A server closes its output once it has handled `exit`: nothing is left to wait for.
        if self._eof.wait(timeout=exit_wait) and self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=0.2)
        self.kill()

    def kill(self) -> None:
        """Kill the server and whatever it started (its process group), and reap it."""
        if self.proc is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            log.warning("%s (pid %s) did not die after SIGKILL", self.name, self.proc.pid)
        # Each pipe is closed by its own thread: stdin by the writer, which `_mark_gone` ends.
        self._mark_gone("it was stopped")

    def _fail(self, fault: str) -> None:
        """Stop a misbehaving server; `fault` says why in every waiting call's answer."""
        with self._state:
            if self._gone is None and self._fault is None:
                self._fault = fault
        log.warning("%s: %s", self.name, fault)
        self._mark_gone(fault)
        self.kill()

    # --- JSON-RPC --------------------------------------------------------------

    def send_request(self, method: str, params: Any) -> Future[dict[str, Any]]:
        """Send a request; the future gets the whole response message (`result` or `error`).

        Raises:
            ServerGone: the server is not running.
        """
        future: Future[dict[str, Any]] = Future()
        with self._state:
            if self._gone is not None:
                raise ServerGone(self.gone_note())
            self._next_id += 1
            request_id = self._next_id
            self._pending[request_id] = future
        future.request_id = request_id  # type: ignore[attr-defined]
        self._write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return future

    def cancel(self, future: Future[dict[str, Any]]) -> None:
        """Tell the server we no longer wait for a request's answer."""
        request_id = getattr(future, "request_id", None)
        with self._state:
            self._pending.pop(request_id, None)  # type: ignore[arg-type]
        with contextlib.suppress(ServerGone):
            self.notify("$/cancelRequest", {"id": request_id})

    def notify(self, method: str, params: Any) -> None:
        """Send a notification.

        Raises:
            ServerGone: the server is not running.
        """
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self._write(message)

    def _write(self, message: dict[str, Any]) -> None:
        """Queue `message` for the writer thread (never blocks).

        Raises:
            ServerGone: the server is not running, or was stopped for not reading its input.
        """
        if self._outbox is None or self._gone is not None or not self._outbox.put(encode(message)):
            raise ServerGone(self.gone_note())

    def _read_loop(self, stream: IO[bytes]) -> None:
        fault = None
        try:
            while True:
                message = read_message(stream)
                if message is None:
                    break
                try:
                    self._dispatch(message)
                except Exception:  # a bad message must not kill the connection
                    log.exception("%s: could not handle %s", self.name, str(message)[:200])
        except MalformedMessage as exc:
            fault = f"it sent a malformed message ({exc})"
        except (OSError, ValueError) as exc:  # its output closed under us (`kill`)
            log.warning("%s: reading stopped: %s", self.name, exc)
        except Exception as exc:  # never a silent death (RecursionError from JSON nested too deep ...)
            fault = f"simple-brief could not read its messages ({type(exc).__name__}: {str(exc)[:100]})"
        finally:
            with contextlib.suppress(OSError):
                stream.close()
            self._eof.set()
            if fault is not None:
                self._fail(fault)
            else:
                if self.proc is not None:
                    # The output ends as the process exits: wait (bounded) so the note has its exit code.
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        self.proc.wait(timeout=2)
                self._mark_gone("its output closed")

    def _stderr_loop(self, stream: IO[bytes]) -> None:
        try:
            while raw := stream.readline(_STDERR_LINE):
                line = raw.decode("utf-8", "replace").rstrip()
                self._stderr_tail.append(line)
                log.debug("%s stderr: %s", self.name, line)
        except (OSError, ValueError):
            pass
        finally:
            with contextlib.suppress(OSError):
                stream.close()

    def _mark_gone(self, why: str) -> None:
        with self._state:
            if self._gone is None:
                self._gone = why
            pending = list(self._pending.values())
            self._pending.clear()
            self._state.notify_all()
        if self._outbox is not None:
            self._outbox.close()  # the writer thread ends (and closes the server's stdin)
        note = self.gone_note()
        for future in pending:
            if not future.done():
                future.set_exception(ServerGone(note))

    def _dispatch(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:
            with self._state:
                future = self._pending.pop(message.get("id"), None)  # type: ignore[arg-type]
            if future is not None and not future.done():
                future.set_result(message)
            return
        params = message.get("params")
        if "id" in message:
            self._answer(message["id"], method, params)
        elif method == "textDocument/publishDiagnostics" and isinstance(params, dict):
            self._store_diagnostics(params)
        elif method in ("window/logMessage", "window/showMessage") and isinstance(params, dict):
            log.debug("%s: %s", self.name, params.get("message"))
            self.workspace_ready.logged(params.get("message"))
        elif method == "$/progress" and isinstance(params, dict):
            self.workspace_ready.progressed(params.get("token"), params.get("value"))

    def _answer(self, request_id: Any, method: str, params: Any) -> None:
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": None}
        if method == "window/workDoneProgress/create":
            self.workspace_ready.created()
        elif method == "workspace/configuration":
            items = params.get("items", []) if isinstance(params, dict) else []
            reply["result"] = [_section(self.config.settings, item.get("section")) for item in items]
        elif method == "workspace/workspaceFolders":
            reply["result"] = [{"uri": path_to_uri(self.root), "name": self.root.name}]
        elif method == "client/registerCapability":
            for registration in (params or {}).get("registrations", []):
                if len(self.registered) < MAX_REGISTRATIONS:
                    self.registered.add(registration.get("method", ""))
        elif method == "workspace/applyEdit":
            reply["result"] = {
                "applied": False,
                "failureReason": "simple-brief applies edits only through its tools, never on a server's request",
            }
        elif method not in (
            "client/unregisterCapability",
            "window/showMessageRequest",
        ):
            del reply["result"]
            reply["error"] = {"code": -32601, "message": f"simple-brief does not handle {method}"}
        with contextlib.suppress(ServerGone):
            self._write(reply)

    # --- documents and diagnostics ---------------------------------------------

    def sync(self, path: Path, text: str, language_id: str) -> None:
        """Make the server's copy of `path` equal `text` (didOpen, else a full-text didChange).

        Raises:
            ServerGone: the server is not running.
        """
        with self._sync_lock:
            uri = path_to_uri(path)
            known = self.documents.get(path)
            if known is not None and known[1] == text:
                return
            version = 1 if known is None else known[0] + 1
            with self._state:
                # Recorded before sending so a quick publish is matched to this version.
                self.documents[path] = (version, text)
                self._fresh[path] = False
            if known is None:
                document = {"uri": uri, "languageId": language_id, "version": version, "text": text}
                self.notify("textDocument/didOpen", {"textDocument": document})
                self.workspace_ready.opened(path, self.root)
            else:
                self.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
                )

    def _store_diagnostics(self, params: dict[str, Any]) -> None:
        path = uri_to_path(str(params.get("uri", "")))
        if path is None:
            return
        version = params.get("version")
        with self._state:
            self.published.pop(path, None)  # re-inserted last: the newest are kept
            self.published[path] = list(params.get("diagnostics") or [])
            if len(self.published) > MAX_PUBLISHED_FILES:
                oldest = next((p for p in self.published if p not in self.documents), None)
                if oldest is not None:
                    del self.published[oldest]
            current = self.documents.get(path)
            # Without a version the publish is taken as following the latest change.
            if current is not None and (not isinstance(version, int) or version >= current[0]):
                self._fresh[path] = True
            self._state.notify_all()

    def wait_diagnostics(self, path: Path, timeout: float) -> tuple[list[dict[str, Any]], bool]:
        """The diagnostics published for `path` and whether they follow its latest sync,
        waiting up to `timeout` for such a publish (or for the server to end)."""
        with self._state:
            self._state.wait_for(lambda: self._fresh.get(path, False) or self._gone is not None, timeout)
            return list(self.published.get(path, [])), self._fresh.get(path, False)


def error_text(error: Any) -> str:
    """A JSON-RPC error object as one line."""
    if isinstance(error, dict):
        return f"{error.get('message', 'error')} (code {error.get('code')})"
    return str(error)


def _section(settings: dict[str, Any], section: Any) -> Any:
    if not section:
        return settings
    node: Any = settings
    for part in str(section).split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node
