"""Files left out are counted in the answer; the parse cache is bounded; a cancelled call
stops indexing between chunks and keeps what it stored; worker processes give the same rows."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from index_helpers import STDLIB, cache_dir_fixture, index_text, scan_text, tree_fixture  # noqa: F401  (fixtures)

from simple_brief import tools as registry
from simple_brief.files.workspace import LISTING_MAX_BYTES, Workspace
from simple_brief.index import batch as batch_module
from simple_brief.index import symbol_index


def test_skipped_files_are_counted_in_the_answer(tree: Path) -> None:
    big = "\n".join(f"def generated_{i}():\n    return {i}\n" for i in range(LISTING_MAX_BYTES // 30))
    (tree / "generated.py").write_text(big)
    (tree / "blob.py").write_bytes(b"def x():\n\0\0\0 binary")
    search = registry.load()["search"]
    result = search.func(registry.Call(Workspace.at(tree)), query="decode")
    first = result.blocks[0].splitlines()[0]
    assert first.endswith("(2 files skipped: 1 binary, 1 over 1.0 MB)"), first
    assert result.data["skipped"] == {"binary": 1, "over 1.0 MB": 1}
    (tree / "blob.py").unlink()
    again = search.func(registry.Call(Workspace.at(tree)), query="decode")
    assert again.blocks[0].splitlines()[0].endswith("(1 file skipped: 1 over 1.0 MB)")


def test_the_parse_cache_keeps_at_most_its_limit(tree: Path) -> None:
    ws = Workspace.at(tree)
    ws.cache_limit = 3
    files = list(ws.files())
    assert len(files) > 5
    for file in files:
        ws.outline(file)
    assert len(ws._cache) == 3
    assert list(ws._cache) == files[-3:]
    ws.outline(files[-3])
    assert list(ws._cache)[-1] == files[-3]


def test_a_cancelled_call_stops_indexing_and_keeps_what_it_stored(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(STDLIB / "email", tree / "email", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(batch_module, "CHUNK_FILES", 4)
    ws = Workspace.at(tree)
    reports: list[float] = []
    call = registry.Call(ws, progress=lambda done, total, message: reports.append(done))

    def cancel_after_first(done: float, total: float | None, message: str) -> None:
        reports.append(done)
        if done >= 4:
            call.cancelled.set()

    call.progress = cancel_after_first
    with pytest.raises(registry.Cancelled):
        registry.load()["search"].func(call, query="decode")
    stats = symbol_index(ws).refresh()
    assert 0 < stats.unchanged < stats.listed
    assert index_text(ws, "decode") == scan_text(tree, "decode")


def test_worker_processes_store_the_same_rows(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(STDLIB / "email", tree / "email", ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(batch_module, "POOL_MIN_FILES", 1)
    ws = Workspace.at(tree)
    stats = symbol_index(ws).refresh(workers=2)
    assert stats.parsed == stats.listed > 20
    for query in ("decode", "Message", "get_payload", "a"):
        assert index_text(ws, query) == scan_text(tree, query), query
