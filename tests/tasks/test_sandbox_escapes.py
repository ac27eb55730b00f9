"""No process a task starts outlives it, however it leaves: a child in a session of its
own (setsid), in a process group of its own (setpgid), a double-forked daemon, a setsid
tree of 50 processes — each stopped when the command ends, on its time limit, on
cancellation and when the engine itself ends, and named in the answer. Memory is summed
over every process the task started, whatever its group. Real processes (tests/tasks/
escaping.py), checked in /proc after the call."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from projects import alive, call_tool, declare

from simple_brief.tasks import sandbox
from simple_brief.tasks.sandbox import Limits

PY = sys.executable
ESCAPING = Path(__file__).with_name("escaping.py")
LIMITS = Limits(timeout_s=60, memory_mb=0, output_bytes=1 << 20)


def escaped(pidfile: Path) -> list[int]:
    """The pids the escaping program recorded."""
    return [int(word) for word in pidfile.read_text(encoding="ascii").split()]


def survivors(pids: list[int]) -> list[int]:
    return [pid for pid in pids if alive(pid)]


@pytest.mark.parametrize("mode", ["setsid", "setpgid", "daemon", "tree"])
def test_what_a_command_leaves_running_is_stopped_and_named(tmp_path: Path, mode: str) -> None:
    pidfile = tmp_path / "escaped.pids"
    try:
        done = sandbox.run([PY, str(ESCAPING), mode, str(pidfile)], tmp_path, os.environ, LIMITS)
        pids = escaped(pidfile)
        assert survivors(pids) == [], f"{mode}: processes outlived the call"
        assert done.exit_code == 0 and done.stdout == f"{mode}: started\n"
        assert set(pids) <= {pid for pid, _ in done.left_behind}
    finally:
        _kill(pidfile)


@pytest.mark.parametrize("mode", ["setsid", "daemon"])
def test_the_time_limit_stops_escaped_processes_too(tmp_path: Path, mode: str) -> None:
    pidfile = tmp_path / "escaped.pids"
    limits = Limits(timeout_s=3.0, memory_mb=0, output_bytes=1 << 20)
    try:
        done = sandbox.run([PY, str(ESCAPING), mode, str(pidfile), "300"], tmp_path, os.environ, limits)
        assert done.limit_exceeded == "time"
        assert survivors(escaped(pidfile)) == []
    finally:
        _kill(pidfile)


def test_cancelling_stops_escaped_processes_too(tmp_path: Path) -> None:
    pidfile = tmp_path / "escaped.pids"
    recorded = threading.Event()

    def cancelled() -> bool:
        return recorded.is_set()

    def on_output(_text: str) -> None:
        recorded.set()  # ("started" is printed once every escaped pid was recorded)

    try:
        done = sandbox.run(
            [PY, str(ESCAPING), "setsid", str(pidfile), "300"],
            tmp_path,
            os.environ,
            LIMITS,
            cancelled=cancelled,
            on_output=on_output,
        )
        assert done.cancelled
        assert survivors(escaped(pidfile)) == []
    finally:
        _kill(pidfile)


def test_memory_held_by_children_in_their_own_groups_counts(tmp_path: Path) -> None:
    # 4 children in process groups of their own hold 60 MB each: 240 MB against a limit of
    # 150 (each stays under its own address-space limit).
    pidfile = tmp_path / "escaped.pids"
    limits = Limits(timeout_s=60, memory_mb=150, output_bytes=1 << 20)
    try:
        done = sandbox.run([PY, str(ESCAPING), "memory", str(pidfile), "20"], tmp_path, os.environ, limits)
        said = f"{done.limit_exceeded}, peak {done.peak_rss_mb:.0f} MB, exit {done.exit_code}: {done.output[-300:]}"
        assert done.limit_exceeded == "memory" and done.peak_rss_mb > 150, said
        assert survivors(escaped(pidfile)) == []
    finally:
        _kill(pidfile)


ENGINE = """
import os, sys
from pathlib import Path
from simple_brief.tasks import sandbox
from simple_brief.tasks.sandbox import Limits
sandbox.run(sys.argv[1:], Path.cwd(), os.environ, Limits(timeout_s=300, memory_mb=0, output_bytes=1 << 20))
"""


def test_the_engine_ending_stops_what_its_task_started(tmp_path: Path) -> None:
    # The engine (an MCP server, the daemon) killed while a task runs: nothing it started lives on.
    pidfile = tmp_path / "escaped.pids"
    engine = subprocess.Popen([PY, "-c", ENGINE, PY, str(ESCAPING), "setsid", str(pidfile), "300"], cwd=tmp_path)
    try:
        deadline = time.monotonic() + 60
        while not (pidfile.exists() and escaped(pidfile)) and time.monotonic() < deadline:
            time.sleep(0.05)
        pids = escaped(pidfile)
        engine.send_signal(signal.SIGKILL)
        engine.wait()
        deadline = time.monotonic() + 10  # (the keeper stops the tree once it sees the engine gone)
        while survivors(pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert survivors(pids) == []
    finally:
        engine.kill()
        _kill(pidfile)


def test_the_answer_says_which_processes_were_stopped(tmp_path: Path) -> None:
    root = tmp_path / "app"
    root.mkdir()
    pidfile = tmp_path / "escaped.pids"
    declare(root, f"[tasks.build]\nargv = [{PY!r}, {str(ESCAPING)!r}, 'setsid', {str(pidfile)!r}]\n")
    try:
        result = call_tool(root, "build_compile")
        (pid,) = escaped(pidfile)
        assert not alive(pid)
        first, second = [line for line in result.text.splitlines() if line][:2]
        assert "succeeded but left 1 process running (stopped)" in first
        assert second.startswith("1 process the task left behind was stopped: python") and f"(pid {pid})" in second
        assert result.data["processes_stopped"] == [{"pid": pid, "name": result.data["processes_stopped"][0]["name"]}]
    finally:
        _kill(pidfile)


def _kill(pidfile: Path) -> None:
    """Clean up after a failing test: the escaped processes must not outlive it either."""
    if pidfile.exists():
        for pid in survivors(escaped(pidfile)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(
    ("code", "status"), [("os.kill(os.getpid(), 9)", -9), ("os.kill(os.getpid(), 11)", -11), ("sys.exit(7)", 7)]
)
def test_the_exit_status_is_the_programs_not_the_keepers(tmp_path: Path, code: str, status: int) -> None:
    done = sandbox.run([PY, "-c", f"import os, sys; {code}"], tmp_path, os.environ, LIMITS)
    assert done.exit_code == status and done.left_behind == []
