"""One file store for both indexes: every listed file is parsed once, by the store, for its
symbol rows and its doc items (the docs index parses nothing of the workspace's files
itself), one changed file is parsed once more, and the store's watcher keeps the docs
index current without a walk."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from index_helpers import cache_dir_fixture, eventually, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.docs import db, indexing
from simple_brief.files.workspace import Workspace
from simple_brief.index import close_symbol_index, docs_index, parse, symbol_index
from simple_brief.scan import Outline
from simple_brief.source import Source

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(name="scans")
def scans_fixture(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """Every scan of a file, by who asked: the file store (`index.parse`) or the docs index
    (`docs.indexing`), as the texts scanned (`texts` names them)."""
    seen: dict[str, list[str]] = {"store": [], "docs": []}
    for who, module in (("store", parse), ("docs", indexing)):
        real = module.scan

        def counted(
            text: str | Source, *args: object, real: Callable[..., Outline] = real, who: str = who, **kw: object
        ) -> Outline:
            seen[who].append(text.text if isinstance(text, Source) else text)
            return real(text, *args, **kw)

        monkeypatch.setattr(module, "scan", counted)
    return seen


@pytest.fixture(name="polyglot")
def polyglot_fixture(tree: Path) -> Path:
    """The standard-library tree of the index tests, with JSON, Markdown and JavaScript
    files of an npm package (acorn) beside it."""
    shutil.copytree(REPO / "node_modules" / "acorn", tree / "npm" / "acorn")
    return tree


def listed(ws: Workspace) -> list[str]:
    return sorted(p.relative_to(ws.root).as_posix() for p in ws.files())


def texts(ws: Workspace, scanned: list[str]) -> list[str]:
    """The files (relative paths) whose texts were scanned, as often as they were (files of
    the same text named together)."""
    by_text: dict[str, list[str]] = {}
    for rel in listed(ws):
        by_text.setdefault(Source.from_bytes((ws.root / rel).read_bytes()).text, []).append(rel)
    return sorted(" = ".join(by_text.get(text, ["(not a listed file)"])) for text in scanned)


def each_once(ws: Workspace) -> list[str]:
    """`texts` of a scan of every listed file once."""
    return texts(ws, [Source.from_bytes((ws.root / rel).read_bytes()).text for rel in listed(ws)])


def test_each_file_is_parsed_once_for_both_indexes(polyglot: Path, scans: dict[str, list[str]]) -> None:
    ws = Workspace.at(polyglot)
    docs = docs_index(ws)
    stats = docs.refresh()
    files = listed(ws)
    assert len(files) > 10 and any(f.endswith(".json") for f in files) and any(f.endswith(".md") for f in files)
    assert texts(ws, scans["store"]) == each_once(ws)  # symbol rows and doc items from one parse
    assert scans["docs"] == []
    assert stats.files_indexed > 5 and stats.items > 50
    assert docs.get("json.decoder.JSONDecoder") is not None  # the items came through the store


def test_one_changed_file_is_parsed_once_more(polyglot: Path, scans: dict[str, list[str]]) -> None:
    ws = Workspace.at(polyglot)
    docs = docs_index(ws)
    docs.refresh()
    scans["store"].clear()
    target = polyglot / "json" / "tool.py"
    target.write_text(target.read_text() + '\n\ndef added_once():\n    """Added later."""\n')
    stats = docs.refresh()
    assert texts(ws, scans["store"]) == ["json/tool.py"] and scans["docs"] == []
    assert stats.files_indexed == 1
    assert docs.get("json.tool.added_once") is not None
    assert symbol_index(ws).ensure_fresh().parsed == 0  # the symbol index saw it too: nothing left


@pytest.fixture(name="no_walk")
def no_walk_fixture(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[], None]]:
    """Call it to make any walk of the tree from then on fail the test."""

    def forbid() -> None:
        def walked(*_args: object, **_kw: object) -> Iterator[Path]:
            raise AssertionError("the tree was walked")

        monkeypatch.setattr(Workspace, "files", walked)

    yield forbid


def test_the_stores_watcher_keeps_the_docs_index_current_without_a_walk(
    tree: Path, no_walk: Callable[[], None]
) -> None:
    ws = Workspace.at(tree)
    store = symbol_index(ws)
    try:
        assert store.watch()
        docs = docs_index(ws)
        docs.refresh()
        no_walk()
        (tree / "watched.py").write_text('def seen_by_docs():\n    """Told by the watcher."""\n')
        assert eventually(lambda: docs.refresh() is not None and docs.get("watched.seen_by_docs") is not None)
        assert store.file_state("watched.py") is not None
    finally:
        store.close()


def test_a_busy_docs_database_leaves_the_symbol_index_whole_and_the_next_docs_call_catches_up(
    tree: Path, scans: dict[str, list[str]]
) -> None:
    ws = Workspace.at(tree)
    store = symbol_index(ws)
    docs = docs_index(ws)
    holder = sqlite3.connect(docs.path, timeout=0)
    holder.execute("BEGIN IMMEDIATE")  # another process writing the docs database meanwhile
    try:
        stats = store.ensure_fresh()
    finally:
        holder.rollback()
        holder.close()
    assert stats.parsed == len(listed(ws)) and "JSONDecoder" in {
        n for (n,) in store.conn.execute("SELECT name FROM symbols")
    }
    assert docs.get("json.decoder.JSONDecoder") is None  # not written: the database was busy
    scans["store"].clear()
    docs.refresh()
    assert docs.get("json.decoder.JSONDecoder") is not None
    assert scans["store"] == [] and len(scans["docs"]) == len(listed(ws))  # read again by the docs index, once


def test_search_alone_makes_no_doc_items_and_the_first_docs_call_reads_what_it_lacks(
    tree: Path, scans: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    extracted: list[str] = []
    real_extract = parse.extract
    monkeypatch.setattr(parse, "extract", lambda *a, **kw: extracted.append(a[1]) or real_extract(*a, **kw))
    ws = Workspace.at(tree)
    store = symbol_index(ws)
    assert store.ensure_fresh().parsed == len(listed(ws))
    assert extracted == [] and store.docs is None  # nobody asked for docs: none made
    assert not db.db_path(ws.root).exists()

    scans["store"].clear()
    docs = docs_index(ws)
    stats = docs.refresh()
    assert docs.get("json.decoder.JSONDecoder") is not None and stats.files_indexed == len(listed(ws))
    assert scans["store"] == [] and texts(ws, scans["docs"]) == each_once(ws)  # read once, by the docs index

    # A later process finds the docs database and has the store hand the items again: one parse.
    close_symbol_index(ws)
    again = Workspace.at(tree)
    scans["docs"].clear()
    (tree / "json" / "tool.py").write_text((tree / "json" / "tool.py").read_text() + "\n\ndef later():\n    pass\n")
    assert symbol_index(again).docs is not None
    docs_index(again).refresh()
    assert texts(again, scans["store"]) == ["json/tool.py"] and scans["docs"] == []
    assert docs_index(again).get("json.tool.later") is not None
    close_symbol_index(again)
