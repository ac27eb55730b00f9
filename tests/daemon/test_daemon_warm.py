"""The daemon's one host keeps workspaces warm: the same root gives the same Workspace (its
caches), until its config changes; nothing a call laid over it reaches the next call; over
the memory limit the warm indexes are closed once (`daemon.memory`)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from daemon_home import Home, home_fixture  # noqa: F401  (the `home` fixture)

from simple_brief.daemon.memory import MemorySettle
from simple_brief.files.workspace import Workspace
from simple_brief.host.core import Host
from simple_brief.index import open_symbol_index, symbol_index, watch
from simple_brief.index.answer import find_symbols


def test_the_same_root_is_the_same_workspace(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    host = Host()
    first = host.state(str(tmp_path)).workspace
    first.outline("a.py")
    again = host.state(str(tmp_path / "." / "")).workspace
    assert again is first and len(again._cache) == 1  # the parse cache stayed
    assert host.roots() == [str(tmp_path.resolve())]


def test_overlays_do_not_outlive_a_daemon_call(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    host = Host(calls_share_agent_state=False)
    laid = host.call("files_apply_overlay", {"path": "a.py", "content": "def g():\n    pass\n"}, root=tmp_path)
    assert not laid.is_error, laid.blocks
    shown = host.call("simple_read", {"path": "a.py"}, root=tmp_path)
    assert "f" in shown.blocks[-1] and "g" not in shown.blocks[-1], shown.blocks
    assert not host.state(tmp_path).workspace.overlays
    opened = host.call("workspace_open", {"path": "."}, root=tmp_path)
    assert not opened.is_error and host.state(tmp_path).session.opened.by_id == {}


def test_a_changed_config_gives_a_fresh_workspace(tmp_path: Path) -> None:
    host = Host()
    first = host.state(str(tmp_path)).workspace
    (tmp_path / ".simple-brief.toml").write_text('[secrets]\ndeny = ["*.vault"]\n')
    second = host.state(str(tmp_path)).workspace
    assert second is not first and "*.vault" in second.secrets.deny


def test_errors_are_those_of_workspace_at(tmp_path: Path) -> None:
    answer = Host().call("simple_read", {"path": "a.py"}, root=tmp_path / "missing")
    assert answer.is_error and "is not a directory" in answer.blocks[0]


def test_the_least_recently_used_workspace_is_dropped(tmp_path: Path) -> None:
    host = Host(limit=2)
    for name in ("a", "b", "c"):
        (tmp_path / name).mkdir()
        host.state(str(tmp_path / name))
    assert host.roots() == [str((tmp_path / n).resolve()) for n in ("b", "c")]


def _watching(index: Any) -> bool:
    return index._watcher is not None and index._watcher.alive


def test_after_a_call_indexes_watch_or_are_closed_over_the_memory_limit(tmp_path: Path, long_lived: None) -> None:
    (tmp_path / "a.py").write_text("def f():\n    pass\n")
    host = Host()
    ws = host.state(str(tmp_path)).workspace
    rss = [10]
    memory = MemorySettle(host, lambda: rss[0], limit=100)
    index = symbol_index(ws)
    try:
        memory.settle()
        assert _watching(index) and not index.closed
        rss[0] = 1000
        memory.settle()
        assert index.closed and open_symbol_index(ws) is None
        # Reopened, the index alone is over the limit: kept from now on, not reopened every call.
        again = symbol_index(ws)
        memory.settle()
        rss[0] = 1100
        memory.settle()
        assert not again.closed and _watching(again)
        rss[0] = 5000
        memory.settle()  # grown far beyond: closed again
        assert again.closed
    finally:
        host.close()


def _names(found: Any) -> list[str]:
    return [match.symbol.name for match in found.matches]


@pytest.fixture
def long_lived(monkeypatch: pytest.MonkeyPatch) -> None:
    """This test's process is long-lived, as the daemon is (`watch.long_lived`), for this test only."""
    monkeypatch.setattr(watch, "_long_lived", threading.Event())
    watch.long_lived()


def test_a_warm_index_walks_its_tree_once(tmp_path: Path, long_lived: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon's calls: the first walks the tree, the next ones do not (the watcher
    started after the first walk made the second call walk again: 7 s at 100,000 files)."""
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "first.py").write_text("def first_function():\n    pass\n", encoding="utf-8")
    walks: list[Path] = []
    listing = Workspace.files

    def counted(self: Workspace, *args: Any, **kwargs: Any) -> Iterator[Path]:
        if not args or args[0] is None:  # the whole tree (a changed folder lists only itself)
            walks.append(self.root)
        return listing(self, *args, **kwargs)

    monkeypatch.setattr(Workspace, "files", counted)
    host = Host()
    memory = MemorySettle(host)
    try:
        for query in ("first_function", "first", "function"):
            ws = host.state(str(tree)).workspace
            assert _names(find_symbols(ws, query)) == ["first_function"]
            memory.settle()
        assert len(walks) == 1
        (tree / "pkg" / "second.py").write_text("def second_function():\n    pass\n", encoding="utf-8")
        deadline = time.monotonic() + 10  # the kernel's event arrives on the watcher's thread
        while time.monotonic() < deadline and not find_symbols(ws, "second_function").matches:
            time.sleep(0.02)
        assert _names(find_symbols(host.state(str(tree)).workspace, "second_function")) == ["second_function"]
        assert len(walks) == 1, "a change on disk reached the index as an event, not by walking"
    finally:
        host.close()


def test_the_daemon_walks_a_tree_on_its_first_search_only(home: Home, tmp_path: Path) -> None:
    """The real daemon (`daemon start` makes it long-lived): `-v` says when a call walked."""
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "first.py").write_text("def first_function():\n    pass\n", encoding="utf-8")
    home.start()
    home.wait_running()
    calls = [home.sb(tree, "-v", "search", "first_function") for _ in range(3)]
    assert [call.returncode for call in calls] == [0, 0, 0]
    assert calls[0].stdout == calls[1].stdout == calls[2].stdout and "first_function" in calls[0].stdout
    assert "walked 1 files of" in calls[0].stderr, calls[0].stderr
    assert "walked" not in calls[1].stderr + calls[2].stderr, (calls[1].stderr, calls[2].stderr)


def test_the_search_that_starts_the_daemon_leaves_its_tree_walked(home: Home, tmp_path: Path) -> None:
    """The first `search` works standalone and starts the daemon; the daemon watches that
    root at once and walks it when the first command is done, so the second `search` (the
    daemon's first) does not walk: it walked 100,000 files for 7 s."""
    tree = tmp_path / "tree"
    (tree / "pkg").mkdir(parents=True)
    (tree / "pkg" / "first.py").write_text("def first_function():\n    pass\n", encoding="utf-8")
    first = home.sb(tree, "search", "first_function")
    assert first.returncode == 0 and "first_function" in first.stdout, first
    home.wait_running()
    deadline = time.monotonic() + 60  # the daemon's warm-up ends once the first command's process left
    while (status := home.status()) is not None and status["busy"] and time.monotonic() < deadline:
        time.sleep(0.05)
    (tree / "pkg" / "second.py").write_text("def second_function():\n    pass\n", encoding="utf-8")
    found = ""
    while time.monotonic() < deadline and "second_function" not in found:  # (the watcher's event)
        second = home.sb(tree, "-v", "search", "second_function")
        assert second.returncode == 0 and "walked" not in second.stderr, second.stderr
        found = second.stdout
    assert "second_function" in found
    assert home.wait_running()["workspaces"] == [str(tree.resolve())]


def test_the_warm_up_does_not_wait_forever_for_a_process_that_lives_on(
    tmp_path: Path, long_lived: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--after-pid` of a process that does not end (here: this one) delays the warm-up by
    `AFTER_PID_WAIT` at most: the daemon is busy meanwhile, and busy it never stops."""
    from simple_brief.daemon import service

    monkeypatch.setattr(service, "AFTER_PID_WAIT", 0.3)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "app.py").write_text("def warmed_up():\n    pass\n", encoding="utf-8")
    host = Host()
    warming = service.Warming(str(tree), after_pid=os.getpid())
    worker = threading.Thread(target=warming, args=(host, lambda: False), daemon=True)
    try:
        worker.start()
        worker.join(timeout=60)
        assert not worker.is_alive(), "the warm-up still waits for a process that lives on"
        assert _names(find_symbols(host.state(str(tree)).workspace, "warmed_up")) == ["warmed_up"]
    finally:
        host.close()
