"""A build of the symbol index stores, for every file, the rows and diagnostics the full
scan gives, however it got them: parsed in this process or by worker processes that
start while the tree is walked, or copied from an earlier file of the same name, size
and content (a vendored copy) — and a file of the same name and size but another content
is parsed, not copied."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from index_helpers import STDLIB, cache_dir_fixture, index_text, scan_text  # noqa: F401  (fixture)

from simple_brief import languages
from simple_brief.docs.db import content_hash
from simple_brief.files.workspace import Workspace
from simple_brief.index import SymbolIndex, symbol_index
from simple_brief.index import batch as batch_module
from simple_brief.index.batch import Batch
from simple_brief.index.parse import diagnostics_json, rows_of
from simple_brief.scan import scan
from simple_brief.source import Source

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(name="copies")
def copies_fixture(tmp_path: Path) -> Path:
    """Three copies of the json package (one with an edit that keeps every file's size),
    and textwrap twice."""
    root = tmp_path / "tree"
    for name in ("a", "b", "c"):
        shutil.copytree(STDLIB / "json", root / name / "json", ignore=shutil.ignore_patterns("__pycache__"))
    decoder = root / "c" / "json" / "decoder.py"
    text = decoder.read_text()
    assert "JSONObject" in text
    decoder.write_text(text.replace("JSONObject", "JSONObjekt"))  # same size, another content
    shutil.copy(STDLIB / "textwrap.py", root / "textwrap.py")
    shutil.copy(STDLIB / "textwrap.py", root / "a" / "textwrap.py")
    return root


def stored(index: SymbolIndex, rel: str) -> tuple[str, str, list[tuple[object, ...]], str | None]:
    """What the index holds for a file: hash, language, rows in insertion order, diagnostics."""
    conn = index.conn
    fid, digest, language, diagnostics = conn.execute(
        "SELECT id, hash, language, diagnostics FROM files WHERE path = ?", (rel,)
    ).fetchone()
    rows = conn.execute(
        "SELECT seq, walk, name, qual, container, kind, sl, sc, el, ec, ssl, ssc, sel, sec, preview, words"
        " FROM symbols WHERE file = ? ORDER BY rowid",
        (fid,),
    ).fetchall()
    return digest, language, rows, diagnostics


def assert_full_scan_rows(ws: Workspace) -> int:
    """Every listed file's stored rows are the full scan's; how many rows in all."""
    index = symbol_index(ws)
    count = 0
    for path in ws.files():
        rel = path.relative_to(ws.root).as_posix()
        spec = languages.detect(path, None)
        data = path.read_bytes()
        outline = scan(Source.from_bytes(data), spec)
        digest, language, rows, diagnostics = stored(index, rel)
        assert digest == content_hash(data), rel
        assert language == spec.name, rel
        assert rows == rows_of(outline), rel
        assert diagnostics == diagnostics_json(outline), rel
        count += len(rows)
    return count


def copied_files(ws: Workspace, docs: bool) -> set[str]:
    """The files a batch of every listed file would copy instead of parsing (for a store
    with its docs index, or without)."""
    with Batch(ws.root, ws.max_bytes, False if docs else None, 1) as batch:
        for path in ws.files():
            rel = path.relative_to(ws.root).as_posix()
            stat = path.stat()
            batch.add((rel, rel, "", (stat.st_mtime_ns, stat.st_size)))
        return {entry[0][0] for entry in batch.order if isinstance(entry, tuple)}


def test_copies_are_told_from_files_of_the_same_name_and_size(copies: Path) -> None:
    """Only files the docs index does not read are copied: a documented file's doc items
    name its own path and module, so a copy of it is parsed (once, for both indexes)."""
    schemas = REPO / "node_modules" / "ajv" / "lib" / "refs"
    for name in ("a", "b"):
        shutil.copytree(schemas, copies / name / "refs")
    ws = Workspace.at(copies)
    copied = copied_files(ws, docs=True)
    expected = {f"b/refs/{p.name}" for p in schemas.iterdir() if p.suffix == ".json"}
    assert len(expected) > 3 and not any(languages.documented(rel) for rel in expected)
    assert copied == expected
    copied = copied_files(ws, docs=False)  # without doc items, the Python files are copied too
    expected |= {p.relative_to(copies).as_posix() for p in (copies / "b" / "json").iterdir() if p.is_file()}
    expected |= {p.relative_to(copies).as_posix() for p in (copies / "c" / "json").iterdir() if p.is_file()}
    expected -= {"c/json/decoder.py"}
    expected.add("textwrap.py")  # "a/textwrap.py" comes first in the walk
    assert copied == expected


@pytest.mark.parametrize("workers", [1, 2])
def test_every_file_holds_the_full_scans_rows(copies: Path, workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_module, "POOL_MIN_FILES", 1)
    monkeypatch.setattr(batch_module, "CHUNK_FILES", 3)
    ws = Workspace.at(copies)
    stats = symbol_index(ws).refresh(workers=workers)
    assert stats.parsed == stats.listed == 17
    assert assert_full_scan_rows(ws) > 300
    assert stored(symbol_index(ws), "a/json/decoder.py")[2] == stored(symbol_index(ws), "b/json/decoder.py")[2]
    assert stored(symbol_index(ws), "a/json/decoder.py")[2] != stored(symbol_index(ws), "c/json/decoder.py")[2]
    for query in ("JSONObject", "JSONObjekt", "decode", "TextWrapper"):
        assert index_text(ws, query) == scan_text(copies, query), query


def test_a_copy_edited_later_is_parsed_again(copies: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch_module, "POOL_MIN_FILES", 1)
    ws = Workspace.at(copies)
    symbol_index(ws).refresh(workers=2)
    scanner = copies / "b" / "json" / "scanner.py"
    scanner.write_text(scanner.read_text() + "\n\ndef added_later():\n    pass\n")
    (copies / "c" / "json" / "decoder.py").write_bytes((copies / "a" / "json" / "decoder.py").read_bytes())
    stats = symbol_index(ws).refresh(workers=2)
    assert sorted(stats.changed) == ["b/json/scanner.py", "c/json/decoder.py"]
    assert_full_scan_rows(ws)
    assert "added_later" in index_text(ws, "added_later")


def test_the_workers_run_a_bounded_number_of_chunks_ahead_of_the_one_stored(
    copies: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Parsed chunks wait in memory until their turn to be stored, which comes only after the
    walk: the walk hands out `AHEAD_CHUNKS`, the rest go out as chunks are stored."""
    monkeypatch.setattr(batch_module, "POOL_MIN_FILES", 1)
    monkeypatch.setattr(batch_module, "CHUNK_FILES", 2)
    monkeypatch.setattr(batch_module, "AHEAD_CHUNKS", 3)
    ws = Workspace.at(copies)
    order = []
    with Batch(ws.root, ws.max_bytes, False, 2) as batch:
        for path in ws.files():
            rel = path.relative_to(copies).as_posix()
            stat = path.stat()
            batch.add((rel, rel, "", (stat.st_mtime_ns, stat.st_size)))
            order.append(rel)
        assert len(batch.jobs) > 12 and len(batch.futures) == 3
        stored: list[str] = []
        batch.finish(symbol_index(ws).conn, lambda parsed: stored.extend(p.rel for p in parsed), None)
    assert stored == order
