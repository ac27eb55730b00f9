"""One user's daemon world for a test: its own state directory (so its own daemon), the
commands run with its environment, and a stop that leaves no daemon behind.

The `home` fixture lives here, not in a conftest.py: another conftest.py would shadow
tests/conftest.py for the modules that import helpers from it. Test modules import it
(`from daemon_home import home_fixture`)."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from simple_brief.host import protocol

#: The `simple-brief` script, run as a module so it is the tree's code.
CLIENT = [sys.executable, "-m", "simple_brief.main"]
FIXTURES = Path(__file__).parents[1] / "fixtures"


@dataclass
class Home:
    """One user's daemon world: the state directory, the environment the commands get."""

    state: Path
    env: dict[str, str]
    spawned: list[subprocess.Popen[str]] = field(default_factory=list)

    @property
    def socket(self) -> Path:
        return self.state / "daemon" / "daemon.sock"

    def sb(self, cwd: Path, *args: str, env: dict[str, str | None] | None = None) -> subprocess.CompletedProcess[str]:
        """The `simple-brief` script (its module, so the tree's code) with this home's environment
        (`env` changes it; a None value removes the variable)."""
        merged = {**self.env, **(env or {})}
        return subprocess.run(
            [*CLIENT, *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=120,
            env={key: value for key, value in merged.items() if value is not None},
        )

    def start(self, *extra: str) -> subprocess.Popen[str]:
        """`daemon start --foreground` in the background (the test stops it)."""
        process = subprocess.Popen(
            [*CLIENT, "daemon", "start", "--foreground", *extra],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.spawned.append(process)
        return process

    def status(self) -> dict[str, Any] | None:
        """The running daemon's status, or None."""
        with self.environment():
            try:
                reply = protocol.ask({"op": "status"})
            except OSError:
                return None
        return reply.get("status") if reply else None

    def wait_running(self, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.status()
            if status is not None:
                return status
            time.sleep(0.05)
        raise AssertionError(f"no daemon answered within {timeout} s; log: {self.log()}")

    def wait_stopped(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.environment():
                if not protocol.lock_is_held():
                    return
            time.sleep(0.05)
        raise AssertionError(f"the daemon still runs after {timeout} s")

    def log(self) -> str:
        with contextlib.suppress(OSError):
            return (self.state / "daemon" / "daemon.log").read_text(encoding="utf-8")
        return ""

    @contextlib.contextmanager
    def environment(self) -> Iterator[None]:
        """This process's environment set to the home's, for in-process calls."""
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update(self.env)
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)

    def stop(self) -> None:
        """Stop this home's daemon, whatever state it is in."""
        with self.environment():
            with contextlib.suppress(OSError):
                protocol.ask({"op": "stop"}, timeout=2)
            deadline = time.monotonic() + 15
            while protocol.lock_is_held() and time.monotonic() < deadline:
                time.sleep(0.05)
            if protocol.lock_is_held():
                pid = int(protocol.lock_path().read_text().split()[0])
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
        for process in self.spawned:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=10)
            if process.poll() is None:
                process.kill()
                process.wait()
            if process.stderr is not None:
                process.stderr.close()


@pytest.fixture(name="home")
def home_fixture() -> Iterator[Home]:
    """A state directory of its own (short: socket paths are limited) with the daemon switched on."""
    state = Path(tempfile.mkdtemp(prefix="sbd-"))
    env = {
        **os.environ,
        "SIMPLE_BRIEF_STATE_DIR": str(state),
        protocol.SWITCH_ENV: "1",
        "SIMPLE_BRIEF_CACHE_DIR": str(state / "cache"),
        "PYTHONIOENCODING": "utf-8",
    }
    env.pop("PYTEST_CURRENT_TEST", None)
    # A daemon a test's client started while the test ended stops by itself soon.
    (state / "user.toml").write_text("[daemon]\nidle_minutes = 0.5\n", encoding="utf-8")
    env["SIMPLE_BRIEF_CONFIG"] = str(state / "user.toml")
    env.pop("COLUMNS", None)
    world = Home(state, env)
    try:
        yield world
    finally:
        world.stop()
        shutil.rmtree(state, ignore_errors=True)
