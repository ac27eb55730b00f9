"""The cgroup v2 leaf a task's or a debug adapter's processes run in, where the machine
allows it: `containment()` says whether it does (and why not), `new_leaf(memory_mb)`
makes one, `end_leaf(leaf)` kills what is left in it and removes it.

The leaf holds every process the program starts (the keeper's child joins it before
`exec`, `process_keeper`), whatever its parent: even a process whose keeper was killed
is found there and killed (`cgroup.kill`). Where the memory and pids controllers are
enabled, the leaf also gets `memory.max` (the task's memory limit: the kernel's OOM
killer, reported as the memory limit) and `pids.max` (PIDS_MAX).

Usable where this process's own cgroup v2 (`0::PATH` in /proc/self/cgroup) is writable
by it under a cgroup2 mount (/proc/self/mountinfo): a delegated subtree (a systemd
service or scope with `Delegate=yes`), or root's. Leaves go under a `simple-brief`
sub-cgroup made there: nothing of the person's is moved, and that sub-cgroup holds no
process of its own, so it may enable controllers for its leaves (the "no internal
process" rule); it gets only the controllers its parent already passes down. Elsewhere,
the keeper (a child subreaper) is the only containment and memory is watched as
resident size and `RLIMIT_AS` (`tasks.sandbox`).

`SIMPLE_BRIEF_CGROUP2_ROOT` (tests only) names the cgroup2 mount to use instead of the
first one in /proc/self/mountinfo; it must be a cgroup2 mount point.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
import time
from dataclasses import dataclass

from simple_brief.proc.process_keeper import GRACE, leaf_kill, leaf_members, leaf_oom_kills, leaf_remove, running

ROOT_ENV = "SIMPLE_BRIEF_CGROUP2_ROOT"
#: The sub-cgroup of this process's cgroup its leaves go under.
PARENT = "simple-brief"
#: The controllers a leaf uses when its parent passes them down.
CONTROLLERS = ("memory", "pids")
#: Most processes (and threads) one task may have at once (pids.max): a fork bomb stops there.
PIDS_MAX = 4096

log = logging.getLogger(__name__)
_numbers = itertools.count(1)
_swept: list[str] = []


@dataclass(frozen=True)
class Containment:
    """Where leaves go (`parent`, None: nowhere, `why` says why) and which controllers
    they get."""

    parent: str | None
    controllers: tuple[str, ...] = ()
    why: str = ""

    def line(self) -> str:
        """`tasks: child subreaper + cgroup v2 leaf (memory, pids)`, or why there is no leaf."""
        if self.parent is None:
            return f"tasks: child subreaper; no cgroup v2 leaf: {self.why}"
        if self.controllers:
            return f"tasks: child subreaper + cgroup v2 leaf ({', '.join(self.controllers)}) under {self.parent}"
        return (
            f"tasks: child subreaper + cgroup v2 leaf under {self.parent} (no memory or pids controller passed down: "
            "memory is watched as resident size and RLIMIT_AS)"
        )


def _unescaped(field: str) -> str:
    r"""A /proc/self/mountinfo field with its octal escapes (`\040`: a space) decoded."""
    if "\\" not in field:
        return field
    return field.encode("latin-1").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")


def _cgroup2_mounts() -> list[tuple[str, str]]:
    """Every cgroup2 mount: (mount point, the hierarchy's path it shows)."""
    found = []
    with contextlib.suppress(OSError), open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            fields = line.split()
            if "-" in fields[6:] and fields[fields.index("-", 6) + 1] == "cgroup2":
                found.append((_unescaped(fields[4]), _unescaped(fields[3])))
    return found


def _own_cgroup() -> str | None:
    """This process's cgroup v2 path (`0::PATH` in /proc/self/cgroup), or None."""
    with contextlib.suppress(OSError), open("/proc/self/cgroup", encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if line.startswith("0::"):
                return line[3:].rstrip("\n")
    return None


def _mount() -> tuple[str, str] | str:
    """The cgroup2 mount to use (mount point, path shown), or why there is none."""
    mounts = _cgroup2_mounts()
    chosen = os.environ.get(ROOT_ENV)
    if chosen:
        real = os.path.realpath(chosen)
        for point, shown in mounts:
            if point == real:
                return point, shown
        return f"{ROOT_ENV}={chosen} is not a cgroup2 mount point"
    if not mounts:
        return "no cgroup2 file system is mounted (cgroup v1 only)"
    return mounts[0]


def _own_directory() -> str:
    """The directory of this process's cgroup v2.

    Raises:
        LookupError: why it has none, or it is not visible.
    """
    mount = _mount()
    if isinstance(mount, str):
        raise LookupError(mount)
    point, shown = mount
    own = _own_cgroup()
    if own is None:
        raise LookupError("this process is in no cgroup v2 (/proc/self/cgroup has no `0::` line)")
    base = shown.rstrip("/")
    if own != base and not own.startswith(base + "/"):
        raise LookupError(f"this process's cgroup {own} is outside the cgroup2 mount {point}")
    directory = os.path.normpath(os.path.join(point, own[len(base) :].lstrip("/")))
    if not os.path.isfile(os.path.join(directory, "cgroup.procs")):
        raise LookupError(f"this process's cgroup {directory} is not there")
    if not os.access(directory, os.W_OK):
        raise LookupError(
            f"this process's cgroup {directory} is not writable by it (not delegated: run it in a systemd service "
            "or scope with Delegate=yes)"
        )
    return directory


def _words(path: str) -> list[str]:
    try:
        with open(path, encoding="ascii") as handle:
            return handle.read().split()
    except OSError:
        return []


def containment() -> Containment:
    """Whether task leaves can be made, where, with which controllers (nothing is made)."""
    try:
        directory = _own_directory()
    except LookupError as why:
        return Containment(None, why=str(why))
    parent = os.path.join(directory, PARENT)
    if os.path.isdir(parent):
        if not os.access(parent, os.W_OK):
            return Containment(None, why=f"{parent} is not writable by this process")
        passed = _words(os.path.join(parent, "cgroup.controllers"))
    else:
        passed = _words(os.path.join(directory, "cgroup.subtree_control"))
    return Containment(parent, tuple(c for c in CONTROLLERS if c in passed))


def _write(path: str, text: str) -> bool:
    try:
        with open(path, "w", encoding="ascii") as handle:
            handle.write(text)
    except OSError:
        return False
    return True


def _parent() -> str | None:
    """The `simple-brief` sub-cgroup (made, its controllers enabled for its leaves), or None."""
    found = containment()
    if found.parent is None:
        return None
    try:
        os.mkdir(found.parent)
    except FileExistsError:
        pass
    except OSError as exc:
        log.debug("no cgroup v2 leaf: %s could not be made (%s)", found.parent, exc.strerror or exc)
        return None
    if not _swept:
        _swept.append(found.parent)
        _sweep(found.parent)
    wanted = [c for c in found.controllers if c not in _words(os.path.join(found.parent, "cgroup.subtree_control"))]
    if wanted:
        _write(os.path.join(found.parent, "cgroup.subtree_control"), " ".join(f"+{c}" for c in wanted))
    return found.parent


def _sweep(parent: str) -> None:
    """Remove the empty leaves of engines that are gone (killed with their keepers)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(parent):
            engine = entry.name.split("-")[1] if entry.name.startswith("task-") else ""
            if engine.isdigit() and not os.path.exists(f"/proc/{engine}"):
                with contextlib.suppress(OSError):
                    os.rmdir(entry.path)


def new_leaf(memory_mb: int) -> str | None:
    """A new, empty leaf for one program, with `memory.max` (`memory_mb`, 0: none) and
    `pids.max` where those controllers are on; None where no leaf can be made."""
    parent = _parent()
    if parent is None:
        return None
    leaf = os.path.join(parent, f"task-{os.getpid()}-{next(_numbers)}")
    try:
        os.mkdir(leaf)
    except OSError as exc:
        log.debug("no cgroup v2 leaf: %s could not be made (%s)", leaf, exc.strerror or exc)
        return None
    if memory_mb:
        _write(os.path.join(leaf, "memory.max"), str(memory_mb * 1024 * 1024))
        _write(os.path.join(leaf, "memory.swap.max"), "0")
    _write(os.path.join(leaf, "pids.max"), str(PIDS_MAX))
    return leaf


@dataclass
class Ended:
    """What was left in a leaf when its keeper was gone (pid, name: killed), and how many
    processes its memory.max killed."""

    killed: dict[int, str]
    oom_kills: int


def end_leaf(leaf: str) -> Ended:
    """Kill what is still in `leaf` (its keeper ended without emptying it: it was killed),
    then remove it; what was killed."""
    left = leaf_members(leaf)
    if left and not leaf_kill(leaf):
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
    oom_kills = leaf_oom_kills(leaf)
    if not leaf_remove(leaf):
        log.warning("the cgroup %s could not be removed: %s", leaf, ", ".join(map(str, leaf_members(leaf))))
    _wait_ended(list(left))
    return Ended(left, oom_kills)


def _wait_ended(pids: list[int]) -> None:
    """Until each of `pids` is gone or a zombie (a process leaves its cgroup a moment
    before it is one), at most GRACE seconds."""
    deadline = time.monotonic() + GRACE
    while pids and time.monotonic() < deadline:
        pids = [pid for pid in pids if running(pid)]
        if pids:
            time.sleep(0.01)
