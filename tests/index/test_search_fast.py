"""The indexed search's shortcuts keep the full scan's answers: names that hold the query
after their start are ranked only when they could be shown (`Lookup.inner`, at most
`INNER_BEST`), substrings come from a trigram index, counts from the name table — on real
standard-library packages for names, partial words, case styles, typos, 1-2 letters and
dotted names, at several limits; and on made-up names (quotes, spaces, non-ASCII, text
that is not UTF-8)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from index_helpers import STDLIB, answer_text, cache_dir_fixture  # noqa: F401  (fixtures)
from test_names import QUERIES

from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index
from simple_brief.index.answer import find_symbols
from simple_brief.index.names import REBUILD_AFTER, Names
from simple_brief.index.query import full_scan
from simple_brief.index.symbol_search import INNER_BEST, score, words

#: Queries whose names mostly hold them after their start (so the inner names do or do not
#: reach the top, depending on the limit).
INNER = ["ode", "essage", "oder", "ception", "ask", "ransport", "ailed", "eader", "ser", "str", "ing", "ed", "er"]


@pytest.fixture(scope="module", name="packages")
def packages_fixture(tmp_path_factory: pytest.TempPathFactory) -> tuple[Workspace, Workspace]:
    """An indexed workspace of the json, email and asyncio packages (and a file of names
    without words), and one to scan."""
    root = tmp_path_factory.mktemp("search") / "tree"
    for name in ("json", "email", "asyncio"):
        shutil.copytree(STDLIB / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    # Names without words (a query without words is near them: the ratio of "" and "" is 100).
    (root / "odd.py").write_text("def _():\n    pass\n\n\nclass __:\n    def ___(self):\n        pass\n")
    ws = Workspace.at(root)
    symbol_index(ws, tmp_path_factory.mktemp("cache")).refresh(workers=1)
    scanned = Workspace.at(root)
    scanned.cache_limit = 10_000  # every file parsed once
    return ws, scanned


def test_answers_match_the_full_scan(packages: tuple[Workspace, Workspace]) -> None:
    ws, scanned = packages
    for query in QUERIES + INNER:
        for limit in (50, 7, 1):
            got = find_symbols(ws, query, limit=limit)
            want = full_scan(scanned, query, None, None, limit, ws.display)
            assert answer_text(query, got) == answer_text(query, want), (query, limit)


def test_a_limit_of_0_gives_the_counts_only(packages: tuple[Workspace, Workspace]) -> None:
    ws, scanned = packages
    for query in ("decode", "ode", "Future"):
        got = find_symbols(ws, query, limit=0)
        want = full_scan(scanned, query, None, None, 0, ws.display)
        assert (got.matches, got.total, got.files) == ([], want.total, want.files) != ([], 0, 0), query


def test_a_folder_scope_matches_the_full_scan(packages: tuple[Workspace, Workspace]) -> None:
    ws, scanned = packages
    for query in ("ode", "get", "Future", "header", "loop"):
        for path in ("email", "asyncio/"):
            got = find_symbols(ws, query, path=path, limit=10)
            want = full_scan(scanned, query, path, None, 10, ws.display)
            assert answer_text(query, got) == answer_text(query, want), (query, path)


def check_lookup(table: Names, query: str) -> None:
    """The lookup never misses a name score accepts; its inner names match, at most INNER_BEST."""
    found = table.lookup(query)
    inner = table.names_of(found.inner)
    assert not set(inner) & set(found.scored), query
    accepted = {n for n in table.files if score(query, n, name_words=table.words_of(n)) > 0}
    assert accepted <= set(found.scored) | set(inner), (query, sorted(accepted - set(found.scored) - set(inner)))
    for name in inner:
        assert 0 < score(query, name, name_words=table.words_of(name)) <= INNER_BEST, (query, name)


def test_inner_names_match_at_most_inner_best(packages: tuple[Workspace, Workspace]) -> None:
    table = symbol_index(packages[0]).names()
    inner = 0
    for query in QUERIES + INNER:
        check_lookup(table, query)
        inner += len(table.lookup(query).inner)
    assert inner > 1000


ODD = [
    "matmat",
    "xmat",
    "x mat",
    "Mat",
    'say "mat"',
    "a*mat?",
    "İstanbul",
    "straße",
    "ΣΊΣΥΦΟΣ",
    "naïve_mat",
    "mat\udcffbroken",
    "bro\udcffken_mat",
    "\udcff",
    "emoji_😀_mat",
    "marked\x01mat",
    "## Heading with spaces",
    "Heading",
    "a",
    "aa",
    "mat",
    "",
]


def test_made_up_names() -> None:
    rows = [(name, " ".join(words(name)), i % 4) for i, name in enumerate(ODD * 2)]  # files 0-3
    table = Names(rows)
    queries = ["mat", "at", "t", "mat?", '"mat"', "x m", "bro\udcffken", "\udcff", "istanbul", "i̇stan", "straß"]
    queries += ["ße", "σίσυ", "😀", "😀_m", "## heading", "heading with", "aa", "a", "ma", "matm", "ken_mat"]
    queries += ["\x01m", "d\x01", "d\x01ma", "\x01mat", "ed\x01", "at", "x ", " m", "😀_"]
    for query in queries:
        check_lookup(table, query)
    inner = table.lookup("broken").inner
    counted = {"mat", "xmat", *table.names_of(inner)}
    assert len(counted) == 3
    want = [file for name, _, file in rows if name in counted]
    assert table.tally(["mat", "xmat"], inner) == (len(want), len(set(want)))
    assert len(want) == 6 and len(set(want)) > 2


def test_names_dropped_and_added_again_keep_their_counts(tmp_path: Path) -> None:
    """A name whose last symbol goes, then comes back (its file-id list is reused), and
    names new since the table was built, are counted and ranked as the full scan does."""
    root = tmp_path / "tree"
    shutil.copytree(STDLIB / "json", root / "json", ignore=shutil.ignore_patterns("__pycache__"))
    ws = Workspace.at(root)
    queries = [
        "decode",
        "ode",
        "scanstring",
        "make_scanner",
        "ake_scan",
        "py_make_scanner",
        "brand_new",
        "new",
        "and_ne",
        "xx",
    ]

    def same() -> None:
        scanned = Workspace.at(root)
        for query in queries:
            assert answer_text(query, find_symbols(ws, query)) == answer_text(
                query, full_scan(scanned, query, None, None, 50, ws.display)
            ), query

    same()
    scanner = root / "json" / "scanner.py"
    original = scanner.read_text()
    scanner.write_text(original.replace("def py_make_scanner", "def py_make_scanner_gone"))
    (root / "new.py").write_text("def brand_new_decode():\n    pass\n\n\nclass XxDecoder:\n    pass\n")
    same()
    scanner.write_text(original)
    (root / "new.py").write_text("def brand_new_decode():\n    pass\n\n\ndef py_make_scanner():\n    pass\n")
    same()


def test_names_added_before_and_after_a_rebuild() -> None:
    rows = [(name, " ".join(words(name)), i % 4) for i, name in enumerate(ODD)]
    table = Names(rows)
    table.add([f"added_{i}_mat" for i in range(100)] + ["xmat"], 5)
    file_of = {name: file for name, _, file in rows}
    table.remove(["mat"], file_of["mat"])
    table.remove(["x mat"], file_of["x mat"])
    for query in ("mat", "at", "added", "d_1", "_mat", "xmat", "x mat", "1_m"):
        check_lookup(table, query)
    table.add([f"more_{i}_xmat" for i in range(REBUILD_AFTER)], 6)  # rebuilt
    table.add(["mat"], 6)
    for query in ("mat", "at", "added", "d_1", "_mat", "xmat", "x mat", "1_m", "more", "e_1"):
        check_lookup(table, query)
    found = table.lookup("mat")
    counted = set(found.scored) | set(table.names_of(found.inner))
    want = [file for name, files in table.files.items() if name in counted for file in files]
    assert table.tally(found.scored, found.inner) == (len(want), len(set(want)))
    assert len(want) > REBUILD_AFTER
