"""Ctrl-C on a command served by the daemon cancels the call inside the daemon: the
client exits at once (130, as standalone), and the daemon stops the work at its next
check instead of finishing a build nobody waits for."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from daemon_home import CLIENT, Home, home_fixture  # noqa: F401  (the `home` fixture)

from simple_brief.index import store

FILES = 3000
#: Definitions per file: enough work that the build outlasts the Ctrl-C by seconds.
DEFINITIONS = 40


def _tree(root: Path) -> Path:
    for i in range(FILES):
        folder = root / f"pkg{i // 500}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "".join(f"def handler_{i}_{j}(request):\n    return request\n\n\n" for j in range(DEFINITIONS))
        (folder / f"mod{i}.py").write_text(body, encoding="utf-8")
    return root


def _indexed_files(root: Path, env: dict[str, str]) -> int:
    path = store.db_path(root.resolve(), Path(env["SIMPLE_BRIEF_CACHE_DIR"]))
    if not path.exists():
        return 0
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM files").fetchone()[0])


def test_ctrl_c_cancels_the_call_in_the_daemon(home: Home, tmp_path: Path) -> None:
    root = _tree(tmp_path / "ws")
    home.start()
    before = int(home.wait_running()["requests"])
    client = subprocess.Popen(
        [*CLIENT, "search", "handler_42_7"],
        cwd=root,
        env=home.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (home.status() or {}).get("busy"):
        assert client.poll() is None, f"the search ended before it could be cancelled: {client.communicate()}"
        assert time.monotonic() < deadline, "the daemon never started the search"
        time.sleep(0.02)
    client.send_signal(signal.SIGINT)
    assert client.wait(timeout=30) == 130

    deadline = time.monotonic() + 60
    while True:
        status = home.status()
        assert status is not None
        if not status["busy"] and int(status["requests"]) > before:
            break
        assert time.monotonic() < deadline, f"the daemon still works on the cancelled call; log: {home.log()}"
        time.sleep(0.05)
    assert _indexed_files(root, home.env) < FILES, "the daemon finished indexing for a client that left"
    assert "stopped a call after its client went away" in home.log()

    # The daemon is fine afterwards, and the next search completes the index.
    again = home.sb(root, "search", "handler_42_7")
    assert again.returncode == 0, again.stderr
    assert "handler_42_7" in again.stdout
    assert _indexed_files(root, home.env) == FILES
