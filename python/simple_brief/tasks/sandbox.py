"""One command of a task, run inside limits: `run(argv, cwd, env, limits, ...)`.

- No shell: the program is found on the run's PATH (or, with a `/`, relative to its
  folder) and started with its argument list; a program that is a shell is refused.
- Every process it starts is tracked, not only its process group: the command runs under
  a keeper (`process_limits.kept`), a child subreaper, so a child that leaves with
  `setsid`, `setpgid` or a double fork stays in the keeper's tree. When the command
  ends, whatever it left running is stopped and named (`Completed.left_behind`); a
  limit, a cancellation, or the engine ending (the keeper sees its channel close) stops
  the whole tree. Where the machine allows it (`task_cgroup`), the command also runs in a
  cgroup v2 leaf of its own: every process it starts is in it, whatever its parent, and
  is killed with it (`cgroup.kill`) — even one whose keeper was killed.
- Time: past `timeout_s` the tree gets SIGINT (a test runner then writes the results it
  has), SIGTERM, then SIGKILL, a grace period apart.
- Memory: every process of the run gets `RLIMIT_AS` (set in the keeper's child before it
  `exec`s the program, as `preexec_fn` is unsafe in a threaded server), and the resident
  memory of the whole tree is watched; past the limit the tree is killed. An allocation
  the limit refused inside a process (Python's MemoryError, `std::bad_alloc`, Rust's
  "memory allocation … failed") is reported as the memory limit too. Where the leaf has
  the memory controller, its `memory.max` is the limit too (a process the kernel's OOM
  killer stopped there: the memory limit).
- Output: past `output_bytes` (stdout and stderr together) the tree is killed.
- The answer keeps what was printed up to then (`limit_exceeded` says which limit).
"""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief.errors import UserError
from simple_brief.files.task_specs import SHELLS
from simple_brief.proc import programs
from simple_brief.proc.process_limits import Keeping, tree_rss_bytes

#: How often the loop looks at the clock, the cancel flag and the tree's memory, seconds.
TICK = 0.1
MEMORY_EVERY = 0.25
#: Seconds the pipes may stay open, and silent, once the keeper ended (it ends when the
#: command's processes are gone, unless it was killed: then they are killed with the leaf).
ORPHANS_WAIT = 1.0
#: What a process prints when an allocation failed (the address-space limit said no).
ALLOCATION_FAILED = re.compile(
    r"\bMemoryError\b|std::bad_alloc|memory allocation of \d+ bytes failed|Cannot allocate memory|out of memory",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Limits:
    """A run's limits: seconds, megabytes of memory (0: none), bytes of output."""

    timeout_s: float
    memory_mb: int
    output_bytes: int


@dataclass
class Completed:
    """What one command did.

    Attributes:
        argv: the command as run (placeholders filled in).
        exit_code: its exit status; negative: killed by that signal; None: never started.
        stdout, stderr: what it printed (decoded, invalid bytes replaced), up to the limit.
        output: both, in the order they arrived.
        output_bytes: how much it printed in all (also past the limit).
        duration_ms: wall time.
        limit_exceeded: "time", "memory" or "output" when a limit stopped it.
        cancelled: the caller cancelled it (its processes were killed).
        peak_rss_mb: the most resident memory its processes held at one time, as sampled.
        left_behind: the processes (pid, name) it left running when it ended, which were
            then stopped.
    """

    argv: list[str]
    exit_code: int | None = None
    stdout: str = ""
    stderr: str = ""
    output: str = ""
    output_bytes: int = 0
    duration_ms: float = 0.0
    limit_exceeded: str | None = None
    cancelled: bool = False
    peak_rss_mb: float = 0.0
    left_behind: list[tuple[int, str]] = field(default_factory=list)
    _chunks: list[tuple[int, bytes]] = field(default_factory=list, repr=False)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.limit_exceeded is None and not self.cancelled


def program(argv0: str, cwd: Path, env: Mapping[str, str], task: str, root: Path | None = None) -> str:
    """The program file a command's first word names: on the run's PATH, skipping relative
    and empty entries and those inside the workspace `root` (default `cwd`), or a path
    from `cwd` (`simple_brief.proc.programs`).

    Raises:
        UserError: not found, not executable, or a shell.
    """
    inside = root if root is not None else cwd
    path_env = env.get("PATH", os.defpath)
    found = programs.find(argv0, inside, cwd, path_env)
    if found is None:
        planted = None if "/" in argv0 else programs.skipped(argv0, inside, cwd, path_env)
        if planted:
            raise UserError(
                f"`{argv0}` ({task}) is not on PATH outside the workspace ({planted} is the workspace's own, found "
                "through a relative or in-workspace PATH entry, and is never run); install it, or give its path "
                "in the task's argv."
            )
        raise UserError(
            f"`{argv0}` ({task}) is not an executable program on PATH; install it, or give its path in the task's argv."
        )
    for name in (Path(argv0).name, found.name, Path(os.path.realpath(found)).name):
        if name in SHELLS:
            raise UserError(
                f"{task} runs a shell (`{argv0}`); simple-brief never runs commands through a shell: "
                "declare the program itself and its arguments."
            )
    return str(found)


def run(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    limits: Limits,
    task: str = "the task",
    cancelled: Callable[[], bool] = lambda: False,
    on_output: Callable[[str], None] | None = None,
) -> Completed:
    """Run one command inside `limits` (see the module doc); `on_output` gets the text as
    it arrives (for progress).

    Raises:
        UserError: the program cannot be found or is a shell, or `cwd` is not a folder.
    """
    if not cwd.is_dir():
        raise UserError(f"the folder {task} runs in, {cwd}, does not exist; fix its `cwd`.")
    path = program(argv[0], cwd, env, task)
    done = Completed(list(argv))
    keeping = Keeping()
    command = keeping.kept(path, list(argv), limits.memory_mb)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
            close_fds=True,
            pass_fds=(keeping.fd,),
        )
    except OSError as exc:
        keeping.close()
        raise UserError(f"{task} could not start `{argv[0]}` ({exc.strerror or exc}); check the task's argv.") from None
    keeping.started()
    try:
        _pump(proc, done, limits, cancelled, on_output, started)
    finally:
        keeping.stop(proc)
        done.exit_code = proc.returncode
    report = keeping.report()
    if report.error is not None:
        raise UserError(f"{task} could not start `{argv[0]}` ({report.error}); check the task's argv.")
    done.left_behind = report.left
    done.duration_ms = (time.monotonic() - started) * 1000
    raw_out = b"".join(data for stream, data in done._chunks if stream == 1)
    raw_err = b"".join(data for stream, data in done._chunks if stream == 2)
    done.stdout = raw_out.decode("utf-8", "replace")
    done.stderr = raw_err.decode("utf-8", "replace")
    done.output = b"".join(data for _, data in done._chunks).decode("utf-8", "replace")
    done._chunks = []
    refused = limits.memory_mb and done.exit_code != 0 and ALLOCATION_FAILED.search(done.output)
    if done.limit_exceeded is None and not done.cancelled and (refused or report.oom_kills):
        done.limit_exceeded = "memory"
    return done


def _pump(
    proc: subprocess.Popen[bytes],
    done: Completed,
    limits: Limits,
    cancelled: Callable[[], bool],
    on_output: Callable[[str], None] | None,
    started: float,
) -> None:
    """Read both pipes until the keeper ends (the command ended and what it left running
    was stopped) or a limit or cancellation stops it."""
    assert proc.stdout is not None and proc.stderr is not None
    selector = selectors.DefaultSelector()
    for stream, pipe in ((1, proc.stdout), (2, proc.stderr)):
        os.set_blocking(pipe.fileno(), False)
        selector.register(pipe, selectors.EVENT_READ, stream)
    kept = 0
    next_memory = keeper_ended = started
    open_pipes = 2
    try:
        while open_pipes or proc.poll() is None:
            ready = selector.select(TICK) if open_pipes else []
            for key, _ in ready:
                try:
                    data = os.read(key.fileobj.fileno(), 65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                if not data:
                    selector.unregister(key.fileobj)
                    open_pipes -= 1
                    continue
                done.output_bytes += len(data)
                room = limits.output_bytes - kept
                if room > 0:
                    part = data[:room]
                    done._chunks.append((key.data, part))
                    kept += len(part)
                    if on_output is not None:
                        on_output(part.decode("utf-8", "replace"))
            if not open_pipes:
                time.sleep(TICK / 4)  # the pipes closed (a daemonized child?): wait for the leader
            now = time.monotonic()
            if proc.poll() is None or ready:
                keeper_ended = now
            elif now - keeper_ended > ORPHANS_WAIT:
                break  # (the keeper was killed; what holds the pipes open is killed with its leaf)
            if done.output_bytes > limits.output_bytes:
                done.limit_exceeded = "output"
            elif now - started > limits.timeout_s:
                done.limit_exceeded = "time"
            elif cancelled():
                done.cancelled = True
            elif limits.memory_mb and now >= next_memory:
                next_memory = now + MEMORY_EVERY
                rss = tree_rss_bytes(proc.pid) / (1024 * 1024)
                done.peak_rss_mb = max(done.peak_rss_mb, rss)
                if rss > limits.memory_mb:
                    done.limit_exceeded = "memory"
            if done.limit_exceeded or done.cancelled:
                break
    finally:
        selector.close()
