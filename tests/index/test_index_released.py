"""A workspace nobody holds any more takes its file store with it: the symbol index and the
docs database it opens keep open files (SQLite, its WAL and shared memory), and a table of
open indexes that outlived their workspaces ran a long process out of file descriptors
(the full test run's task sandbox then failed in `select()` on a descriptor past 1,024)."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, invoke


def _open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_dropped_workspace_releases_its_index_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "root"
    root.mkdir()
    for i in range(5):
        (root / f"m{i}.py").write_text(f'def f{i}(x):\n    """Doc {i}."""\n    return x\n')
    first = Workspace.at(root)
    invoke("search", {"query": "f1"}, Call(workspace=first))  # the first open: caches, modules
    del first
    gc.collect()
    before = _open_files()
    for _ in range(10):
        ws = Workspace.at(root)
        answer = invoke("search", {"query": "f1"}, Call(workspace=ws))
        assert "f1" in answer.text
        del ws
    gc.collect()
    assert _open_files() <= before + 2, "each workspace's index kept its databases open"
