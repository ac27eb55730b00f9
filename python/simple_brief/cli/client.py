"""The `simple-brief` script: hand the command to this user's daemon, or work here.

Standard library only until it decides to work without the daemon: a call the daemon
answers costs an interpreter start, one socket round trip and the answer's bytes.

- A daemon-served command (`request.DAEMON_COMMANDS`: outline, expand, symbols, search,
  diagnostics, docs, run, tools) goes to the daemon unless `--no-daemon`,
  `SIMPLE_BRIEF_DAEMON=0`, or `[daemon] enabled = false` in the user's config says not to.
  A test run (`PYTEST_CURRENT_TEST` set) uses no daemon unless `SIMPLE_BRIEF_DAEMON=1`
  asks for one, so a test suite never leaves daemons behind.
- No daemon running: one is started in the background and THIS call works standalone
  (waiting would make the first call slower than standalone: the daemon's own start is
  the same imports this call needs); the next call is served by the daemon.
- A daemon that is there but does not answer (dead socket, a file in its place, it dies or
  goes silent mid-request): one line on stderr, a fresh daemon started, and the command
  runs standalone. The client waits as long as the daemon says it is working (a heartbeat
  every second), never more than `protocol.SILENCE_LIMIT` seconds of silence.
- A daemon of this installation running other code (an upgrade, an engine file edited
  since it started: `protocol.identity`) stops when asked; the command waits for it, starts
  a new daemon and asks that one (bounded by `RESTART_WAIT`).
- The command line is parsed here (`parser.build_parser`: usage errors and `--help` are
  printed here) and sent as a tool call (`calls.tool_call`: the same mapping the standalone
  command uses), with this process's environment (the engine reads `environment.PER_CALL`
  from it, the programs the call starts get it whole; `environment.PROCESS` is sent apart,
  for the daemon to check it equals its own).
  The daemon sends back the answer and this process prints it (`calls.render`, as the
  standalone command does), after the stderr the call wrote (its progress bar, `-v` lines;
  shown live on a terminal), so a daemon dying mid-request leaves no half answer.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Callable, Sequence

from simple_brief.cli import calls
from simple_brief.cli.streams import escape_unencodable
from simple_brief.cli.user_config import user_table
from simple_brief.errors import UserError
from simple_brief.host import protocol
from simple_brief.host.request import DAEMON_COMMANDS, ToolCall, error_answer
from simple_brief.proc import detach, environment

_OFF = ("0", "off", "false", "no")
TYPE_CHECKING = False  # not typing's: importing typing costs the script's fast path milliseconds
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")
    #: What reads the daemon's answer off the socket (given `--json`): printed, or returned.
    Finish = Callable[[socket.socket, bool], T | None]

#: Seconds a command waits for a daemon running changed code to stop and a new one to listen.
RESTART_WAIT = 20.0


def main(argv: Sequence[str] | None = None) -> int:
    """The `simple-brief` script; returns the exit code."""
    escape_unencodable()
    args = list(sys.argv[1:] if argv is None else argv)
    if uses_daemon(args):
        call = _parsed(args)
        if isinstance(call, int):
            return call
        if call is not None:
            try:
                code = through_daemon(args, call)
            except KeyboardInterrupt:
                return 130  # as standalone; the daemon sees the connection close and cancels the call
            if code is not None:
                return code
    return standalone(args)


def _parsed(args: list[str]) -> ToolCall | int | None:
    """The command line's tool call; an exit code when it ended here (usage error, `--help`,
    a bad `--param`: printed as standalone prints it); None to work standalone (the current
    folder is gone, the --root is no folder: standalone says so)."""
    from simple_brief.cli.parser import build_parser

    try:
        parsed = build_parser().parse_args(args)
    except SystemExit as exc:
        return 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1  # (as the interpreter)
    done = calls.unfinished(parsed)
    if done is not None:
        return done
    try:
        call = calls.tool_call(parsed, os.getcwd(), _isatty(sys.stderr))
    except UserError as err:
        return _print(calls.render(error_answer(err), bool(getattr(parsed, "json", False))))
    except OSError:
        return None
    if not os.path.isdir(call.folder()):
        return None
    call.env = dict(os.environ)  # the programs the call starts get it whole, as standalone
    terminal = next((stream for stream in (sys.stdout, sys.stderr) if _isatty(stream)), None)
    if terminal is not None and "COLUMNS" not in call.env:
        # The daemon has no terminal: give it ours (the progress bar's width).
        try:
            size = os.get_terminal_size(terminal.fileno())
            call.env["COLUMNS"], call.env["LINES"] = str(size.columns), str(size.lines)
        except (OSError, ValueError):
            pass
    return call


def standalone(args: list[str]) -> int:
    """Work in this process (imports the engine)."""
    from simple_brief.cli.standalone import main as run

    return run(args)


def _first_word(args: list[str]) -> str | None:
    words = args[: args.index("--")] if "--" in args else args
    return next((word for word in words if not word.startswith("-")), None)


def uses_daemon(args: list[str]) -> bool:
    """Whether this command line goes to the daemon."""
    words = args[: args.index("--")] if "--" in args else args
    if _first_word(args) not in DAEMON_COMMANDS or "--no-daemon" in words:
        return False
    return daemon_wanted()


def daemon_wanted() -> bool:
    """Whether calls go to the daemon: on POSIX, unless SIMPLE_BRIEF_DAEMON, a test run or the
    user's config says not to."""
    if os.name != "posix":
        return False  # (the daemon needs Unix sockets and flock)
    switch = os.environ.get(protocol.SWITCH_ENV, "").strip().lower()
    if switch:
        return switch not in _OFF
    if "PYTEST_CURRENT_TEST" in os.environ:
        return False
    return _enabled_in_user_config()


def _enabled_in_user_config() -> bool:
    """`[daemon] enabled` of the user's own config; a broken file works standalone, where
    the error is reported as it always is."""
    table = user_table("daemon")
    return isinstance(table, dict) and table.get("enabled", True) is True


def _say(reason: str) -> None:
    print(f"simple-brief: the daemon did not answer ({reason}); working without it", file=sys.stderr, flush=True)


def _start_daemon(after_failure: bool = False, args: list[str] | None = None) -> None:
    """Start a daemon unless one holds the lock (running, or starting). After a failure the
    lock may still be held by the dying daemon: start one anyway, it waits for the lock
    (`server.LOCK_WAIT`) and gives up quietly if a live daemon has it. For a `search` (`args`)
    the daemon watches its root at once and walks it once this process left, so the next
    search does not walk."""
    argv = ["daemon", "start", "--foreground"]
    root = _searched_root(args or [])
    if root is not None:
        argv += ["--warm", root, "--after-pid", str(os.getpid())]
    try:
        if after_failure or not protocol.lock_is_held():
            detach.spawn(lambda: _become_daemon(argv))
    except OSError:
        pass  # the next call tries again; this one works standalone either way


def _become_daemon(argv: list[str]) -> int:
    """In the detached process: run `simple-brief daemon …` (`simple_brief.main` starts the
    daemon's adapter; the command line does not import it)."""
    os.execv(sys.executable, [sys.executable, "-m", "simple_brief", *argv])


def _searched_root(args: list[str]) -> str | None:
    """The absolute root a `search` command line works in (`--root`, else the current folder)."""
    words = args[: args.index("--")] if "--" in args else args
    if next((word for word in words if not word.startswith("-")), None) != "search":
        return None
    root = "."
    for i, word in enumerate(words):
        if word == "--root" and i + 1 < len(words):
            root = words[i + 1]
        elif word.startswith("--root="):
            root = word.split("=", 1)[1]
    try:
        return os.path.abspath(os.path.expanduser(root))
    except OSError:
        return None  # the current folder is gone


class _Restart(Exception):
    """The daemon runs other code of this installation (an upgrade, an edited engine file):
    it is stopping, and the command goes to a new one."""


def through_daemon(args: list[str], call: ToolCall) -> int | None:
    """Run the command's call in the daemon; its exit code, or None to work standalone."""
    return _asked(args, call, _printed)


def daemon_answer(call: ToolCall) -> dict[str, Any] | None:
    """The daemon's answer to `call` (the stderr it wrote dropped), or None: no daemon is
    wanted, or it did not answer (one is started for the next call, as for a command line)."""
    if not daemon_wanted():
        return None
    return _asked([call.command], call, lambda sock, _: _read_answer(sock, live=False)[0])


def _asked(args: list[str], call: ToolCall, finish: Finish[T]) -> T | None:
    try:
        return _through_daemon(args, call, finish)
    except _Restart:
        pass
    if not _restarted():
        return None
    try:
        return _through_daemon(args, call, finish)
    except _Restart:
        _say("a new daemon runs other code than this command again")
        return None


def _restarted() -> bool:
    """Wait for the old daemon to stop, start a new one and wait until it listens; whether
    it does (else one line says why and the command works standalone)."""
    deadline = time.monotonic() + RESTART_WAIT
    while protocol.lock_is_held():
        if time.monotonic() > deadline:
            _say(f"the old daemon did not stop within {RESTART_WAIT:g} s after its code changed")
            return False
        time.sleep(0.02)
    _start_daemon()
    while time.monotonic() < deadline:
        try:
            protocol.connect(protocol.socket_path()).close()
            return True
        except OSError:
            time.sleep(0.02)
    _say(f"a new daemon did not start within {RESTART_WAIT:g} s after the engine's code changed")
    return False


def _through_daemon(args: list[str], call: ToolCall, finish: Finish[T]) -> T | None:
    path = protocol.socket_path()
    problem = protocol.private_folder_problem(path.parent)
    if problem is not None:
        if os.path.lexists(path.parent):
            _say(problem)  # never talk through a folder others can write to
            return None
        _start_daemon(args=args)
        return None
    try:
        sock = protocol.connect(path)
    except FileNotFoundError:
        _start_daemon(args=args)
        return None
    except OSError as exc:
        _say(f"{path}: {exc.strerror or exc}")
        _start_daemon(after_failure=True)
        return None
    try:
        with sock:
            sock.sendall(protocol.encode(_request(call)))
            return finish(sock, call.as_json)
    except OSError as exc:
        _say(str(exc.strerror or exc))
        _start_daemon(after_failure=True)
        return None
    except ValueError as exc:
        _say(f"garbled answer: {exc}")
        return None


def _request(call: ToolCall) -> dict[str, object]:
    return {
        "op": "call",
        "call": call.message(),
        "process_env": environment.subset(os.environ, environment.PROCESS),
        "tty": {"stderr": _isatty(sys.stderr)},
        "encoding": {"stderr": getattr(sys.stderr, "encoding", None)},
        "identity": protocol.identity(),
    }


def _isatty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        return False


def _printed(sock: socket.socket, as_json: bool) -> int | None:
    """Read the daemon's frames; print the answer and return the exit code, or None (fallback)."""
    answer, held = _read_answer(sock, live=_isatty(sys.stderr))
    if answer is None:
        return None
    out, err, code = calls.render(answer, as_json)
    return _print(("", "".join(held), 0)) or _print((out, err, code))  # (141: the reader went away)


def _read_answer(sock: socket.socket, live: bool) -> tuple[dict[str, Any] | None, list[str]]:
    """The daemon's answer (None: work standalone) and the stderr it wrote, unless `live`
    wrote that to this process's stderr as it came."""
    sock.settimeout(protocol.SILENCE_LIMIT)
    lines = protocol.Lines(sock)
    held: list[str] = []
    while True:
        try:
            frame = lines.read()
        except TimeoutError:
            _say(f"nothing came for {protocol.SILENCE_LIMIT:g} s")
            return None, held
        if frame is None:
            _say("it closed the connection before the answer was complete")
            _start_daemon(after_failure=True)
            return None, held
        if "answer" in frame:
            answer = frame["answer"]
            if not isinstance(answer, dict):
                raise ValueError("the answer is not an object")
            return answer, held
        if "e" in frame:
            if live:
                sys.stderr.write(str(frame["e"]))
                sys.stderr.flush()
            else:
                held.append(str(frame["e"]))
        elif "mismatch" in frame:
            if frame.get("restart"):
                raise _Restart  # this installation's code changed: the daemon stops for a new one
            return None, held  # another installation: its answers could differ
        elif "fail" in frame:
            _say(str(frame["fail"]))
            return None, held


def _print(rendered: tuple[str, str, int]) -> int:
    """Write (stdout, stderr, exit code) as the standalone command would; the exit code."""
    out, err, code = rendered
    try:
        sys.stderr.write(err)
        sys.stdout.write(out)
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        # As the standalone command: the reader went away, no traceback at exit either.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return code
