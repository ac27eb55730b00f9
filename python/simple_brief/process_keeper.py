"""The keeper of a task's or a debug adapter's processes: run as its own small program
(`python -I -S process_keeper.py REPORT_FD MEMORY_BYTES PATH ARGV...`), never imported.

It becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`), so every process the program
starts stays its descendant even when it leaves with `setsid`, `setpgid` or a double
fork (an orphan is re-parented to the keeper, not to init). It starts the program with
`RLIMIT_AS` at MEMORY_BYTES (0: none) and waits for it; when the program ends, every
descendant still running is stopped (SIGTERM, then SIGKILL after a grace period) and
reaped, and its pid and name go into the report.

Stop: SIGTERM, SIGINT or SIGHUP to the keeper, `stop` written on REPORT_FD, or that
socket's other end closing (the engine ended, however it ended) stops the whole tree:
SIGINT (test runners then write the results they have), SIGTERM, then SIGKILL.

Report: one JSON line on REPORT_FD (-1: none) before it exits: `{"left": [[pid, name],
…], "error": "…"}` (`error`: the program could not be started). Its exit status is the
program's: the same code, or the same signal.

Only the standard library: it runs with `-I -S`, before and apart from the engine.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import select
import signal
import socket
import sys
import time

PR_SET_CHILD_SUBREAPER = 36
#: Seconds a stopped process gets between one signal and the next.
GRACE = 2.0
STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def descendants(root: int) -> dict[int, str]:
    """The live (not zombie) descendants of `root`, each with its name (one /proc scan)."""
    children: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                raw = handle.read()
        except OSError:
            continue
        head, _, tail = raw.rpartition(b")")
        fields = tail.split()
        if len(fields) < 2 or fields[0] == b"Z":
            continue
        pid = int(entry.name)
        children.setdefault(int(fields[1]), []).append(pid)
        names[pid] = head.partition(b"(")[2].decode("utf-8", "replace")
    found: dict[int, str] = {}
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid not in found:
            found[pid] = names[pid]
            todo.extend(children.get(pid, ()))
    return found


class Keeper:
    def __init__(self, report: socket.socket | None) -> None:
        self.report = report
        self.child = 0
        self.status: int | None = None
        self.stop_asked = False
        self.left: dict[int, str] = {}
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_w, False)
        self.wake = wake_r
        signal.set_wakeup_fd(wake_w, warn_on_full_buffer=False)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        for sig in STOPPING:
            signal.signal(sig, self._asked_to_stop)

    def _asked_to_stop(self, *_: object) -> None:
        self.stop_asked = True

    def start(self, memory: int, path: str, argv: list[str]) -> str | None:
        """Fork and exec the program; why it could not start, or None."""
        errors_r, errors_w = os.pipe()
        self.child = os.fork()
        if self.child == 0:
            try:
                os.close(errors_r)
                for sig in (*STOPPING, signal.SIGCHLD, signal.SIGPIPE, signal.SIGXFSZ):
                    signal.signal(sig, signal.SIG_DFL)
                signal.set_wakeup_fd(-1)
                if memory:
                    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
                os.execv(path, argv)
            except OSError as exc:
                os.write(errors_w, (exc.strerror or str(exc)).encode())
            finally:
                os._exit(127)
        os.close(errors_w)
        with os.fdopen(errors_r, "rb") as errors:  # closed on exec: empty when it started
            error = errors.read().decode("utf-8", "replace")
        return error or None

    def reap(self) -> None:
        """Reap every child that ended (ours, and the orphans re-parented to us)."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.child:
                self.status = status

    def wait(self) -> None:
        """Until the program ended: reap, and stop the tree when asked to."""
        watched = [self.wake] + ([self.report] if self.report is not None else [])
        while self.status is None:
            self.reap()
            if self.stop_asked:
                self.stop((signal.SIGINT, signal.SIGTERM))
                continue
            if self.status is not None:
                break
            ready, _, _ = select.select(watched, [], [], 1.0)
            if self.wake in ready:
                with contextlib.suppress(OSError):
                    os.read(self.wake, 512)
            if self.report is not None and self.report in ready:
                try:
                    said = self.report.recv(64)
                except OSError:
                    said = b""
                if not said or b"stop" in said:
                    self.stop_asked = True
                    if not said:
                        watched = [self.wake]  # (gone: it stays readable)

    def stop(self, first: tuple[int, ...]) -> dict[int, str]:
        """Stop every descendant: each signal of `first` a grace period apart, then
        SIGKILL until none is left; what was running when it began."""
        seen = descendants(os.getpid())
        for sig in first:
            if not self._signal_all(sig):
                return seen
            deadline = time.monotonic() + GRACE
            while time.monotonic() < deadline:
                self.reap()
                if not descendants(os.getpid()):
                    return seen
                time.sleep(0.02)
        while self._signal_all(signal.SIGKILL):
            self.reap()
            time.sleep(0.01)
        self.reap()
        return seen

    def _signal_all(self, sig: int) -> bool:
        """Send `sig` to every live descendant; whether there was one."""
        found = descendants(os.getpid())
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        return bool(found)

    def finish(self, error: str | None) -> None:
        """Report, then exit as the program did."""
        if self.report is not None:
            line = json.dumps({"left": sorted(self.left.items()), "error": error}) + "\n"
            with contextlib.suppress(OSError):
                self.report.sendall(line.encode())
        status = self.status if self.status is not None else 127 << 8
        if os.WIFSIGNALED(status):
            sig = os.WTERMSIG(status)
            with contextlib.suppress(OSError, ValueError):  # (SIGKILL's cannot be set: it is the default)
                signal.signal(sig, signal.SIG_DFL)
            with contextlib.suppress(OSError, ValueError):
                signal.pthread_sigmask(signal.SIG_UNBLOCK, [sig])
            os.kill(os.getpid(), sig)
            time.sleep(0.1)
            os._exit(128 + sig)
        os._exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 1)


def main() -> None:
    report_fd, memory, path, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    report = None
    if report_fd >= 0:
        os.set_inheritable(report_fd, False)
        report = socket.socket(fileno=report_fd)
    keeper = Keeper(report)
    error = keeper.start(memory, path, argv)
    keeper.wait()
    if error is None:
        keeper.left = keeper.stop((signal.SIGTERM,))
    else:
        keeper.stop((signal.SIGTERM,))
    keeper.finish(error)


if __name__ == "__main__":
    main()
