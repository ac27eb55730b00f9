"""The keeper of a task's or a debug adapter's processes: run as its own small program
(`python -I -S process_keeper.py REPORT_FD MEMORY_BYTES LEAF PATH ARGV...`); the engine
imports only its helpers (`descendants`, the `leaf_*` functions).

It becomes a child subreaper (`PR_SET_CHILD_SUBREAPER`), so every process the program
starts stays its descendant even when it leaves with `setsid`, `setpgid` or a double
fork (an orphan is re-parented to the keeper, not to init). It starts the program with
`RLIMIT_AS` at MEMORY_BYTES (0: none) and waits for it; when the program ends, every
descendant still running is stopped (SIGTERM, then SIGKILL after a grace period) and
reaped, and its pid and name go into the report.

LEAF (`-`: none) is a cgroup v2 leaf the engine made for this program (`task_cgroup`):
the keeper's child joins it before `exec`, so every process the program starts is in it
whatever its parent; the processes stopped are the descendants and the leaf's members,
the last signal is the leaf's `cgroup.kill`, and the leaf, empty, is removed at the end
(its `memory.events` `oom_kill` count goes into the report first).

Stop: SIGTERM, SIGINT or SIGHUP to the keeper, `stop` written on REPORT_FD, or that
socket's other end closing (the engine ended, however it ended) stops the whole tree:
SIGINT (test runners then write the results they have), SIGTERM, then SIGKILL.

Report: one JSON line on REPORT_FD (-1: none) before it exits: `{"left": [[pid, name],
…], "error": "…", "oom_kill": N}` (`error`: the program could not be started; `oom_kill`:
processes the leaf's memory.max killed). Its exit status is the
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


def leaf_members(leaf: str | None) -> dict[int, str]:
    """The processes in cgroup `leaf` (none: no leaf, or it is gone), each with its name."""
    if not leaf:
        return {}
    try:
        with open(os.path.join(leaf, "cgroup.procs"), "rb") as handle:
            pids = [int(word) for word in handle.read().split()]
    except (OSError, ValueError):
        return {}
    found: dict[int, str] = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/comm", "rb") as handle:
                found[pid] = handle.read().decode("utf-8", "replace").strip()
        except OSError:
            continue
    return found


def leaf_kill(leaf: str) -> bool:
    """Kill every process in cgroup `leaf` at once (`cgroup.kill`, Linux 5.14); whether it
    could (else the caller sends SIGKILL to each member)."""
    try:
        with open(os.path.join(leaf, "cgroup.kill"), "w", encoding="ascii") as handle:
            handle.write("1")
    except OSError:
        return False
    return True


def leaf_oom_kills(leaf: str) -> int:
    """How many of the leaf's processes its memory.max killed (0: none, or no memory controller)."""
    try:
        with open(os.path.join(leaf, "memory.events"), encoding="ascii") as handle:
            for line in handle:
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
    except (OSError, ValueError):
        pass
    return 0


def leaf_remove(leaf: str, wait: float = GRACE) -> bool:
    """Remove the (emptied) cgroup `leaf`, retrying while its last processes finish exiting;
    whether it is gone."""
    deadline = time.monotonic() + wait
    while True:
        try:
            os.rmdir(leaf)
            return True
        except FileNotFoundError:
            return True
        except OSError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)


def running(pid: int) -> bool:
    """Whether process `pid` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except (OSError, IndexError):
        return False


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
    def __init__(self, report: socket.socket | None, leaf: str | None = None) -> None:
        self.report = report
        self.leaf = leaf
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
                if self.leaf:
                    self._join_leaf()
                os.execv(path, argv)
            except OSError as exc:
                os.write(errors_w, (exc.strerror or str(exc)).encode())
            finally:
                os._exit(127)
        os.close(errors_w)
        with os.fdopen(errors_r, "rb") as errors:  # closed on exec: empty when it started
            error = errors.read().decode("utf-8", "replace")
        return error or None

    def _join_leaf(self) -> None:
        """(In the child, before `exec`.) Move into the leaf; outside it, only the subreaper
        keeps the tree."""
        assert self.leaf is not None
        with contextlib.suppress(OSError), open(os.path.join(self.leaf, "cgroup.procs"), "w") as procs:
            procs.write("0")

    def members(self) -> dict[int, str]:
        """Every live process of the program's: the keeper's descendants and the leaf's members."""
        return {**leaf_members(self.leaf), **descendants(os.getpid())}

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
        """Stop every process of the program's: each signal of `first` a grace period apart,
        then the leaf's `cgroup.kill` (or SIGKILL to each) until none is left; what was
        running when it began."""
        seen = self.members()
        for sig in first:
            if not self._signal_all(sig):
                return seen
            deadline = time.monotonic() + GRACE
            while time.monotonic() < deadline:
                self.reap()
                if not self.members():
                    return seen
                time.sleep(0.02)
        if self.leaf is not None and self.members():
            leaf_kill(self.leaf)  # (all at once: none can fork meanwhile)
            self.reap()
        while self._signal_all(signal.SIGKILL):  # (what was outside the leaf, or no cgroup.kill)
            self.reap()
            time.sleep(0.01)
        self.reap()
        return seen

    def _signal_all(self, sig: int) -> bool:
        """Send `sig` to every live process of the program's; whether there was one."""
        found = self.members()
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, sig)
        return bool(found)

    def finish(self, error: str | None) -> None:
        """Remove the leaf, report, then exit as the program did."""
        oom_kills = 0
        if self.leaf:
            oom_kills = leaf_oom_kills(self.leaf)
            leaf_remove(self.leaf)
        if self.report is not None:
            said = {"left": sorted(self.left.items()), "error": error, "oom_kill": oom_kills}
            line = json.dumps(said) + "\n"
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
    report_fd, memory, leaf, path, argv = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    report = None
    if report_fd >= 0:
        os.set_inheritable(report_fd, False)
        report = socket.socket(fileno=report_fd)
    keeper = Keeper(report, None if leaf == "-" else leaf)
    error = keeper.start(memory, path, argv)
    keeper.wait()
    if error is None:
        keeper.left = keeper.stop((signal.SIGTERM,))
    else:
        keeper.stop((signal.SIGTERM,))
    keeper.finish(error)


if __name__ == "__main__":
    main()
