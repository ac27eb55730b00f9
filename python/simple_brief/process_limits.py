"""Programs run inside limits, and found again: what the task sandbox (`tasks.sandbox`)
and the debug adapter (`debug.client`) share.

- `memory_limited(path, argv, memory_mb)`: the command that runs `path` (as `argv`) with
  an address-space limit — a tiny launcher sets `RLIMIT_AS`, then `exec`s the program
  (`preexec_fn` is unsafe in a threaded server).
- `processes(group=…)` / `processes(session=…)`: the live processes of a process group or
  session with their resident memory (Linux /proc), to watch memory and to leave no
  process behind.
"""

from __future__ import annotations

import os
import sys

#: Sets the address-space limit, then becomes the program (argv: limit, path, argv...).
LAUNCHER = (
    "import os,resource,sys\n"
    "n=int(sys.argv[1])\n"
    "resource.setrlimit(resource.RLIMIT_AS,(n,n))\n"
    "os.execv(sys.argv[2],sys.argv[3:])\n"
)
#: Writes its own pid to a file (whole: written aside, then renamed), then `exec`s the
#: command (its pid stays the command's).
ANNOUNCER = (
    "import os,sys\n"
    "open(sys.argv[1]+'.w','w').write(str(os.getpid()))\n"
    "os.replace(sys.argv[1]+'.w',sys.argv[1])\n"
    "os.execv(sys.argv[2],sys.argv[2:])\n"
)
PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def memory_limited(path: str, argv: list[str], memory_mb: int) -> list[str]:
    """The command running the program file `path` as `argv` with at most `memory_mb`
    megabytes of address space (0: `argv` itself, unlimited)."""
    if not memory_mb:
        return [path, *argv[1:]]
    return [sys.executable, "-I", "-S", "-c", LAUNCHER, str(memory_mb * 1024 * 1024), path, *argv]


def pid_announced(pidfile: str, command: list[str]) -> list[str]:
    """`command` (its program a full path) run so that it first writes its pid to `pidfile`:
    for a program another process starts (nvim-dap spawns the adapter) whose pid we need."""
    return [sys.executable, "-I", "-S", "-c", ANNOUNCER, pidfile, *command]


def processes(*, group: int | None = None, session: int | None = None) -> dict[int, int]:
    """The live (not zombie) processes of a process group or a session, each with its
    resident bytes."""
    found: dict[int, int] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                state, _ppid, pgrp, sid, *_ = handle.read().rsplit(b")", 1)[1].split()
            if state == b"Z" or (group is not None and int(pgrp) != group):
                continue
            if session is not None and int(sid) != session:
                continue
            with open(f"/proc/{entry.name}/statm", "rb") as handle:
                found[int(entry.name)] = int(handle.read().split()[1]) * PAGE
        except (OSError, ValueError, IndexError):
            continue
    return found
