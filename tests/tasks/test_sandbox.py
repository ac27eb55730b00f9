"""The sandbox runs one command with real processes: its own group, the time, memory and
output limits (the group killed, what was printed kept), cancellation, no orphan left,
and never a shell."""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest
from projects import alive

from simple_brief.errors import UserError
from simple_brief.tasks import sandbox
from simple_brief.tasks.sandbox import Limits

PY = sys.executable
LIMITS = Limits(timeout_s=60, memory_mb=0, output_bytes=1 << 20)


def _spawner(tmp_path: Path) -> Path:
    """A program that starts a grandchild (recording its pid), prints, then sleeps."""
    script = tmp_path / "spawn.py"
    script.write_text(
        "import subprocess, sys, time\n"
        f"child = subprocess.Popen([{PY!r}, '-c', 'import time; time.sleep(300)'])\n"
        f"open({str(tmp_path / 'child.pid')!r}, 'w').write(str(child.pid))\n"
        "print('started', flush=True)\n"
        "time.sleep(300)\n",
        encoding="utf-8",
    )
    return script


def test_a_command_runs_with_its_output_and_exit_code(tmp_path: Path) -> None:
    done = sandbox.run(
        [PY, "-c", "import sys; print('out'); print('err', file=sys.stderr); sys.exit(3)"], tmp_path, os.environ, LIMITS
    )
    assert (done.exit_code, done.stdout, done.stderr, done.limit_exceeded) == (3, "out\n", "err\n", None)
    assert not done.ok


def test_the_time_limit_kills_the_whole_group_and_keeps_the_output(tmp_path: Path) -> None:
    limits = Limits(timeout_s=1.0, memory_mb=0, output_bytes=1 << 20)
    done = sandbox.run([PY, str(_spawner(tmp_path))], tmp_path, os.environ, limits)
    assert done.limit_exceeded == "time"
    assert done.stdout == "started\n"
    grandchild = int((tmp_path / "child.pid").read_text())
    assert not alive(grandchild), "the grandchild outlived the run"


def test_the_output_limit_stops_a_chatty_command(tmp_path: Path) -> None:
    limits = Limits(timeout_s=60, memory_mb=0, output_bytes=100_000)
    done = sandbox.run([PY, "-c", "while True: print('x' * 1000)"], tmp_path, os.environ, limits)
    assert done.limit_exceeded == "output"
    assert len(done.stdout) == 100_000 and done.output_bytes > 100_000


def test_the_memory_limit_refuses_a_big_allocation(tmp_path: Path) -> None:
    limits = Limits(timeout_s=60, memory_mb=200, output_bytes=1 << 20)
    done = sandbox.run(
        [PY, "-c", "x = bytearray(1024 * 1024 * 1024); print('allocated')"], tmp_path, os.environ, limits
    )
    assert done.limit_exceeded == "memory"
    assert "MemoryError" in done.stderr and "allocated" not in done.stdout


def test_the_memory_watch_kills_a_group_that_grows_past_the_limit(tmp_path: Path) -> None:
    # Each child stays under the address-space limit; together they hold more than the limit.
    grow = (
        "import subprocess, sys, time\n"
        f"kids = [subprocess.Popen([{PY!r}, '-c', 'b = bytearray(90 * 1024 * 1024); import time; time.sleep(60)'])"
        " for _ in range(4)]\n"
        "time.sleep(60)\n"
    )
    limits = Limits(timeout_s=60, memory_mb=250, output_bytes=1 << 20)
    done = sandbox.run([PY, "-c", grow], tmp_path, os.environ, limits)
    assert done.limit_exceeded == "memory"
    assert done.peak_rss_mb > 250
    assert done.duration_ms < 50_000  # stopped by the memory watch, not by its own end


def test_cancelling_kills_the_group(tmp_path: Path) -> None:
    flag = threading.Event()
    threading.Timer(0.5, flag.set).start()
    done = sandbox.run([PY, str(_spawner(tmp_path))], tmp_path, os.environ, LIMITS, cancelled=flag.is_set)
    assert done.cancelled and done.limit_exceeded is None
    grandchild = int((tmp_path / "child.pid").read_text())
    deadline = time.monotonic() + 5
    while alive(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(grandchild)


@pytest.mark.parametrize("argv0", ["sh", "bash", "/bin/sh"])
def test_a_shell_is_never_run(tmp_path: Path, argv0: str) -> None:
    with pytest.raises(UserError, match="never runs commands through a shell"):
        sandbox.run([argv0, "-c", "echo hi"], tmp_path, os.environ, LIMITS, task="tasks.build")


def test_a_link_to_a_shell_is_refused_too(tmp_path: Path) -> None:
    (tmp_path / "innocent").symlink_to("/bin/bash")
    with pytest.raises(UserError, match="shell"):
        sandbox.run(["./innocent", "-c", "echo hi"], tmp_path, os.environ, LIMITS, task="tasks.build")


def test_a_missing_program_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(UserError) as err:
        sandbox.run(["no-such-program-xyz"], tmp_path, os.environ, LIMITS, task="tasks.test")
    assert str(err.value) == (
        "`no-such-program-xyz` (tasks.test) is not an executable program on PATH; install it, or give its path "
        "in the task's argv."
    )
