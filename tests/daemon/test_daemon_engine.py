"""An edited engine (an editable install's module changed since the daemon started): the
next command is answered by a new daemon running the new code, as `--no-daemon` would
answer; a client of another installation is not served and does not stop the daemon."""

from __future__ import annotations

import shutil
from pathlib import Path

from daemon_home import FIXTURES, Home, home_fixture  # noqa: F401  (the `home` fixture)

import simple_brief
from simple_brief.host import protocol

PACKAGE = Path(simple_brief.__file__).parent


def _copy_of_the_engine(tmp_path: Path) -> Path:
    """The package copied (the daemon and the commands import it through PYTHONPATH), so
    editing it leaves the tree under test alone."""
    root = tmp_path / "engine"
    shutil.copytree(PACKAGE, root / "simple_brief", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def test_an_edited_engine_file_restarts_the_daemon(home: Home, tmp_path: Path) -> None:
    engine = _copy_of_the_engine(tmp_path)
    home.env["PYTHONPATH"] = str(engine)
    ws = tmp_path / "ws"
    ws.mkdir()
    shutil.copy(FIXTURES / "outline" / "python.py", ws / "app.py")
    home.start()
    old = home.wait_running()
    assert old["home"] == str(engine / "simple_brief")
    first = home.sb(ws, "outline", "app.py")
    assert first.returncode == 0 and first.stdout.startswith("app.py (python, 121 lines) outline\n"), first

    # The header of `outline` is written by tools/read.py, which the daemon has loaded.
    module = engine / "simple_brief" / "tools" / "read.py"
    text = module.read_text(encoding="utf-8")
    assert text.count('lines) {mode}"') == 1
    module.write_text(text.replace('lines) {mode}"', 'lines) {mode} (edited)"'), encoding="utf-8")

    second = home.sb(ws, "outline", "app.py")
    alone = home.sb(ws, "outline", "app.py", "--no-daemon")
    assert alone.stdout.startswith("app.py (python, 121 lines) outline (edited)\n")
    assert (second.returncode, second.stdout, second.stderr) == (0, alone.stdout, "")
    new = home.wait_running()
    assert new["pid"] != old["pid"] and new["requests"] == 1, new  # answered by the new daemon
    assert new["engine"] != old["engine"]
    assert "stopping: simple-brief's code changed" in home.log()


def test_a_client_of_another_installation_is_not_served_and_stops_nothing(home: Home, tmp_path: Path) -> None:
    home.start()
    before = home.wait_running()
    theirs = {**protocol.identity(), "home": str(tmp_path / "elsewhere" / "simple_brief")}
    with home.environment():
        reply = protocol.ask({"op": "call", "call": {}, "identity": theirs})
    assert reply is not None and "restart" not in reply
    assert "this daemon runs" in reply["mismatch"]  # (the identity was refused, not the request)
    after = home.wait_running()
    assert (after["pid"], after["requests"]) == (before["pid"], before["requests"])
