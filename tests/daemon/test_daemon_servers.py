"""The daemon keeps the language servers a call started running for the next call of the
same workspace (a real jedi-language-server from PyPI), and stops them when it stops: no
server outlives the daemon."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from daemon_home import Home, home_fixture  # noqa: F401  (the `home` fixture)

BIN = Path(sys.executable).parent
CONFIG = f'[servers.jedi]\ncommand = ["{BIN / "jedi-language-server"}"]\nfiletypes = ["python"]\n'
APP = "def greet(name):\n    return name.upper()\n\n\nprint(greet('x'))\n"


def _at(path: str, line: int, col: int) -> list[str]:
    return ["--param", f"path={path}", "--param", f"line={line}", "--param", f"col={col}"]


def _children(pid: int) -> dict[int, str]:
    """The processes whose parent is `pid`, with their command lines."""
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found[int(entry.name)] = cmdline
    return found


def _servers(pid: int) -> set[int]:
    return {child for child, cmd in _children(pid).items() if "jedi-language-server" in cmd}


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_language_servers_stay_warm_between_calls_and_stop_with_the_daemon(home: Home, tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(APP, encoding="utf-8")
    (root / ".simple-brief.toml").write_text(CONFIG, encoding="utf-8")
    assert home.sb(root, "trust").returncode == 0  # as the person would, in this home's state

    assert home.sb(root, "outline", "app.py").returncode == 0  # works standalone, starts the daemon
    daemon = int(home.wait_running()["pid"])
    first = home.sb(root, "run", "analyze", "--param", "what=hover", *_at("app.py", 5, 7))
    assert first.returncode == 0, first.stderr
    assert "greet" in first.stdout
    started = _servers(daemon)
    assert len(started) == 1, f"one jedi-language-server under the daemon, got {_children(daemon)}"

    second = home.sb(root, "run", "analyze", "--param", "what=definition", *_at("app.py", 5, 7))
    assert second.returncode == 0, second.stderr
    assert "app.py:1" in second.stdout
    assert _servers(daemon) == started, "the second call started its own server instead of using the warm one"

    assert home.sb(root, "daemon", "stop").returncode == 0
    home.wait_stopped()
    deadline = time.monotonic() + 10
    while any(_alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in started), "the language server outlived the daemon"


def test_an_idle_stop_stops_the_language_servers_before_the_lock_goes(home: Home, tmp_path: Path) -> None:
    """The daemon stopping by itself (idle) stops its servers, and only then lets go of its
    lock: whoever sees the lock free (`daemon stop`, a new daemon) finds nothing of it left."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "app.py").write_text(APP, encoding="utf-8")
    (root / ".simple-brief.toml").write_text(CONFIG, encoding="utf-8")
    assert home.sb(root, "trust").returncode == 0
    user_config = tmp_path / "user.toml"
    user_config.write_text("[daemon]\nidle_minutes = 0.04\n", encoding="utf-8")  # 2.4 s
    home.env["SIMPLE_BRIEF_CONFIG"] = str(user_config)
    home.start()
    daemon = int(home.wait_running()["pid"])
    hover = home.sb(root, "run", "analyze", "--param", "what=hover", *_at("app.py", 5, 7))
    assert hover.returncode == 0 and "greet" in hover.stdout, hover.stderr
    started = _servers(daemon)
    assert len(started) == 1, _children(daemon)
    home.wait_stopped(timeout=60)
    assert not any(_alive(pid) for pid in started), "the language server still ran when the lock was free"
    assert "stopping after 2 s without a request" in home.log()
