"""The name table's candidates never miss a name `symbol_search.score` accepts, and the
fuzzy prefilter (`_CharBags`) keeps every word string rapidfuzz would find, on the names
of real standard-library packages and on made-up strings (non-ASCII, long, repeated)."""

from __future__ import annotations

import random
import shutil

import pytest
from index_helpers import STDLIB, cache_dir_fixture  # noqa: F401  (fixtures)
from rapidfuzz import fuzz, process

from simple_brief.files.workspace import Workspace
from simple_brief.index import symbol_index
from simple_brief.index.names import Names, _CharBags
from simple_brief.index.symbol_search import FUZZY_THRESHOLD, score, words

PACKAGES = ("json", "email", "asyncio", "unittest", "xml", "http")
#: Queries of every shape: names, partial words, other case styles, typos, 1-2 letters, dots.
QUERIES = [
    "a",
    "x",
    "_",
    "md",
    "ge",
    "get",
    "init",
    "__init__",
    "decode",
    "JSONDecoder",
    "json_decoder",
    "jsondecoder",
    "jsndecoder",
    "decoedr",
    "raw_decode",
    "rawDecode",
    "RawDecode",
    "get_event_loop",
    "getEventLoop",
    "get_evnt_loop",
    "gtEventLop",
    "event loop",
    "EventLoop",
    "eventloop",
    "evntloop",
    "BaseEventLoop",
    "base_event_loop",
    "create_task",
    "craete_task",
    "task",
    "Future",
    "futrue",
    "header",
    "headr",
    "HeaderRegistry",
    "header_registry",
    "mime",
    "MIMEText",
    "mime_text",
    "parse",
    "prase",
    "policy",
    "polcy",
    "utils",
    "quopri",
    "base64",
    "b64",
    "7bit",
    "run_until_complete",
    "rununtilcomplete",
    "run_untill_complet",
    "ssl",
    "SSLProto",
    "sslproto",
    "transport",
    "trnasport",
    "Transport.close",
    "loop.run",
    "Message.get",
    "xyzzy_nothing",
    "---",
    "σίσυ",
]


@pytest.fixture(scope="module", name="table")
def table_fixture(tmp_path_factory: pytest.TempPathFactory) -> Names:
    """The name table of an index of a few standard-library packages (PACKAGES)."""
    base = tmp_path_factory.mktemp("names")
    for name in PACKAGES:
        shutil.copytree(STDLIB / name, base / "tree" / name, ignore=shutil.ignore_patterns("__pycache__"))
    index = symbol_index(Workspace.at(base / "tree"), base / "cache")
    index.refresh(workers=1)
    table = index.names()
    index.close()
    return table


def typos(table: Names, count: int) -> list[str]:
    """Names of the table with one to three characters changed, dropped or doubled."""
    rng = random.Random(15)
    names = sorted(n for n in table.files if len(n) >= 3)
    out = []
    for _ in range(count):
        chars = list(rng.choice(names))
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars))
            change = rng.randrange(3)
            if change == 0:
                chars[at] = rng.choice("aeiostxz_")
            elif change == 1 and len(chars) > 3:
                del chars[at]
            else:
                chars.insert(at, chars[at])
        out.append("".join(chars))
    return out


def test_candidates_hold_every_name_score_accepts(table: Names) -> None:
    assert len(table.files) > 3000
    for query in QUERIES + typos(table, 150):
        candidates = set(table.candidates(query))
        accepted = {n for n in table.files if score(query, n, name_words=table.words_of(n)) > 0}
        assert accepted <= candidates, (query, sorted(accepted - candidates)[:5])


def test_near_words_are_those_rapidfuzz_finds_among_all(table: Names) -> None:
    found = 0
    for query in QUERIES + typos(table, 300):
        joined = " ".join(words(query))
        if len(joined) >= 3:
            near = table._near(joined)
            assert near == table._near(joined, plain=True), query
            found += len(near)
    assert found > 300


def plain_near(items: list[str], query: str, shortest: int, longest: int, among: list[int] | None = None) -> set[int]:
    """Indexes of the items (`among` these) of a length in range whose ratio with `query`
    reaches the cutoff."""
    chosen = [i for i in (range(len(items)) if among is None else among) if shortest <= len(items[i]) <= longest]
    hits = process.extract(
        query, [items[i] for i in chosen], scorer=fuzz.ratio, score_cutoff=FUZZY_THRESHOLD, limit=None
    )
    return {chosen[i] for _, _, i in hits}


def test_char_bags_keep_every_string_rapidfuzz_finds() -> None:
    rng = random.Random(22)
    alphabet = "abcde xyz019"
    items = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(3000)]
    items += ["aaaaaaa", "aaaa aaa", "ééé abc", "naïve set", "x" * 300, "x" * 299 + "y", ""]
    items.sort(key=len)
    bags = _CharBags(items, FUZZY_THRESHOLD)
    queries = [rng.choice(items) for _ in range(200)]
    queries += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 12))) for _ in range(200)]
    queries += ["aaaaaa", "naive set", "ééé abd", "x" * 290, "abc", "a"]
    kept_in_all = 0
    for query in queries:
        shortest, longest = len(query) * 2 // 3, -(-len(query) * 3 // 2)
        kept = bags.near(query, shortest, longest)
        assert len(kept) == len(set(kept))
        want = plain_near(items, query, shortest, longest)
        assert want <= set(kept), (query, [items[i] for i in want - set(kept)])
        got = plain_near(items, query, shortest, longest, among=kept)
        assert got == want
        kept_in_all += len(kept)
    # The filter leaves out most strings (else it would be no faster than comparing all).
    assert kept_in_all < len(queries) * len(items) / 4
