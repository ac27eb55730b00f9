"""The index workers' fast path stores exactly what a full scan gives: for real files of
several languages, the rows and the diagnostics `index.parse.parse_file` produces are
`rows_of` / `diagnostics_json` of the tools' own `scan` (signatures, doc comments,
bodies and all), and a parse of a file that did not change is still recognised."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from index_helpers import STDLIB, cache_dir_fixture  # noqa: F401  (fixture)

from simple_brief import languages
from simple_brief.defaults import DEFAULT_MAX_BYTES
from simple_brief.index.parse import Parsed, diagnostics_json, parse_chunk, parse_file, rows_of
from simple_brief.scan import scan
from simple_brief.source import Source

REPO = Path(__file__).resolve().parent.parent.parent
FIXTURES = REPO / "tests" / "fixtures" / "outline"
SITE = Path(sysconfig.get_paths()["purelib"])


def _real_files() -> list[Path]:
    """Real files of several languages: standard-library Python (small and large), C
    headers from /usr/include, JSON data files, this repository's Markdown."""
    files = [STDLIB / name for name in ("argparse.py", "textwrap.py", "json/decoder.py", "typing.py", "dataclasses.py")]
    files += [Path("/usr/include") / name for name in ("stdio.h", "stdlib.h", "string.h", "unistd.h")]
    json_files = sorted((STDLIB / "test").rglob("*.json"))[:4] + sorted(SITE.rglob("*.json"))[:6]
    files += json_files
    files += [REPO / "README.md", REPO / "CONTRIBUTING.md", REPO / "docs" / "mcp.md"]
    return [f for f in files if f.is_file()]


REAL = _real_files()
EVERY_LANGUAGE = sorted(FIXTURES.iterdir())


def _full(path: Path) -> tuple[str, list[tuple[object, ...]], str | None]:
    """The language, rows and diagnostics of the tools' full scan of `path`."""
    source = Source.from_bytes(path.read_bytes(), name=path.name)
    spec = languages.detect(path, None)
    outline = scan(source, spec)
    return spec.name, list(rows_of(outline)), diagnostics_json(outline)


def _indexed(path: Path) -> Parsed:
    stat = path.stat()
    return parse_file(path.parent, path.name, path.name, "", DEFAULT_MAX_BYTES, (stat.st_mtime_ns, stat.st_size))


def test_real_files_of_several_languages_are_found() -> None:
    """The pin below looks at every kind of file it names (a missing header or data file
    must not leave a language out unseen)."""
    suffixes = {p.suffix for p in REAL}
    assert {".py", ".md"} <= suffixes
    if Path("/usr/include/stdio.h").is_file():
        assert ".h" in suffixes
    if not any(p.suffix == ".json" for p in REAL):
        pytest.skip("no JSON file in the standard library's tests or site-packages")


@pytest.mark.parametrize("path", REAL + EVERY_LANGUAGE, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_stored_rows_are_the_full_scans(path: Path) -> None:
    language, rows, diagnostics = _full(path)
    parsed = _indexed(path)
    assert parsed.skipped is None
    assert parsed.language == language
    assert parsed.rows == rows
    assert parsed.diagnostics == diagnostics


def test_real_files_give_rows() -> None:
    """The files above are not trivially empty: the comparison compares definitions."""
    total = sum(len(_indexed(p).rows) for p in REAL)
    assert total > 1000


def test_a_chunk_with_the_same_content_twice_stores_it_twice(tmp_path: Path) -> None:
    """Two files of one content (a vendored copy) each get the full scan's rows."""
    text = (STDLIB / "textwrap.py").read_bytes()
    (tmp_path / "a.py").write_bytes(text)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "a.py").write_bytes(text)
    (tmp_path / "c.pyi").write_bytes(text)
    jobs = []
    for rel in ("a.py", "b/a.py", "c.pyi"):
        stat = (tmp_path / rel).stat()
        jobs.append((rel, rel, "", (stat.st_mtime_ns, stat.st_size)))
    out = parse_chunk(str(tmp_path), jobs, DEFAULT_MAX_BYTES)
    _, rows, diagnostics = _full(tmp_path / "a.py")
    assert [p.rel for p in out] == ["a.py", "b/a.py", "c.pyi"]
    assert out[0].rows == out[1].rows == rows
    assert out[0].diagnostics == out[1].diagnostics == diagnostics
    assert out[2].language == languages.detect(tmp_path / "c.pyi", None).name
    assert out[2].rows == _full(tmp_path / "c.pyi")[1]


def test_an_unchanged_file_is_recognised(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("def f():\n    return 1\n")
    first = _indexed(path)
    stat = path.stat()
    again = parse_file(tmp_path, "m.py", "m.py", first.hash, DEFAULT_MAX_BYTES, (stat.st_mtime_ns, stat.st_size))
    assert again.same and not again.rows


DEEP = "".join(f'{{"k{i}": ' for i in range(13)) + '{"leaf": 1}' + "}" * 13
JSON_CASES = {
    "plain": '{"name": "x", "nested": {"a": [1, {"in_array": 2}], "b": null, "c": true}, "n": 1.5}\n',
    "deep": '{"top": ' + DEEP + "}\n",
    "escapes": '{"a\\"b": 1, "tab\\tkey": {"\\u00e9t\\u00e9": 2}, "": {"under_empty": 3}, "  spaced  key ": 4}\n',
    "unicode": '{"clé": {"日本": "値", "x": [ "é" ]}, "b": 1}\n',
    "multiline": '{\n  "a": {\n    "b": [\n      1,\n      2\n    ],\n    "c": {}\n  },\n  "d": "e"\n}\n',
    "crlf": '{\r\n  "a": {\r\n    "b": 1\r\n  }\r\n}\r\n',
    "comments": '{\n  // the port\n  "port": 8080,\n  /* block */ "host": {"name": "h"}\n}\n',
    "comment_deeper": '{\n  "a": [\n    // in an array\n    1\n  ],\n  "b": {"c": 1}\n}\n',
    "broken": '{"a": {"b": 1,, "c": }, "d": [1, 2}\n',
    "two_documents": '{"a": 1}\n{"b": {"c": 2}}\n',
    "array_top": '[{"a": 1}, {"b": 2}]\n',
    "scalar_top": '"just a string"\n',
    "number_key": '{1: 2, "ok": 3}\n',
}


@pytest.mark.parametrize("name", sorted(JSON_CASES))
def test_json_keys_walk_gives_the_querys_rows(name: str, tmp_path: Path) -> None:
    """JSON keys read by walking the tree (`scan.json_keys`) are the outline query's: nested
    objects, 10 levels and no deeper, keys in arrays left out, escapes, non-ASCII columns,
    CRLF; comments, syntax errors and odd documents fall back to the query."""
    path = tmp_path / f"{name}.json"
    path.write_bytes(JSON_CASES[name].encode("utf-8"))
    language, rows, diagnostics = _full(path)
    parsed = _indexed(path)
    assert (parsed.language, parsed.rows, parsed.diagnostics) == (language, rows, diagnostics)


def test_json_keys_walk_is_used_and_stops_where_the_query_does() -> None:
    """The walk runs for plain JSON (the comparison above would not see it if it never
    did) and reads ten levels of keys, as the query does."""
    from tree_sitter import Parser

    from simple_brief.scan.json_keys import LEVELS, applies, json_symbols
    from simple_brief.scan.tree_index import Columns

    spec = languages.detect("x.json", None)
    assert applies(spec)
    source = Source(JSON_CASES["deep"])
    tree = Parser(languages.grammar(spec)).parse(source.data)
    keys = json_symbols(source, spec, tree, Columns(source))
    assert keys is not None
    assert [k.name for k in keys] == ["top", *(f"k{i}" for i in range(LEVELS - 1))]
    commented = Source(JSON_CASES["comments"])
    commented_tree = Parser(languages.grammar(spec)).parse(commented.data)
    assert json_symbols(commented, spec, commented_tree, Columns(commented)) is None
