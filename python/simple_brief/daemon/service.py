"""`simple-brief daemon start|stop|status`, and the daemon's own wiring: it answers tool
calls (`request.ToolCall`, sent by the `simple-brief` script) as the standalone command does
(`host.command.answer`), over its one long-lived host, which keeps each workspace's state
(parse cache, indexes, language servers, debug sessions) between calls."""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simple_brief.daemon import server
from simple_brief.daemon.memory import MemorySettle
from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.host import command, protocol
from simple_brief.host.core import Host
from simple_brief.host.request import DAEMON_COMMANDS, EXIT_USER_ERROR, LOG_FORMAT, ToolCall, error_answer
from simple_brief.host.wiring import build_host
from simple_brief.index import watch
from simple_brief.proc import detach, environment

#: Exit code of `daemon status` when none runs (as LSB init scripts' `status`).
EXIT_NOT_RUNNING = 3
#: Seconds `start` waits for the new daemon to listen, and `stop` for the old one to go.
WAIT = 15.0
#: Seconds the warm-up waits for the command that started the daemon to end (the daemon is
#: busy meanwhile: a process that lives on must not keep it from its idle stop).
AFTER_PID_WAIT = 120.0


def run(args: argparse.Namespace) -> int:
    """The `daemon` subcommand."""
    action = args.daemon_command
    if action is None:
        args.daemon_parser.print_help()
        return EXIT_USER_ERROR
    try:
        if action == "start":
            if args.foreground and args.warm:
                return serve(args.idle_minutes, Warming(args.warm, args.after_pid))
            return _start(args.idle_minutes, args.foreground)
        if action == "stop":
            return _stop()
        return _status()
    except UserError as err:
        print(f"simple-brief: {err}", file=sys.stderr)
        return EXIT_USER_ERROR


def _running() -> dict[str, Any] | None:
    """The running daemon's status, or None."""
    try:
        reply = protocol.ask({"op": "status"})
    except OSError:
        return None
    return reply.get("status") if reply else None


def _start(idle_minutes: float | None, foreground: bool) -> int:
    if foreground:
        return serve(idle_minutes)
    status = _running()
    if status is not None:
        print(f"simple-brief: the daemon already runs (pid {status['pid']}, socket {status['socket']}).")
        return 0
    detach.spawn(lambda: serve(idle_minutes))
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        time.sleep(0.05)
        status = _running()
        if status is not None:
            print(f"simple-brief: the daemon runs (pid {status['pid']}, socket {status['socket']}).")
            return 0
    raise UserError(f"the daemon did not start within {WAIT:g} s; its log is {protocol.log_path()}.")


def _stop() -> int:
    try:
        reply = protocol.ask({"op": "stop"})
    except OSError:
        reply = None
    if not reply or "stopping" not in reply:
        print("simple-brief: no daemon is running.")
        return 0
    pid = reply["stopping"]
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if not protocol.lock_is_held():
            print(f"simple-brief: the daemon (pid {pid}) stopped.")
            return 0
        time.sleep(0.05)
    raise UserError(f"the daemon (pid {pid}) did not stop within {WAIT:g} s; `kill {pid}` stops it.")


def _status() -> int:
    status = _running()
    if status is None:
        print(f"simple-brief: no daemon is running (its socket would be {protocol.socket_path()}).")
        return EXIT_NOT_RUNNING
    roots = status.get("workspaces") or []
    lines = [
        "simple-brief daemon: running",
        f"  pid         {status['pid']}",
        f"  uptime      {_duration(status['uptime'])}",
        f"  requests    {status['requests']}{' (one running now)' if status.get('busy') else ''}",
        f"  memory      {status['rss'] / 1e6:.1f} MB (RSS)",
        f"  idle stop   after {_duration(status['idle_seconds'])} without a request "
        f"(last one {_duration(status['since_last_request'])} ago)",
        f"  version     {status['version']} ({status['home']})",
        f"  socket      {status['socket']}",
        f"  workspaces  {len(roots)}",
        *(f"    {root}" for root in roots),
    ]
    print("\n".join(lines))
    return 0


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds // 60 % 60} min"


@dataclass
class Warming:
    """The root the command that started the daemon searched: once that command's process
    (`after_pid`) left (it was building or walking the same index), the daemon watches the
    tree, walks it and loads its name table, so the next search does neither."""

    root: str
    after_pid: int | None = None

    def __call__(self, host: Host, waiting: Callable[[], bool]) -> None:
        """Run on the daemon's worker thread before its first request (`waiting()`: one came)."""
        from simple_brief.index import symbol_index

        try:
            ws = host.state(self.root).workspace
            deadline = time.monotonic() + AFTER_PID_WAIT
            while self.after_pid and _alive(self.after_pid) and not waiting() and time.monotonic() < deadline:
                time.sleep(0.1)  # (its walk, or its build, and ours would share the machine's cores)
            index = symbol_index(ws)
            if not index.watch():
                return  # no watcher: each search walks anyway
            index.ensure_fresh()  # (after the watcher started: what changes from now on comes as events)
            index.names()  # the in-memory name table searches read (~1.5 s at 100,000 files)
        except Exception as exc:  # a root gone or unreadable: the first search says so itself
            server.log.info("did not warm %s: %s", self.root, exc)


def _alive(pid: int) -> bool:
    """Whether our own process `pid` still runs (signal 0 checks without sending)."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def serve(idle_minutes: float | None, warming: Warming | None = None) -> int:
    """Be the daemon in this process until stopped or idle (`warming`: a root to make ready)."""
    if idle_minutes is None:
        idle_minutes = config.user_settings().daemon_idle_minutes
    protocol.identity()  # the engine's fingerprint read now, before the imports of the first calls
    watch.long_lived()  # indexes watch their trees from before their first walk: one walk each
    host = build_host(long_lived=True, calls_share_agent_state=False)  # (as standalone: none kept)
    memory = MemorySettle(host, server.rss_bytes)
    try:
        code = server.serve(
            lambda request, stderr, cancelled: answer(host, request, stderr, cancelled),
            host.roots,
            idle_minutes * 60,
            prepare=_warm_up,
            after=memory.settle,
            close=host.close,  # language servers and watchers stop with the daemon, before its lock goes
            first=None if warming is None else lambda waiting: warming(host, waiting),
        )
    finally:
        host.close()  # (nothing left when `serve` stopped it; it did not when it raised)
    if code:
        print(f"simple-brief: a daemon already runs (the lock {protocol.lock_path()} is held).", file=sys.stderr)
    return code


def answer(host: Host, request: dict[str, Any], stderr: server.Stream, cancelled: threading.Event) -> dict[str, Any]:
    """One request: its tool call run as the standalone command runs it, on the daemon's
    host, seeing the client's environment variables; it stops at its next check once
    `cancelled` is set."""
    try:
        call = ToolCall.from_message(request.get("call"))
    except ValueError as exc:
        return error_answer(f"the daemon cannot read this request ({exc}); run the command with --no-daemon.")
    if call.command not in DAEMON_COMMANDS:
        return error_answer(f"the daemon does not run `{call.command}`; run it with --no-daemon.")
    with server.request_logging(stderr, call.verbose, LOG_FORMAT), environment.calling_with(call.env):
        return command.answer(call, cancelled, stderr, host)


def _warm_up() -> None:
    """Import every tool module now, not during the first call."""
    from simple_brief import tools as registry

    registry.load()
