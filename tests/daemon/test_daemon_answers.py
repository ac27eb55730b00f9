"""Every CLI command, standalone and through the daemon, on the fixtures: the same stdout,
stderr and exit code (answers, user errors, usage errors, help, JSON, verbose logs)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from daemon_home import FIXTURES, Home, home_fixture  # noqa: F401  (the `home` fixture)

from simple_brief.host import protocol

#: Run in this order in each mode (the docs index first, the docs queries after it).
COMMANDS: list[list[str]] = [
    ["outline", "app.py"],
    ["outline", "app.py", "--mode", "compact"],
    ["outline", "app.py", "--mode", "full", "--budget", "200"],
    ["outline", "app.py", "--mode", "symbols", "--preview", "signature"],
    ["outline", "shapes.cpp", "--depth", "1"],
    ["outline", "shapes.cpp", "--json"],
    ["outline", "../outside.py"],
    ["outline", "missing.py"],
    ["outline", "missing.py", "--json"],
    ["outline", "app.py", "--bogus"],
    ["outline", "--help"],
    ["-v", "outline", "app.py"],
    ["expand", "app.py", "User.greeting"],
    ["expand", "app.py", "line:34", "--what", "signature"],
    ["expand", "shapes.cpp", "main", "--what", "body"],
    ["expand", "app.py", "greting"],
    ["symbols", "app.py"],
    ["symbols", "shapes.cpp", "--format", "standard"],
    ["symbols", "app.py", "--return-children", "no", "--no-hover"],
    ["search", "user"],
    ["search", "area", "--limit", "3", "--json"],
    ["search", "role", "--path", "app.py"],
    ["diagnostics"],
    ["diagnostics", "broken.py"],
    ["diagnostics", "broken.py", "--only", "parse"],
    ["docs"],
    ["docs", "index"],
    ["docs", "search", "area of a rectangle"],
    ["docs", "get", "geometry.area"],
    ["docs", "list", "geometry"],
    ["docs", "resolve", "scale"],
    ["docs", "examples", "geometry.scale"],
    ["docs", "related", "geometry.area", "--json"],
    ["docs", "get", "no.such.item"],
    ["run", "simple_read", "--param", "path=app.py", "--param", "mode=compact"],
    ["run", "workspace_files", "--json"],
    ["run", "expand_at", "--param", "path=app.py"],
    ["run", "no_such_tool"],
    ["run", "analyze_lint"],
    ["docs", "get", "geometry.scale", "--part", "examples"],
    ["tools"],
    ["tools", "--json"],
    ["--version"],
]


def _workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copy(FIXTURES / "outline" / "python.py", root / "app.py")
    shutil.copy(FIXTURES / "outline" / "cpp.cpp", root / "shapes.cpp")
    for name in ("geometry.py", "Stack.java", "notes.lua"):
        shutil.copy(FIXTURES / "docs" / name, root / name)
    (root / "broken.py").write_text("def ok():\n    pass\n\ndef broken(:\n    pass\n", encoding="utf-8")
    (tmp_path / "outside.py").write_text("def elsewhere():\n    pass\n", encoding="utf-8")
    return root


def _answers(home: Home, root: Path, cache: Path, daemon: bool) -> list[tuple[int, str, str]]:
    env: dict[str, str | None] = {"SIMPLE_BRIEF_CACHE_DIR": str(cache), protocol.SWITCH_ENV: "1" if daemon else "0"}
    answers = []
    for args in COMMANDS:
        done = home.sb(root, *args, env=env)
        answers.append((done.returncode, _steady(done.stdout, cache), _steady(done.stderr, cache)))
    return answers


def _steady(text: str, cache: Path) -> str:
    """The answer without what differs between any two runs: the cache folder, elapsed times."""
    return re.sub(r"\b\d+\.\d+ s\b", "<t> s", text.replace(str(cache), "<cache>"))


def test_every_command_answers_the_same_through_the_daemon(home: Home, tmp_path: Path) -> None:
    root = _workspace(tmp_path)
    alone = _answers(home, root, tmp_path / "cache-alone", daemon=False)
    assert home.status() is None  # nothing went near a daemon
    home.start()
    home.wait_running()
    served = _answers(home, root, tmp_path / "cache-daemon", daemon=True)
    served_by_daemon = home.wait_running()["requests"]
    # The command line is parsed by the client: --version, --help, a usage error and `docs`
    # without its action are answered there, every other command is a tool call the daemon runs.
    parsed_here = (["--version"], ["outline", "--help"], ["outline", "app.py", "--bogus"], ["docs"])
    assert served_by_daemon == len([c for c in COMMANDS if c not in parsed_here])
    differ = [" ".join(args) for args, one, other in zip(COMMANDS, alone, served, strict=True) if one != other]
    assert not differ, differ
    codes = {code for code, _, _ in alone}
    assert codes == {0, 2}, codes  # the list holds answers and errors both
    assert any("Traceback" not in err and err for _, _, err in alone)
