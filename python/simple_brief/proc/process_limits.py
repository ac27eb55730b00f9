"""Programs run inside limits, and found again: what the task sandbox (`tasks.sandbox`)
and the debug adapter (`debug.client`, `debug.nvim_dap`) share.

- `kept(path, argv, memory_mb, report_fd, leaf)`: the command that runs `path` (as `argv`) under
  a keeper (`process_keeper`, a small program of its own): a child subreaper, so every
  process the program starts stays in its tree whatever session or process group it
  moves to; the program gets an address-space limit (`RLIMIT_AS`, set in the keeper's
  child before `exec`: `preexec_fn` is unsafe in a threaded server); what is still
  running when the program ends is stopped, and named in the keeper's report. Where the
  machine allows it the program also runs in a cgroup v2 leaf of its own (`task_cgroup`).
- `Keeping`: one kept command's report channel and leaf (`Keeping.kept`), and stopping it
  from here; when the keeper itself was killed, what it left in the leaf is killed here.
- `tree_members(root)` / `tree_rss_bytes(root)`: the live descendants of a process and
  their resident memory (Linux /proc), to watch memory and to leave no process behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass, field

from simple_brief.proc import process_keeper, task_cgroup
from simple_brief.proc.process_keeper import descendants

#: Writes its own pid to a file (whole: written aside, then renamed), then `exec`s the
#: command (its pid stays the command's).
ANNOUNCER = (
    "import os,sys\n"
    "open(sys.argv[1]+'.w','w').write(str(os.getpid()))\n"
    "os.replace(sys.argv[1]+'.w',sys.argv[1])\n"
    "os.execv(sys.argv[2],sys.argv[2:])\n"
)
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
#: Seconds the keeper may take to stop its tree once asked (three signals, a grace apart).
STOP_WAIT = 4 * process_keeper.GRACE


def kept(path: str, argv: list[str], memory_mb: int, report_fd: int = -1, leaf: str | None = None) -> list[str]:
    """The command running the program file `path` as `argv` under the keeper, with at most
    `memory_mb` megabytes of address space (0: unlimited), in the cgroup `leaf` (None:
    none); its report goes to `report_fd` (-1: none)."""
    keeper = os.path.abspath(process_keeper.__file__)
    memory = str(memory_mb * 1024 * 1024)
    return [sys.executable, "-I", "-S", keeper, str(report_fd), memory, leaf or "-", path, *argv]


def pid_announced(pidfile: str, command: list[str]) -> list[str]:
    """`command` (its program a full path) run so that it first writes its pid to `pidfile`:
    for a program another process starts (nvim-dap spawns the adapter) whose pid we need."""
    return [sys.executable, "-I", "-S", "-c", ANNOUNCER, pidfile, *command]


@dataclass
class Report:
    """What the keeper said when it ended: the processes it had to stop once the program
    ended (pid, name), why the program could not start (None: it started), and how many
    processes the leaf's memory.max killed."""

    left: list[tuple[int, str]] = field(default_factory=list)
    error: str | None = None
    oom_kills: int = 0


class Keeping:
    """The engine's end of a keeper's report channel: `fd` goes to the keeper (`pass_fds`),
    `stop(proc)` stops its whole tree, `report()` reads what it said."""

    def __init__(self) -> None:
        self._ours, self._theirs = socket.socketpair()
        self.fd = self._theirs.fileno()
        #: The program's cgroup v2 leaf (None: none could be made).
        self.leaf: str | None = None

    def kept(self, path: str, argv: list[str], memory_mb: int) -> list[str]:
        """`kept(...)` reporting here, in a new cgroup v2 leaf where one can be made."""
        self.leaf = task_cgroup.new_leaf(memory_mb)
        return kept(path, argv, memory_mb, self.fd, self.leaf)

    def started(self) -> None:
        """The keeper has its end: close ours of it (its end closing then means it ended)."""
        self._theirs.close()

    def stop(self, proc: subprocess.Popen[bytes]) -> None:
        """Have the keeper stop every process of its tree, and wait for it (the tree is
        killed from here if the keeper does not answer)."""
        if proc.poll() is None:
            with contextlib.suppress(OSError):
                self._ours.send(b"stop")
        try:
            proc.wait(timeout=STOP_WAIT)
        except subprocess.TimeoutExpired:
            for pid in [*tree_members(proc.pid), proc.pid]:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            if self.leaf is not None:
                process_keeper.leaf_kill(self.leaf)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=STOP_WAIT)

    def report(self) -> Report:
        """What the ended keeper wrote (empty when it wrote nothing), with what it left in
        its leaf (it was killed), killed here."""
        self._ours.settimeout(1.0)
        data = b""
        with contextlib.suppress(OSError):
            while chunk := self._ours.recv(65536):
                data += chunk
        self._ours.close()
        try:
            said = json.loads(data.decode("utf-8", "replace").splitlines()[0])
            left = [(int(pid), str(name)) for pid, name in said.get("left", [])]
            report = Report(left, said.get("error"), int(said.get("oom_kill", 0)))
        except (ValueError, IndexError, TypeError, AttributeError):
            report = Report()
        if self.leaf is not None:
            ended = task_cgroup.end_leaf(self.leaf)
            report.left += sorted(ended.killed.items())
            report.oom_kills = max(report.oom_kills, ended.oom_kills)
        return report

    def close(self) -> None:
        self._ours.close()
        self._theirs.close()
        if self.leaf is not None:
            task_cgroup.end_leaf(self.leaf)


def stopped_text(left: list[tuple[int, str]], shown: int = 5) -> str:
    """`2 processes … were stopped: sleep (pid 123), python3 (pid 124)` (the first `shown`)."""
    names = ", ".join(f"{name} (pid {pid})" for pid, name in left[:shown])
    more = f" and {len(left) - shown} more" if len(left) > shown else ""
    return f"{names}{more}"


def tree_members(root: int) -> list[int]:
    """The live (not zombie) descendants of process `root`."""
    return list(descendants(root))


def tree_rss_bytes(root: int) -> int:
    """The resident memory of process `root`'s descendants, summed (`root` itself, the
    keeper, left out)."""
    total = 0
    for pid in descendants(root):
        with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/statm", "rb") as handle:
            total += int(handle.read().split()[1]) * PAGE
    return total
