"""`simple-brief docs …` through real subprocesses, with the docs database in tmp_path
(SIMPLE_BRIEF_CACHE_DIR): a first run indexes, later runs answer from the persisted index."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simple_brief import cli
from simple_brief.docs.index import DocsIndex

BIN = Path(sys.executable).parent / "simple-brief"

FILES = {
    "app/__init__.py": '"""Demo application."""\n',
    "app/config.py": '''"""Configuration loading."""


def parse_config(path: str) -> dict:
    """Parse a configuration file into a dictionary.

    Args:
        path: The file to read.

    Returns:
        The parsed settings.

    Examples:
        >>> parse_config("app.toml")
        {}
    """
    return {}


def dump_config(settings: dict) -> str:
    """Write settings back as text."""
    return ""
''',
    "lua/util.lua": """local M = {}

--- Split a string on a separator.
--- @param s string The text to split.
--- @return string[] parts The pieces.
function M.split(s)
  return {}
end

return M
""",
}


def run(root: Path, cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "SIMPLE_BRIEF_CACHE_DIR": str(cache)}
    return subprocess.run(
        [str(BIN), *args],
        cwd=root,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        env=env,
    )


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A workspace and its cache folder, indexed once by the first command of the module."""
    base = tmp_path_factory.mktemp("docs-cli")
    root, cache = base / "ws", base / "cache"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    first = run(root, cache, "docs", "search", "parse configuration file")
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[0].startswith("Found ")
    return root, cache


def test_search_answers_from_the_persisted_index_on_the_next_run(ws: tuple[Path, Path]) -> None:
    root, cache = ws
    assert list(cache.glob("*.sqlite3")), "the first run left no database in SIMPLE_BRIEF_CACHE_DIR"
    again = run(root, cache, "docs", "index", "--json")
    assert again.returncode == 0, again.stderr
    data = json.loads(again.stdout)["data"]
    assert data["files_indexed"] == 0  # nothing re-read: all from the database
    assert data["libraries"][0]["name"] == "workspace" and data["libraries"][0]["items"] >= 4
    result = run(root, cache, "docs", "search", "parse configuration file", "--limit", "3")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Found ") and '"parse configuration file"' in lines[0]
    assert lines[2].startswith("1. app.config.parse_config · Function · app/config.py:4")
    assert lines[3] == "   `def parse_config(path: str) -> dict`"
    assert not list(cache.glob("*-wal")), "the docs database was left open"


def test_every_action_answers_and_json_parses(ws: tuple[Path, Path]) -> None:
    root, cache = ws
    outputs = {
        "get": run(root, cache, "docs", "get", "app.config.parse_config", "--json"),
        "list": run(root, cache, "docs", "list", "app.config", "--json"),
        "resolve": run(root, cache, "docs", "resolve", "split", "--json"),
        "examples": run(root, cache, "docs", "examples", "app.config.parse_config", "--json"),
        "related": run(root, cache, "docs", "related", "app.config.parse_config", "--json"),
        "get --part examples": run(
            root, cache, "docs", "get", "app.config.parse_config", "--part", "examples", "--json"
        ),
        "search": run(root, cache, "docs", "search", "split string", "--kind", "function", "--json"),
    }
    data = {}
    for action, result in outputs.items():
        assert result.returncode == 0, f"{action}: {result.stderr}"
        answer = json.loads(result.stdout)
        # `docs examples` and `docs related` are `docs action=get`'s parts (once tools of their own).
        tool = "docs"
        assert answer["ok"] is True and answer["tool"] == tool
        data[action] = answer["data"]
    assert [p["name"] for p in data["get"]["params"]] == ["path"]
    assert data["get"]["file"] == "app/config.py:4"
    assert {i["name"] for i in data["list"]["items"]} >= {"parse_config", "dump_config"}
    assert data["resolve"]["id"].endswith("split")
    assert data["examples"]["examples"][0]["runnable"] is True
    assert data["get --part examples"] == data["examples"]
    assert any(r["id"] == "app.config.dump_config" for r in data["related"]["related"])
    assert data["search"]["results"][0]["name"] == "split"


def test_run_goes_through_the_registry_too(ws: tuple[Path, Path]) -> None:
    root, cache = ws
    result = run(root, cache, "run", "docs", "--param", "action=search", "--param", "query=dump settings", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["data"]["results"][0]["id"] == "app.config.dump_config"


def test_user_errors_are_one_sentence_and_exit_2(ws: tuple[Path, Path]) -> None:
    root, cache = ws
    unknown = run(root, cache, "docs", "get", "app.config.parse_confg")
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr.startswith("simple-brief: no docs item has the id `app.config.parse_confg`; closest ids: ")
    assert "`app.config.parse_config`" in unknown.stderr and len(unknown.stderr.splitlines()) == 1
    empty = run(root, cache, "docs", "search", "  ", "--json")
    assert empty.returncode == 2
    assert json.loads(empty.stdout) == {
        "ok": False,
        "error": "parameter `query` is missing or empty; give words to search the documentation for, "
        "e.g. `parse config file`.",
    }


def test_progress_bar_goes_to_stderr_and_json_stays_clean(tmp_path: Path) -> None:
    root, cache = tmp_path / "ws", tmp_path / "cache"
    (root / "pkg").mkdir(parents=True)
    for n in range(40):
        (root / "pkg" / f"m{n}.py").write_text(f'def f{n}():\n    """Function number {n}."""\n')
    result = run(root, cache, "docs", "index", "--json", "--progress")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["data"]["files_indexed"] == 40
    assert "40/40" in result.stderr and "file/s" in result.stderr, f"no progress bar on stderr: {result.stderr!r}"
    quiet = run(root, cache, "docs", "index")  # stderr is not a terminal here: no bar
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert "s: 40 files seen, 0 (re)indexed (0 items), 0 removed." in quiet.stdout.splitlines()[0]


def test_a_cli_run_closes_the_session(
    ws: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In-process, so the close can be seen: the real `DocsIndex.close`, counted."""
    root, cache = ws
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(cache))
    closed: list[DocsIndex] = []
    real_close = DocsIndex.close

    def counted_close(self: DocsIndex) -> None:
        closed.append(self)
        real_close(self)

    monkeypatch.setattr(DocsIndex, "close", counted_close)
    assert cli.main(["docs", "search", "split", "--root", str(root)]) == 0
    assert capsys.readouterr().out.startswith('Found 1 docs item for "split"')
    assert len(closed) == 1
    assert cli.main(["run", "docs", "--param", "action=get", "--param", "id=util.split", "--root", str(root)]) == 0
    assert "util.split · Function · lua · lua/util.lua:" in capsys.readouterr().out
    assert len(closed) == 2
    assert cli.main(["docs", "get", "nope", "--root", str(root)]) == 2  # a user error closes it too
    assert len(closed) == 3


def test_a_folder_named_in_the_shell_is_a_library_relative_to_the_shell(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, cache = tmp_path / "ws", tmp_path / "cache"
    root.mkdir()
    (tmp_path / "vendorlib").mkdir()
    (tmp_path / "user.toml").write_text(f'[docs]\nfolders = ["{tmp_path / "vendorlib"}"]\n', encoding="utf-8")
    monkeypatch.setenv("SIMPLE_BRIEF_CONFIG", str(tmp_path / "user.toml"))  # only listed folders are indexed
    (tmp_path / "vendorlib" / "words.py").write_text('def count_words(text):\n    """Count the words of a text."""\n')
    # cwd is tmp_path (run() runs in its first argument), the workspace is elsewhere.
    indexed = run(tmp_path, cache, "docs", "index", "vendorlib", "--root", str(root), "--json")
    assert indexed.returncode == 0, indexed.stderr
    assert json.loads(indexed.stdout)["data"]["library"] == "vendorlib"
    found = run(tmp_path, cache, "docs", "search", "count words", "--library", "vendorlib", "--root", str(root))
    assert found.returncode == 0, found.stderr
    assert found.stdout.splitlines()[2].startswith("1. words.count_words · Function · words.py:1 [vendorlib]")


def test_help_is_clear(tmp_path: Path) -> None:
    top = run(tmp_path, tmp_path, "--help")
    assert "docs " in top.stdout and "search and read the workspace's documentation" in top.stdout
    docs = run(tmp_path, tmp_path, "docs", "--help")
    assert docs.returncode == 0
    for action in ("search", "get", "list", "resolve", "examples", "related", "index"):
        assert f"    {action} " in docs.stdout, action
    bare = run(tmp_path, tmp_path, "docs")
    assert bare.returncode == 2 and bare.stdout.startswith("usage: simple-brief docs")


@pytest.mark.parametrize("library", ["../outside", "~", "OUTSIDE"])
def test_docs_index_refuses_a_folder_not_listed_in_one_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, library: str
) -> None:
    root, cache, outside = tmp_path / "ws", tmp_path / "cache", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "leak.py").write_text('def leaked():\n    """Zanzibar code nobody listed."""\n')
    monkeypatch.setenv("HOME", str(tmp_path))  # `~` is the test's folder: the old code indexed it
    refused = run(root, cache, "docs", "index", library.replace("OUTSIDE", str(outside)))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("simple-brief: library `") and len(refused.stderr.splitlines()) == 1
    assert "is not one docs action=index may read" in refused.stderr and "[docs]" in refused.stderr
    assert 'folders = ["/abs/path"]' in refused.stderr
    found = run(root, cache, "docs", "search", "zanzibar")
    assert found.returncode == 0 and found.stdout.startswith('Found 0 docs items for "zanzibar"')
