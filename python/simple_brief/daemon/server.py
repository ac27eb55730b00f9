"""The daemon: one per user, serving the `simple-brief` command over a Unix socket.

It takes the lock file (fcntl.flock, held for its whole life) before it binds, so two
daemons never run; a socket left by a dead one is replaced. Every connection's peer is
checked (SO_PEERCRED: this user only); the socket is 0600 in a 0700 folder.

A request is a tool call (`host.request.ToolCall`: the tool, its arguments, the root, the
client's environment variables the engine reads), never a command line: the daemon runs
it and sends back its answer, and the client prints it. Nothing of the process is changed
for a request (its environment, working folder, sys.stdout, the root logger's handlers):
the call reads the client's variables through `environment.calling_with`, its progress
bar and log lines (`request_logging`, bound to the worker thread) go to the client as
stderr frames. Requests run one at a time on one worker thread (the engine's SQLite
connections belong to the thread that opened them), while each connection's own thread
tells its client the daemon is still working. After `idle_seconds` without a request it stops by itself: only
a command it runs counts as a request (`status`, `stop`, a client of another installation
or a connection that never says anything do not keep it up), and the idle time is read on
a clock that runs while the machine sleeps. When it stops, it stops what it started (the
warm workspaces' language servers and watchers) before it lets go of its lock.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import io
import logging
import os
import queue
import select
import selectors
import signal
import socket
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from simple_brief.files.private_files import FILE_MODE, private_dir
from simple_brief.host import protocol
from simple_brief.proc import environment

log = logging.getLogger("simple_brief.daemon")
log.propagate = False  # a request's `-v` logging goes to its client, the daemon's own to its log

#: How long a starting daemon waits for the lock of one that is stopping.
LOCK_WAIT = 3.0
#: The longest request line accepted, and how long its sending may take.
REQUEST_TIMEOUT = 5.0
_LOG_LIMIT = 1 << 20
#: A call longer than this (seconds) may have built something big: free what it left behind.
RELEASE_AFTER = 0.5
#: How often a waiting connection looks whether its client went away, seconds.
CLIENT_CHECK = 0.1


def now() -> float:
    """Seconds on the daemon's clock: monotonic, and counting the time the machine was
    suspended (CLOCK_BOOTTIME, Linux), as the person's clock does: a daemon whose laptop slept
    through its idle period stops at the first look after it wakes."""
    boottime = getattr(time, "CLOCK_BOOTTIME", None)
    if boottime is not None:
        with contextlib.suppress(OSError):
            return time.clock_gettime(boottime)
    return time.monotonic()


def release_memory() -> None:
    """Collect garbage and give the C heap's free pages back to the system (glibc's
    malloc_trim): a long call (an index build) leaves a heap far bigger than what stays."""
    gc.collect()
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def rss_bytes() -> int:
    """This process's resident memory in bytes (Linux /proc; else the peak from getrusage)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    import resource  # (not on Windows)

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)


@dataclass
class Job:
    """One `run` request: its connection, its message, and whether it is over."""

    sock: socket.socket
    request: dict[str, Any]
    done: threading.Event = field(default_factory=threading.Event)
    gone: bool = False
    #: Set once the exit code is sent: the client closing after that is no cancellation.
    answered: bool = False
    #: Set when the client went away (Ctrl-C, killed): the command stops at its next check.
    cancelled: threading.Event = field(default_factory=threading.Event)
    _send_lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, message: dict[str, Any]) -> None:
        """Send a frame; a client that went away is remembered, not an error."""
        if self.gone:
            return
        with self._send_lock:
            try:
                self.sock.sendall(protocol.encode(message))
            except OSError:
                self.abandon()

    def abandon(self) -> None:
        """The client is gone: nothing more is sent, and the command is told to stop."""
        if not self.gone:
            self.gone = True
            self.cancelled.set()
            if not self.answered:
                call = self.request.get("call")
                command = call.get("command") if isinstance(call, dict) else None
                log.info("the client of `%s` went away: cancelling it", command)

    def client_left(self, timeout: float) -> bool:
        """Wait up to `timeout` seconds for the client to close its end (it sends nothing
        after its request, so a readable socket means it closed, or broke the protocol)."""
        try:
            readable, _, _ = select.select([self.sock], [], [], timeout)
            if not readable:
                return False
            return self.sock.recv(4096) == b""
        except (OSError, ValueError):
            return True


class Stream:
    """A request's stderr (its progress bar, its log lines): text goes to the client as frames."""

    closed = False

    def __init__(self, job: Job, key: str, tty: bool, encoding: str | None) -> None:
        self.job, self.key, self.tty = job, key, tty
        self.encoding = encoding or "utf-8"
        self.errors = "strict"
        self.parts: list[str] = []
        self.size = 0

    def isatty(self) -> bool:
        return self.tty

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        raise io.UnsupportedOperation("the daemon's streams have no descriptor")

    def write(self, text: str) -> int:
        self.parts.append(text)
        self.size += len(text)
        if self.size > 1 << 16 or (self.key == "e" and self.tty):
            self.flush()
        return len(text)

    def flush(self) -> None:
        if self.parts:
            text, self.parts, self.size = "".join(self.parts), [], 0
            self.job.send({self.key: text})


class Daemon:
    """The running daemon's state: what `status` reports and what the idle timer reads."""

    def __init__(
        self,
        run: Callable[[dict[str, Any], Stream, threading.Event], dict[str, Any]],
        workspaces: Callable[[], list[str]],
        idle: float,
        after: Callable[[], None] | None = None,
        first: Callable[[Callable[[], bool]], None] | None = None,
    ) -> None:
        self.run = run
        self.after = after
        self.first = first
        self.workspaces = workspaces
        self.idle = idle
        self.started = now()
        self.last_request = self.started
        self.requests = 0
        self.busy = False
        #: Open connections: one whose request is not read yet may be a command on its way.
        self.open_connections = 0
        self._pending_lock = threading.Lock()
        self.jobs: queue.Queue[Job | None] = queue.Queue()
        self.stopping = threading.Event()
        self.socket_path = protocol.socket_path()
        #: Read once, at the start: the code this daemon loads is the code as it was then.
        self.identity = protocol.identity()

    # --- connections ------------------------------------------------------------------

    def accepted(self) -> None:
        """A connection came (the accepting thread): no idle stop while it is open. It does
        not count as a request: only a tool call does (`_run`)."""
        with self._pending_lock:
            self.open_connections += 1

    def handle(self, conn: socket.socket) -> None:
        """Answer one connection (its own thread; `accepted()` was called for it)."""
        try:
            self._handle(conn)
        finally:
            with self._pending_lock:
                self.open_connections -= 1

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                uid = protocol.peer_uid(conn)
                if uid is not None and uid != os.getuid():
                    log.warning("refused a connection from uid %s", uid)
                    return
                conn.settimeout(REQUEST_TIMEOUT)
                request = protocol.Lines(conn).read()
            except (OSError, ValueError) as exc:
                log.warning("a request could not be read: %s", exc)
                return
            if request is None:
                return
            op = request.get("op")
            if op == "status":
                self._reply(conn, {"status": self.status()})
            elif op == "stop":
                self._reply(conn, {"stopping": os.getpid()})
                self.stopping.set()
            elif op == "call":
                self._run(conn, request)
            else:
                self._reply(conn, {"mismatch": f"unknown request {op!r}"})

    def _reply(self, conn: socket.socket, message: dict[str, Any]) -> None:
        with contextlib.suppress(OSError):
            conn.sendall(protocol.encode(message))

    def _run(self, conn: socket.socket, request: dict[str, Any]) -> None:
        mine, theirs = self.identity, request.get("identity")
        if theirs != mine:
            reason = f"this daemon runs {mine}, the command is {theirs}"
            if isinstance(theirs, dict) and theirs.get("home") == mine["home"]:
                # The same installation with other code (upgraded, or an engine file edited):
                # make way for a daemon that loads it; the client starts one and asks it.
                log.info("stopping: simple-brief's code changed (%s)", theirs)
                self.stopping.set()
                self._reply(conn, {"mismatch": reason, "restart": True})
            else:
                self._reply(conn, {"mismatch": reason})  # another installation: it works without us
            return
        ours = environment.subset(os.environ, environment.PROCESS)
        if request.get("process_env") != ours:
            # Read by libraries and once per process (the user config, cache and state folders):
            # a client with other values gets its answer without us.
            self._reply(conn, {"mismatch": "the client's user folders differ from the daemon's"})
            return
        job = Job(conn, request)
        self.last_request = now()  # a tool call: the one thing that keeps the daemon up
        self.jobs.put(job)
        beat = now() + protocol.HEARTBEAT
        while not job.done.is_set():
            if job.client_left(min(CLIENT_CHECK, max(0.0, beat - now()))):
                job.abandon()  # Ctrl-C or a killed client: the worker stops at its next check
                break
            if now() >= beat and not job.done.is_set():
                job.send({"hb": 1})
                beat = now() + protocol.HEARTBEAT
        job.done.wait()  # the connection stays open until the worker is done with it

    # --- the worker ---------------------------------------------------------------------

    def work(self) -> None:
        """Run the requests one after another (the worker thread)."""
        if self.first is not None:
            self.busy = True
            try:
                self.first(lambda: not self.jobs.empty())
            except Exception:
                log.exception("the daemon's first work failed")
            finally:
                self.busy = False
                self.last_request = now()
        while (job := self.jobs.get()) is not None:
            self.busy = True
            # Counted before its answer goes out: a client that reads `status` right after its
            # answer sees its own request (counted after, a loaded machine showed the old count).
            self.requests += 1
            began = now()
            try:
                if not job.gone:
                    answer = self._execute(job)
                    if job.cancelled.is_set():
                        log.info("stopped a call after its client went away (%s)", answer.get("code", "answered"))
                    job.answered = True
                    job.send({"answer": answer})
                if self.after is not None:
                    self.after()  # the client has its answer; what follows is the daemon's own work
                if now() - began > RELEASE_AFTER:
                    release_memory()
            except Exception:
                log.exception("a request failed inside the daemon")
                job.send({"fail": "the daemon failed; see its log"})
            finally:
                self.busy = False
                self.last_request = now()
                job.done.set()

    def _execute(self, job: Job) -> dict[str, Any]:
        """The request's answer; its progress and log lines went to its client meanwhile."""
        tty = job.request.get("tty") or {}
        encoding = job.request.get("encoding") or {}
        err = Stream(job, "e", bool(tty.get("stderr")), encoding.get("stderr"))
        try:
            return self.run(job.request, err, job.cancelled)
        except KeyboardInterrupt:
            return {"code": 130}
        except Exception:
            traceback.print_exc(file=err)  # as the interpreter would print it standalone
            return {"code": 1}
        finally:
            with contextlib.suppress(Exception):
                err.flush()

    # --- status -------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """What `simple-brief daemon status` prints."""
        return {
            "pid": os.getpid(),
            "uptime": now() - self.started,
            "idle_seconds": self.idle,
            "since_last_request": now() - self.last_request,
            "requests": self.requests,
            "busy": self.busy,
            "rss": rss_bytes(),
            "workspaces": self.workspaces(),
            "socket": str(self.socket_path),
            **self.identity,
        }

    def idle_expired(self) -> bool:
        """Whether it is time to stop: no command ran, waited or was on its way for the idle period."""
        with self._pending_lock:
            connected = self.open_connections > 0
        return not self.busy and not connected and self.jobs.empty() and now() - self.last_request > self.idle


@contextlib.contextmanager
def request_logging(stream: Stream, verbose: bool, line_format: str) -> Iterator[None]:
    """Within this block, what this thread logs (INFO and up with `verbose`, else WARNING
    and up) goes to `stream` as `line_format` lines: the request's own `-v`, without
    touching the root logger's handlers (the daemon's log keeps its own)."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter(line_format))
    handler.setLevel(logging.INFO if verbose else logging.WARNING)
    thread = threading.get_ident()
    handler.addFilter(lambda record: record.thread == thread)
    logging.root.addHandler(handler)
    try:
        yield
    finally:
        logging.root.removeHandler(handler)


def _take_lock(path: Path) -> int | None:
    """The lock file's descriptor, locked; None when another daemon holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(0.05)
            continue
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd


def _bind(path: Path) -> socket.socket:
    """Listen at `path`, replacing what a dead daemon left there (we hold the lock)."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    old = os.umask(0o077)  # never a moment with the socket open to others
    try:
        with protocol.address(path) as name:
            listener.bind(name)
    finally:
        os.umask(old)
    os.chmod(path, FILE_MODE)
    listener.listen(64)
    return listener


def _log_to_file(path: Path) -> None:
    with contextlib.suppress(OSError):
        if path.stat().st_size > _LOG_LIMIT:
            os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC | os.O_NOFOLLOW, FILE_MODE)
    handler = logging.StreamHandler(os.fdopen(fd, "a", encoding="utf-8", errors="backslashreplace"))
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
    log.handlers[:] = [handler]
    log.setLevel(logging.INFO)
    # The engine's warnings go to the log too; its INFO lines pass the root logger for a
    # request's `-v` (`request_logging`), this handler keeps only warnings.
    engine = logging.StreamHandler(handler.stream)
    engine.setFormatter(handler.formatter)
    engine.setLevel(logging.WARNING)
    logging.root.handlers[:] = [engine]
    logging.root.setLevel(logging.INFO)


def serve(
    run: Callable[[dict[str, Any], Stream, threading.Event], dict[str, Any]],
    workspaces: Callable[[], list[str]],
    idle_seconds: float,
    prepare: Callable[[], None] | None = None,
    after: Callable[[], None] | None = None,
    close: Callable[[], None] | None = None,
    first: Callable[[Callable[[], bool]], None] | None = None,
) -> int:
    """Be the daemon until stopped or idle; 0, or 1 when another daemon already runs.

    Args:
        run: answers one tool call request (its progress and log lines to the given stream),
            stopping at its next check once the event is set (its client went away).
        workspaces: the roots kept warm, for `status`.
        idle_seconds: stop after this long without a request.
        prepare: called once the lock is ours, before the socket listens (imports to warm).
        after: called after each request, once its client has the answer.
        close: called when the daemon stops, before it lets go of its lock (so a new daemon,
            or `daemon stop` waiting for the lock, finds everything it started stopped).
        first: run on the worker thread before the first request, given a function telling
            whether a request waits (the work the command that started the daemon asked for).
    """
    folder = private_dir(protocol.daemon_dir())
    _log_to_file(protocol.log_path())
    lock = _take_lock(protocol.lock_path())
    if lock is None:
        log.info("another daemon holds %s; not starting", protocol.lock_path())
        return 1
    daemon = Daemon(run, workspaces, idle_seconds, after, first)
    try:
        if prepare is not None:
            prepare()
        listener = _bind(daemon.socket_path)
    except OSError:
        os.close(lock)
        raise
    inode = os.stat(daemon.socket_path).st_ino
    log.info("listening on %s (pid %d, idle stop after %.0f s)", daemon.socket_path, os.getpid(), idle_seconds)
    os.chdir("/")

    def on_signal(_number: int, _frame: FrameType | None) -> None:
        daemon.stopping.set()

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, on_signal)
    worker = threading.Thread(target=daemon.work, name="simple-brief-worker", daemon=True)
    worker.start()
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    try:
        while not daemon.stopping.is_set():
            if selector.select(timeout=0.2):
                with contextlib.suppress(OSError):
                    conn, _ = listener.accept()
                    daemon.accepted()  # a command on its way keeps us up, a `status` does not
                    threading.Thread(target=daemon.handle, args=(conn,), daemon=True).start()
            elif daemon.idle_expired():
                log.info("stopping after %.0f s without a request", daemon.idle)
                break
            if not folder.is_dir():
                break  # the state directory was removed: nobody can reach us any more
    finally:
        selector.close()
        listener.close()
        with contextlib.suppress(OSError):
            if os.stat(daemon.socket_path).st_ino == inode:
                os.unlink(daemon.socket_path)
        daemon.jobs.put(None)
        worker.join(timeout=5)
        if close is not None:
            try:
                close()
            except Exception:
                log.exception("stopping what the daemon started failed")
        log.info("stopped after %d requests", daemon.requests)
        os.close(lock)
    return 0
