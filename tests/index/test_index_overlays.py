"""Overlays (the agent's and the editor's unsaved buffers) are parsed at query time and
replace their file's stored rows; the disk and the stored index are untouched."""

from __future__ import annotations

from pathlib import Path

from index_helpers import cache_dir_fixture, index_text, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index


def test_an_agent_overlay_replaces_the_files_stored_rows(tree: Path) -> None:
    ws = Workspace.at(tree)
    assert "shlex.py" in index_text(ws, "split")
    ws.set_overlay("shlex.py", "def overlay_only_split(x):\n    return x\n")
    text = index_text(ws, "split")
    assert "shlex.py (1 result)" in text
    assert "overlay_only_split" in text
    assert "def split(" not in text.split("shlex.py", 1)[1].split("\n\n")[0]
    ws.remove_overlay("shlex.py")
    assert "overlay_only_split" not in index_text(ws, "split")
    assert symbol_index(ws).refresh().parsed == 0


def test_an_editor_buffer_of_a_new_file_is_found(tree: Path) -> None:
    ws = Workspace.at(tree)
    ws.overlays.replace_editor({tree / "json" / "unsaved.py": "class UnsavedThing:\n    def go(self):\n        pass\n"})
    text = index_text(ws, "UnsavedThing")
    assert "json/unsaved.py (1 result)" in text
    assert "Method - go" in index_text(ws, "UnsavedThing.go")
    assert not (tree / "json" / "unsaved.py").exists()
    ws.overlays.replace_editor({})
    assert "Found 0 matches" in index_text(ws, "UnsavedThing")


def test_an_overlay_counts_once_with_the_other_files(tree: Path) -> None:
    ws = Workspace.at(tree)
    before = index_text(ws, "dedent")
    ws.set_overlay("fnmatch.py", "def dedent_too():\n    pass\n")
    after = index_text(ws, "dedent")
    assert before.splitlines()[0] == 'Found 1 matches for query "dedent" across 1 file'
    assert after.splitlines()[0] == 'Found 2 matches for query "dedent" across 2 files'


def test_an_overlay_of_a_gitignored_file_stays_out(tree: Path) -> None:
    (tree / ".gitignore").write_text("fnmatch.py\n")
    ws = Workspace.at(tree)
    ws.set_overlay("fnmatch.py", "def hidden_overlay():\n    pass\n")
    assert "Found 0 matches" in index_text(ws, "hidden_overlay")
