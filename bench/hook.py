"""`simple-brief hook claude`: what it costs Claude Code per tool call (issue 30).

A fresh process per call, timed whole from outside (as Claude Code runs a hook): the
pass-through calls (another tool, a short file, a second Read of a file already answered),
against the named baseline of the same run, the bare interpreter (`python -c pass`) — the
least any hook written in Python costs. Then the first Read of a long file, answered in
this process (no daemon) and through a warm daemon. The target: every pass-through
within 100 ms.

    python bench/hook.py [--runs N]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PASS_THROUGH_TARGET_MS = 100.0
#: The installed `simple-brief` script, as Claude Code runs it (else the module).
_INSTALLED = Path(sys.executable).with_name("simple-brief")
SCRIPT = [str(_INSTALLED)] if _INSTALLED.exists() else [sys.executable, "-m", "simple_brief"]


def _timed(argv: list[str], stdin: str, env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, check=False)
        times.append((time.perf_counter() - start) * 1000)
        if done.returncode != 0:
            raise SystemExit(f"{argv} failed: {done.stderr}")
    return times


def _row(name: str, times: list[float], base: float) -> str:
    p50 = statistics.median(times)
    p90 = sorted(times)[max(0, int(len(times) * 0.9) - 1)]
    return f"| {name} | {p50:.1f} | {p90:.1f} | {p50 / base:.2f}x |"


def main(argv: list[str]) -> int:
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 30
    with tempfile.TemporaryDirectory(prefix="sb-hook-") as folder:
        root = Path(folder) / "project"
        root.mkdir()
        stdlib = Path(json.__file__).parents[1]
        shutil.copyfile(stdlib / "argparse.py", root / "argparse.py")
        (root / "short.py").write_text("def f():\n    return 1\n", encoding="utf-8")
        env = {**os.environ, "SIMPLE_BRIEF_STATE_DIR": str(Path(folder) / "state"), "SIMPLE_BRIEF_DAEMON": "0"}
        env.pop("PYTEST_CURRENT_TEST", None)

        def read(path: str, session: str) -> str:
            event = {"session_id": session, "cwd": str(root), "hook_event_name": "PreToolUse", "tool_name": "Read"}
            return json.dumps({**event, "tool_input": {"file_path": str(root / path)}})

        hook = [*SCRIPT, "hook", "claude"]
        bash = json.dumps(
            {
                "session_id": "s",
                "cwd": str(root),
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {},
            }
        )
        subprocess.run(hook, input=read("argparse.py", "seen"), capture_output=True, text=True, env=env, check=True)
        base = statistics.median(_timed([sys.executable, "-c", "pass"], "", env, runs))
        rows = [
            (
                "bare interpreter (`python -c pass`, the baseline)",
                _timed([sys.executable, "-c", "pass"], "", env, runs),
            ),
            ("pass-through: a Bash call", _timed(hook, bash, env, runs)),
            ("pass-through: a Read of a 2-line file", _timed(hook, read("short.py", "s"), env, runs)),
            ("pass-through: a second Read of argparse.py", _timed(hook, read("argparse.py", "seen"), env, runs)),
        ]
        first = [_timed(hook, read("argparse.py", f"new-{i}"), env, 1)[0] for i in range(max(3, runs // 10))]
        rows.append(("answered in this process: a first Read of argparse.py", first))
        env_daemon = {**env, "SIMPLE_BRIEF_DAEMON": "1"}
        subprocess.run(
            hook, input=read("argparse.py", "warm-0"), capture_output=True, text=True, env=env_daemon, check=True
        )
        time.sleep(3)  # the daemon the first call started
        warm = [_timed(hook, read("argparse.py", f"warm-{i + 1}"), env_daemon, 1)[0] for i in range(max(3, runs // 10))]
        rows.append(("answered by the warm daemon: a first Read of argparse.py", warm))
        subprocess.run([*SCRIPT, "daemon", "stop"], capture_output=True, env=env_daemon, check=False)
    print("| call (fresh process, whole command) | p50 ms | p90 ms | / baseline |")
    print("|---|---|---|---|")
    for name, times in rows:
        print(_row(name, times, base))
    worst = max(statistics.median(times) for name, times in rows[1:4])
    verdict = "met" if worst <= PASS_THROUGH_TARGET_MS else "MISSED"
    print(f"\npass-through target {PASS_THROUGH_TARGET_MS:g} ms (p50): {verdict} (worst {worst:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
