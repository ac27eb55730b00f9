"""The indexed search answers exactly as today's full scan does: the same matches, in the
same order, with the same counts and previews, on the outline fixtures (every language)
and on real standard-library files, for names, partial words, case styles and dotted names."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from index_helpers import STDLIB, answer_text, cache_dir_fixture, index_text, scan_text, tree_fixture  # noqa: F401  (fixtures)

from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index
from simple_brief.index.answer import find_symbols
from simple_brief.index.query import full_scan
from simple_brief.model import SymbolKind

FIXTURES = Path(__file__).parent.parent / "fixtures" / "outline"
QUERIES = [
    "user",
    "User",
    "parse",
    "Parser",
    "get",
    "json",
    "decode",
    "decode_value",
    "init",
    "__init__",
    "Enc",
    "JSONDecoder.decode",
    "Decoder.raw_decode",
    "fooz",
    "greet",
    "User.greet",
    "http_conn",
    "HTTPConn",
    "scan once",
    "a",
    "x",
    "md",
    "loads",
    "wrap",
    "TextWrapper",
    "text_wrapper",
    "tw",
    "shlex",
    "split",
    "quote",
    "main",
    "Point",
    "point",
    "area",
    "new",
    "String",
    "to_string",
    "tostr",
    "fnmatch",
    "filter",
    "make_scanner",
    "py_scanstring",
    "scanstr",
    "Animal",
    "speak",
    "xyzzy_nothing",
    "JSONEncoder.iterencode",
    "Encoder.iter",
    "iterencode.floatstr",
    "TextWrapper.",
    "a.b",
    "shlex.split",
    "Wrapper._split",
    "Decoder::decode",
]


@pytest.fixture
def mixed(tree: Path) -> Path:
    shutil.copytree(FIXTURES, tree / "fixtures")
    shutil.copytree(STDLIB / "email" / "mime", tree / "mime", ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def test_search_answers_match_the_full_scan(mixed: Path) -> None:
    ws, scanned = Workspace.at(mixed), Workspace.at(mixed)
    for query in QUERIES:
        for limit in (50, 3):
            assert index_text(ws, query, limit=limit) == scan_text(scanned, query, limit=limit), (query, limit)


def test_a_folder_scope_matches_the_full_scan(mixed: Path) -> None:
    ws, scanned = Workspace.at(mixed), Workspace.at(mixed)
    for query in ("decode", "init", "Point", "a"):
        for path in ("json", "fixtures", "mime/"):
            assert index_text(ws, query, path) == scan_text(scanned, query, path), (query, path)


def test_one_file_and_an_ignored_folder_are_scanned_as_before(mixed: Path) -> None:
    (mixed / ".gitignore").write_text("mime/\n")
    ws = Workspace.at(mixed)
    for path in ("json/decoder.py", "mime", "mime/text.py"):
        assert index_text(ws, "init", path) == scan_text(mixed, "init", path), path
    assert "Found 0 matches" not in index_text(ws, "init", "mime/text.py")
    assert "mime" not in index_text(ws, "init")


def test_kinds_and_an_empty_query_match_the_full_scan(mixed: Path) -> None:
    ws, scanned = Workspace.at(mixed), Workspace.at(mixed)
    symbol_index(ws).refresh()
    for query in ("", "init", "Point", "e"):
        for kinds in ({SymbolKind.Class}, {SymbolKind.Function, SymbolKind.Method}):
            for limit in (50, 4):
                got = find_symbols(ws, query, kinds=kinds, limit=limit)
                want = full_scan(scanned, query, None, kinds, limit, ws.display)
                assert answer_text(query, got) == answer_text(query, want), (query, kinds, limit)


def test_the_search_tool_answers_from_the_index(mixed: Path) -> None:
    from simple_brief import tools as registry

    ws = Workspace.at(mixed)
    search = registry.load()["search"]
    result = search.func(registry.Call(ws), query="decode")
    assert "\n\n".join(result.blocks) == scan_text(mixed, "decode")
    assert symbol_index(ws).refresh().parsed == 0
