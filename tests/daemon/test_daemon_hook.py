"""`simple-brief hook claude` asks the per-user daemon for its outline when one runs (warm
parse caches and language servers), as the command line's calls do."""

from __future__ import annotations

import ast
import json
import shutil
import subprocess
from pathlib import Path

from daemon_home import CLIENT, Home, home_fixture  # noqa: F401  (the `home` fixture)

ARGPARSE = Path(ast.__file__).with_name("argparse.py")


def test_the_hook_is_answered_by_the_running_daemon(home: Home, tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    shutil.copyfile(ARGPARSE, root / "argparse.py")
    home.start()
    served = home.wait_running()["requests"]
    event = {
        "session_id": "daemon-session",
        "transcript_path": str(tmp_path / "t.jsonl"),
        "cwd": str(root),
        "hook_event_name": "PreToolUse",
        "tool_name": "Read",
        "tool_input": {"file_path": str(root / "argparse.py")},
    }
    done = subprocess.run(
        [*CLIENT, "hook", "claude"], input=json.dumps(event), cwd=root, capture_output=True, text=True, env=home.env
    )
    assert done.returncode == 0, done.stderr
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "argparse.py (python, 2" in reason and "\nArgumentParser:" in reason
    assert home.wait_running()["requests"] > served  # the outline came from the daemon
