"""Workspace symbol search: case-insensitive substring plus word-aware fuzzy ranking.

Names are compared as words (`findUser`, `find_user` and `FindUser` are all
`find user`), so a query in any case style finds the others; rapidfuzz scores near
misses; a dotted query (`User.greet`) matches the qualified name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz import fuzz

from simple_brief.model import Symbol, SymbolKind

#: Fuzzy scores (0-100) below this are not matches.
FUZZY_THRESHOLD = 80
#: The best `score` of a name that holds an undotted query after its first character and
#: whose words are not the query's (the substring rule at a word start, 80 - 0.2·offset).
INNER_BEST = 80.0
_CAMEL1 = re.compile(r"([a-z0-9])([A-Z])")
_CAMEL2 = re.compile(r"([A-Z]+)([A-Z][a-z])")
_NON_WORD = re.compile(r"[^0-9A-Za-z]+")
#: Ties go to the kinds people search for most.
KIND_BONUS = {
    SymbolKind.Class: 3,
    SymbolKind.Interface: 3,
    SymbolKind.Struct: 3,
    SymbolKind.Enum: 2,
    SymbolKind.Function: 3,
    SymbolKind.Method: 2,
    SymbolKind.Constructor: 1,
}


@lru_cache(maxsize=65536)
def words(name: str) -> tuple[str, ...]:
    """`parseHTTPResponse_v2` -> ('parse', 'http', 'response', 'v2')."""
    spaced = _CAMEL2.sub(r"\1 \2", _CAMEL1.sub(r"\1 \2", name))
    return tuple(w.lower() for w in _NON_WORD.split(spaced) if w)


def score(query: str, name: str, qualified: str = "", name_words: tuple[str, ...] | None = None) -> float:
    """Rank of `name` for `query` (0 = no match, 100 = exact); `name_words` is `words(name)`
    when the caller has it already."""
    q = query.strip().lower()
    n = name.lower()
    if not q:
        return 0.0
    if "." in q or "::" in q:
        target = qualified.lower() or n
        if target == q or target.endswith("." + q):
            return 100.0
        if q in target:
            return 80.0
    if n == q:
        return 100.0
    qw, nw = words(query), name_words if name_words is not None else words(name)
    if qw and qw == nw:
        return 97.0
    if n.startswith(q):
        return 90.0 - min(len(n) - len(q), 20) * 0.1
    if q in n:
        at = n.index(q)
        return (80.0 if _at_word_start(name, at) else 55.0) - min(at, 20) * 0.2
    if qw and _words_in_order(qw, nw):
        return 75.0
    if len(q) >= 2 and "".join(w[0] for w in nw).startswith(q):
        return 70.0
    if len(q) >= 3:
        fuzzy = fuzz.ratio(" ".join(qw), " ".join(nw))
        if fuzzy >= FUZZY_THRESHOLD:
            return fuzzy * 0.65
    return 0.0


def _at_word_start(name: str, at: int) -> bool:
    """Whether index `at` of `name` begins a word (`find_User`, `findUser`: yes; `exitStatUserror`: no)."""
    if at == 0:
        return True
    before, here = name[at - 1], name[at]
    return not before.isalnum() or (before.islower() and here.isupper()) or (before.isdigit() != here.isdigit())


def _words_in_order(query_words: tuple[str, ...], name_words: tuple[str, ...]) -> bool:
    """Every query word is a prefix of a later name word, in order (`get usr` ~ `getUserName`)."""
    i = 0
    for w in name_words:
        if i < len(query_words) and w.startswith(query_words[i]):
            i += 1
    return i == len(query_words)


def rank_symbols(query: str, symbols: Iterable[tuple[Symbol, str]]) -> list[tuple[float, Symbol]]:
    """(score, symbol) pairs that match, best first; `symbols` pairs each with its qualified name."""
    found = []
    for sym, qualified in symbols:
        s = score(query, sym.name, qualified)
        if s > 0:
            found.append((s + KIND_BONUS.get(sym.kind, 0) * 0.01, sym))
    found.sort(key=lambda pair: -pair[0])
    return found
