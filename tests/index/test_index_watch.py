"""Long-lived processes: with the watcher on, a query checks only the paths the kernel
reported (no walk), and a change on disk reaches the next searches; a .gitignore change
walks again."""

from __future__ import annotations

import shutil
from pathlib import Path

from index_helpers import STDLIB, cache_dir_fixture, eventually, index_text, scan_text, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index


def _watched(tree: Path) -> Workspace:
    ws = Workspace.at(tree)
    index = symbol_index(ws)
    assert index.watch()
    index.ensure_fresh()
    return ws


def test_a_watched_index_does_not_walk_when_nothing_changed(tree: Path) -> None:
    ws = _watched(tree)
    stats = symbol_index(ws).ensure_fresh()
    assert stats.listed == 0
    assert stats.parsed == 0
    symbol_index(ws).close()


def test_edits_additions_deletions_and_folders_reach_the_next_search(tree: Path) -> None:
    ws = _watched(tree)
    try:
        target = tree / "shlex.py"
        target.write_text(target.read_text() + "\ndef watched_edit():\n    pass\n")
        assert eventually(lambda: "shlex.py (1 result)" in index_text(ws, "watched_edit"))
        (tree / "fnmatch.py").unlink()
        assert eventually(lambda: "fnmatch.py" not in index_text(ws, "fnmatch"))
        shutil.copytree(STDLIB / "email" / "mime", tree / "mime", ignore=shutil.ignore_patterns("__pycache__"))
        assert eventually(lambda: "mime/" in index_text(ws, "MIMEText"))
        shutil.rmtree(tree / "json")
        assert eventually(lambda: "json/" not in index_text(ws, "decode"))
        for query in ("decode", "MIMEText", "watched_edit", "split", "a"):
            assert index_text(ws, query) == scan_text(tree, query), query
    finally:
        symbol_index(ws).close()


def test_a_gitignore_change_walks_again(tree: Path) -> None:
    ws = _watched(tree)
    try:
        (tree / ".gitignore").write_text("json/\n")
        assert eventually(lambda: "json/" not in index_text(ws, "decode"))
        assert index_text(ws, "decode") == scan_text(tree, "decode")
    finally:
        symbol_index(ws).close()


def test_watching_stops_with_close_and_a_query_without_it_walks(tree: Path) -> None:
    ws = Workspace.at(tree)
    index = symbol_index(ws)
    index_text(ws, "decode")
    assert index._watcher is None
    assert index.ensure_fresh().listed > 5
    assert index.watch()
    assert index.ensure_fresh().listed > 5  # changes made before the watch began
    assert index.ensure_fresh().listed == 0
    index.close()
    assert index._watcher is None


def test_an_event_on_the_root_itself_walks_once(tree: Path) -> None:
    """The root's own change (or the kernel's overflow, reported on the watched root) says
    nothing of what changed below it: the next query walks, once."""
    ws = _watched(tree)
    index = symbol_index(ws)
    try:
        assert index.ensure_fresh().listed == 0
        tree.chmod(0o750)  # the root's own attributes: an event whose path is the root
        assert eventually(lambda: index._lost)
        assert index.ensure_fresh().listed > 5
        assert index.ensure_fresh().listed == 0
    finally:
        index.close()


def test_a_file_reported_with_its_folder_is_stored_once(tree: Path) -> None:
    """The kernel may report a folder and a file in it together: the file is then parsed
    twice in one batch, and its rows must still be stored once (the batch inserts every
    file's rows in one statement)."""
    ws = _watched(tree)
    index = symbol_index(ws)
    try:
        target = tree / "json" / "decoder.py"
        target.write_text(target.read_text() + "\ndef reported_twice():\n    pass\n")
        index._changed({str(tree / "json"), str(target)})  # as the watcher's thread hands events over
        index.ensure_fresh()
        for query in ("reported_twice", "JSONDecodeError", "decode"):
            assert index_text(ws, query) == scan_text(tree, query), query
    finally:
        index.close()
