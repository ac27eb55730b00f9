"""Through the daemon, a debug session outlives the CLI call that launched it (the next call
sees it stopped at its breakpoint), and stopping the daemon ends it with every process of
the debugged program: real debugpy, a real daemon."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from daemon_home import Home, home_fixture  # noqa: F401  (the `home` fixture)

sys.path.insert(0, str(Path(__file__).parents[1] / "debug"))
from debuggee import APP, LINE_CALL


def _programs(marker: str) -> list[int]:
    """Live processes whose command line names `marker` (the program's unique path)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def test_a_debug_session_lives_in_the_daemon_between_calls_and_ends_with_it(home: Home, tmp_path: Path) -> None:
    root = tmp_path / "debugged"
    root.mkdir()
    (root / "app.py").write_text(APP, encoding="utf-8")
    assert home.sb(root, "outline", "app.py").returncode == 0  # works standalone, starts the daemon
    home.wait_running()
    launch = home.sb(
        root, "run", "debug_launch", "--param", "program=app.py", "--param", f"breakpoints=app.py:{LINE_CALL}", "--json"
    )
    assert launch.returncode == 0, launch.stderr
    sid = json.loads(launch.stdout)["data"]["session_id"]
    assert _programs(str(root)), "the debugged program is not running under the daemon"

    listed = home.sb(root, "run", "debug_sessions", "--json")
    sessions = json.loads(listed.stdout)["data"]["sessions"]
    assert [s["session_id"] for s in sessions] == [sid]
    assert sessions[0]["state"] == "stopped"

    assert home.sb(root, "daemon", "stop").returncode == 0
    home.wait_stopped()
    deadline = time.monotonic() + 15
    while _programs(str(root)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _programs(str(root)) == [], "the debugged program outlived the daemon"
