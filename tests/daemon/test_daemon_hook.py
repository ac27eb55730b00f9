"""`simple-brief hook claude` asks the per-user daemon for its outline when one runs (warm
parse caches and language servers), as the command line's calls do."""

from __future__ import annotations

import ast
import json
import os
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


def test_after_an_edit_the_daemon_runs_the_checker_with_the_hooks_environment(home: Home, tmp_path: Path) -> None:
    """The daemon runs the programs of the hook's call with the hook's environment: its PATH
    names a folder holding a stand-in `bash` (a real one elsewhere on PATH would do the same
    job; the stand-in's message shows whose PATH found it)."""
    root = tmp_path / "project"
    root.mkdir()
    script = root / "deploy.sh"
    script.write_text('#!/bin/sh\nif [ -n "$1" ]; then\n  echo one\n', encoding="utf-8")  # no `fi`
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "bash").write_text(
        "#!/bin/sh\necho '/dev/stdin: line 2: syntax error: the stand-in bash on the hook PATH' >&2\nexit 2\n"
    )
    (tools / "bash").chmod(0o755)
    home.start()
    home.wait_running()
    event = {
        "session_id": "daemon-session",
        "cwd": str(root),
        "hook_event_name": "PostToolUse",
        "tool_name": "Write",
        "tool_input": {"file_path": str(script), "content": script.read_text(encoding="utf-8")},
        "tool_response": {"filePath": str(script), "success": True},
    }
    env = {**home.env, "PATH": f"{tools}{os.pathsep}{home.env['PATH']}"}
    done = subprocess.run(
        [*CLIENT, "hook", "claude"], input=json.dumps(event), cwd=root, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert context.startswith("simple-brief: deploy.sh after this edit: 1 error")
    assert "the stand-in bash on the hook PATH" in context
