"""Names that are not UTF-8 through the daemon (issue 26 §6): the request, the frames and
the client's replay carry them, and what reaches the terminal is escaped, never a
traceback of the client's encoder."""

from __future__ import annotations

import os
from pathlib import Path

from daemon_home import Home, home_fixture  # noqa: F401  (the `home` fixture)

from simple_brief.host import protocol


def test_the_daemon_serves_hostile_names_escaped(home: Home, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    for raw in (b"bad\xff.py", b"esc\x1b.py"):
        with open(os.path.join(os.fsencode(root), raw), "w") as handle:
            handle.write("def hostile_func():\n    return 1\n")
    home.start()
    home.wait_running()
    # A strict UTF-8 stdout (as in an en_US.UTF-8 terminal), not the C locale's surrogateescape.
    env: dict[str, str | None] = {
        "SIMPLE_BRIEF_CACHE_DIR": str(tmp_path / "cache"),
        protocol.SWITCH_ENV: "1",
        "PYTHONIOENCODING": "utf-8",
    }
    found = home.sb(root, "search", "hostile_func", env=env)
    assert found.returncode == 0, found.stderr
    assert "bad\\xff.py (1 result)" in found.stdout and "esc\\x1b.py (1 result)" in found.stdout
    echoed = home.sb(root, "search", "zz\udcff", env=env)  # an argument that is not UTF-8, echoed back
    assert echoed.returncode == 0 and "Traceback" not in echoed.stderr, echoed.stderr
    assert 'query "zz\\udcff"' in echoed.stdout
    opened = home.sb(root, "outline", "bad\\xff.py", env=env)
    assert opened.returncode == 0, opened.stderr
    assert opened.stdout.startswith("bad\\xff.py (python")
    assert home.wait_running()["requests"] == 3
