"""No process a debugged program starts outlives its debug session, however it leaves: a
child in a session of its own (setsid), a double-forked daemon, a setsid tree of 50
processes — stopped by debug_terminate and when the server ends. The real debugpy adapter runs tests/tasks/escaping.py
(with `subProcess = false`: debugpy otherwise holds every forked child until a client
attaches to it); the pids are checked in /proc after the call."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from debuggee import alive, make_call, project, run

from simple_brief.tools import Call

from conftest import write_trusted_config

ESCAPING = Path(__file__).parents[1] / "tasks" / "escaping.py"


@pytest.fixture
def call(tmp_path: Path) -> Iterator[Call]:
    root = project(tmp_path / "app")
    shutil.copy(ESCAPING, root / "escaping.py")
    write_trusted_config(
        root,
        f'[debug.python]\nadapter = ["{sys.executable}", "-m", "debugpy.adapter"]\nlaunch = {{ subProcess = false }}\n',
    )
    made = make_call(root)
    yield made
    made.session.close()


def _escaped(pidfile: Path, count: int) -> list[int]:
    """The pids the program recorded, once it recorded `count` of them."""
    deadline = time.monotonic() + 60
    pids: list[int] = []
    while len(pids) < count and time.monotonic() < deadline:
        with contextlib.suppress(OSError, ValueError):
            pids = [int(word) for word in pidfile.read_text(encoding="ascii").split()]
        time.sleep(0.05)
    assert len(pids) >= count, f"the program recorded {pids}"
    return pids


def _survivors(pids: list[int]) -> list[int]:
    return [pid for pid in pids if alive(pid)]


def _kill(pids: list[int]) -> None:
    """Clean up after a failing test: the escaped processes must not outlive it either."""
    for pid in _survivors(pids):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize(("mode", "count"), [("setsid", 1), ("daemon", 1), ("tree", 50)])
def test_debug_terminate_stops_what_the_program_left_running(call: Call, tmp_path: Path, mode: str, count: int) -> None:
    pidfile = tmp_path / "escaped.pids"
    pids: list[int] = []
    try:
        launched = run(call, "debug_launch", program="escaping.py", args=f"{mode} {pidfile} 300", wait_s=0.5)
        pids = _escaped(pidfile, count)
        ended = run(call, "debug_terminate", session_id=launched.data["session_id"])
        assert ended.data["processes_left"] == []
        assert _survivors(pids) == []
    finally:
        _kill(pids)


def test_the_end_of_the_server_stops_what_debugged_programs_left_running(call: Call, tmp_path: Path) -> None:
    pidfile = tmp_path / "escaped.pids"
    pids: list[int] = []
    try:
        run(call, "debug_launch", program="escaping.py", args=f"daemon {pidfile} 300", wait_s=0.5)
        pids = _escaped(pidfile, 1)
        call.session.close()
        assert _survivors(pids) == []
    finally:
        _kill(pids)
