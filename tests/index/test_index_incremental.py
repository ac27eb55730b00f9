"""Incremental updates: an edited, added, deleted, renamed or gitignored file is seen by
the next search, and only changed files are parsed again."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from index_helpers import STDLIB, cache_dir_fixture, index_text, scan_text, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index


def _bump(path: Path) -> None:
    """Move the mtime on, so a change in the same clock tick is still seen by stat."""
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + 10_000_000))


def test_a_second_refresh_parses_nothing(tree: Path) -> None:
    index = symbol_index(Workspace.at(tree))
    first = index.refresh()
    assert first.parsed == first.listed > 5
    again = index.refresh()
    assert again.parsed == 0
    assert again.unchanged == first.listed


def test_an_edited_file_is_parsed_again_and_found(tree: Path) -> None:
    ws = Workspace.at(tree)
    assert "Found 0 matches" in index_text(ws, "brand_new_helper")
    target = tree / "textwrap.py"
    target.write_text(target.read_text() + "\n\ndef brand_new_helper(x):\n    return x\n")
    _bump(target)
    text = index_text(ws, "brand_new_helper")
    assert "textwrap.py (1 result)" in text
    assert text == scan_text(tree, "brand_new_helper")
    assert symbol_index(ws).refresh().parsed == 0


def test_a_touched_file_with_the_same_content_is_not_parsed(tree: Path) -> None:
    ws = Workspace.at(tree)
    index = symbol_index(ws)
    index.refresh()
    _bump(tree / "shlex.py")
    stats = index.refresh()
    assert stats.parsed == 0
    assert stats.changed == []


def test_added_deleted_and_renamed_files(tree: Path) -> None:
    ws = Workspace.at(tree)
    assert index_text(ws, "dedent") == scan_text(tree, "dedent")
    shutil.copy(STDLIB / "glob.py", tree / "json" / "glob_copy.py")
    (tree / "textwrap.py").rename(tree / "json" / "wrapping.py")
    (tree / "fnmatch.py").unlink()
    for query in ("dedent", "glob", "fnmatch", "translate", "TextWrapper"):
        assert index_text(ws, query) == scan_text(tree, query), query
    text = index_text(ws, "dedent")
    assert "json/wrapping.py" in text
    assert "textwrap.py" not in text.replace("json/wrapping.py", "")
    assert "fnmatch.py" not in index_text(ws, "fnmatch")


def test_a_gitignored_file_is_left_out_and_dropped_when_ignored_later(tree: Path) -> None:
    ws = Workspace.at(tree)
    (tree / "ignored_mod.py").write_text("def only_in_ignored():\n    pass\n")
    (tree / ".gitignore").write_text("ignored_mod.py\n")
    assert "Found 0 matches" in index_text(ws, "only_in_ignored")
    (tree / ".gitignore").write_text("")
    assert "ignored_mod.py (1 result)" in index_text(ws, "only_in_ignored")
    (tree / ".gitignore").write_text("ignored_mod.py\n")
    assert "Found 0 matches" in index_text(ws, "only_in_ignored")
    assert index_text(ws, "decode") == scan_text(tree, "decode")


def test_the_index_survives_the_process_and_answers_after_reopening(tree: Path) -> None:
    first = Workspace.at(tree)
    symbol_index(first).refresh()
    symbol_index(first).close()
    again = symbol_index(Workspace.at(tree))
    assert again.refresh().parsed == 0
    assert index_text(Workspace.at(tree), "JSONDecoder") == scan_text(tree, "JSONDecoder")


def test_two_processes_sharing_the_index_stay_consistent(tree: Path) -> None:
    """A standalone run beside a long-lived one: each sees the other's writes."""
    first, second = Workspace.at(tree), Workspace.at(tree)
    assert index_text(first, "dedent") == scan_text(tree, "dedent")
    symbol_index(second).refresh()
    (tree / "json" / "extra_mod.py").write_text("def dedent_extra():\n    pass\n")
    (tree / "fnmatch.py").unlink()
    assert symbol_index(second).refresh().parsed == 1
    stats = symbol_index(first).refresh()
    assert stats.parsed == 0 and stats.removed == 0
    for query in ("dedent", "fnmatch", "decode"):
        assert index_text(first, query) == scan_text(tree, query), query
