"""How search ranks: query words as FTS5 expressions, bm25-ranked stages each within a
time budget, the lookup of items a query names, search filters and snippets. Functions of
an open connection to the docs database (`docs.db`); `docs.queries` puts them together.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from simple_brief.docs import db

#: Left out of the any-term (OR) stage of a search.
STOPWORDS = frozenset(
    "a an and are as at be by for from in into is it of on or the to with".split()  # noqa: SIM905
)
#: Time for the ranked all-terms FTS stage of a search, and for each fallback stage, in ms.
STAGE_BUDGET_MS = 5.0
FALLBACK_BUDGET_MS = 2.5
#: Budget of each every-word-but-one stage (after the any-word stage ran out of time).
MOST_TERMS_BUDGET_MS = 2.5
#: A query that is one identifier, possibly qualified (`pkg.mod.name`, `Type::method`).
IDENT = re.compile(r"^[\w$.:#/<>\-]+$")
#: What separates the parts of a qualified id in any language's notation.
SEPARATORS = re.compile(r"::|[.:#/]")


def spellings(name: str) -> list[str]:
    """Lower-case spellings of a name to look up: as given, snake_case, and joined (`parseHeader`
    -> `parseheader`, `parse_header`)."""
    parts = [p.lower() for chunk in re.split(r"[_\W]+", name) for p in db.camel_parts(chunk)]
    return list(dict.fromkeys([name.lower(), "_".join(parts), "".join(parts)]))


def query_terms(query: str) -> list[str]:
    """Plain words of a free-text query (FTS syntax characters dropped), identifiers kept whole."""
    return [t for t in re.findall(r"\w+", query) if t][:32]


def fts_term(term: str) -> str:
    """One term as an FTS5 expression: quoted (so no syntax), or its camelCase parts as a phrase too."""
    parts = db.camel_parts(term)
    if len(parts) > 1 and "_" not in term:
        return f'("{term}" OR "{" ".join(parts)}")'
    return f'"{term}"'


@contextmanager
def time_budget(conn: sqlite3.Connection, ms: float) -> Iterator[None]:
    """Interrupt the statement run inside (sqlite3.OperationalError "interrupted") after `ms`."""
    deadline = time.perf_counter() + ms / 1000
    conn.set_progress_handler(lambda: int(time.perf_counter() > deadline), 1000)
    try:
        yield
    finally:
        conn.set_progress_handler(None, 0)


def filters(kind: str | None, module: str | None, library: str | None) -> tuple[str, list[Any]]:
    """`AND …` conditions on the items table (aliased `i`) for search filters, and their arguments."""
    where, args = "", list[Any]()
    if kind:
        where += " AND i.kind = ?"
        args.append(kind)
    if module:
        where += " AND (i.module = ? OR i.id = ? OR substr(i.module, 1, ?) IN (?, ?, ?))"
        n = len(module)
        args += [module, module, n + 1, module + ".", module + "/", module + ":"]
    if library:
        where += " AND i.library = ?"
        args.append(library)
    return where, args


def snippets(conn: sqlite3.Connection, rowids: list[int], terms: list[str]) -> dict[int, str]:
    """FTS5 body snippets of the returned rows (computed for those rows only)."""
    if not rowids or not terms:
        return {}
    marks = ",".join("?" * len(rowids))
    try:
        rows = conn.execute(
            f"SELECT rowid, snippet(items_fts, 3, '', '', '…', 16) FROM items_fts WHERE items_fts MATCH ? "
            f"AND rowid IN ({marks})",
            (" OR ".join(f'"{t}"' for t in terms), *rowids),
        )
        return {row[0]: row[1] for row in rows}
    except sqlite3.OperationalError:
        return {}


def fts_rank(
    conn: sqlite3.Connection,
    terms: list[str],
    where: str,
    args: list[Any],
    limit: int,
    scored: dict[int, float],
    identifier: bool,
) -> None:
    """bm25-ranked FTS5 matches into `scored`, each stage within a time budget.

    Ranking every match costs a few microseconds per matching item, so a word found in
    most items (`return`) cannot be ranked over all of them in time. Stages: every term
    (AND) in every column, ranked; if that runs out of time, every term in the name
    column, ranked, then in the summary column, ranked or else the first matches
    unranked; then, when fewer than `limit` were found and the query is not an
    identifier that named items, any term (OR), or when that runs out of time, every
    term but one, ranked, then any term unranked. Earlier stages rank above later ones."""
    table = "items_fts f JOIN items i ON i.rowid = f.rowid" if where else "items_fts f"
    ranked = f"SELECT f.rowid, f.rank FROM {table} WHERE items_fts MATCH ?{where} ORDER BY f.rank LIMIT ?"
    unranked = f"SELECT f.rowid, 0.0 FROM {table} WHERE items_fts MATCH ?{where} LIMIT ?"
    every = " AND ".join(fts_term(t) for t in terms)
    if _stage(conn, ranked, every, args, limit, scored, 300.0, STAGE_BUDGET_MS) is None:
        _stage(conn, ranked, f"name : ({every})", args, limit, scored, 200.0, FALLBACK_BUDGET_MS)
        if len(scored) < limit:
            summary = f"summary : ({every})"
            if _stage(conn, ranked, summary, args, limit, scored, 100.0, FALLBACK_BUDGET_MS) is None:
                _stage(conn, unranked, summary, args, limit, scored, 100.0, FALLBACK_BUDGET_MS)
    content = [t for t in terms if t.lower() not in STOPWORDS] or terms
    if len(scored) < limit and len(terms) > 1 and not identifier:
        any_term = " OR ".join(fts_term(t) for t in content)
        if _stage(conn, ranked, any_term, args, limit, scored, 0.0, FALLBACK_BUDGET_MS) is None:
            _most_terms(conn, ranked, content, args, limit, scored)
            if len(scored) < limit:
                _stage(conn, unranked, any_term, args, limit, scored, 0.0, FALLBACK_BUDGET_MS)


def _most_terms(
    conn: sqlite3.Connection, ranked: str, content: list[str], args: list[Any], limit: int, scored: dict[int, float]
) -> None:
    """Too many items match some one word to rank them all in time: rank the items that
    match every word but one (selective, so fast), each left-out word in turn."""
    if len(content) < 3:
        return
    for left_out in range(len(content)):
        if len(scored) >= limit:
            return
        rest = " AND ".join(fts_term(t) for i, t in enumerate(content) if i != left_out)
        _stage(conn, ranked, rest, args, limit, scored, 50.0, MOST_TERMS_BUDGET_MS)


def _stage(
    conn: sqlite3.Connection,
    sql: str,
    match: str,
    args: list[Any],
    limit: int,
    scored: dict[int, float],
    bonus: float,
    budget_ms: float,
) -> int | None:
    """Run one FTS stage within `budget_ms`: how many rows it gave, None when it ran out of time."""
    try:
        with time_budget(conn, budget_ms):
            rows = conn.execute(sql, (match, *args, limit)).fetchall()
    except sqlite3.OperationalError as exc:
        if "interrupted" not in str(exc):
            raise
        return None
    for rowid, rank in rows:
        scored.setdefault(rowid, bonus - rank)
    return len(rows)


def name_matches(
    conn: sqlite3.Connection, query: str, where: str, args: list[Any], limit: int
) -> list[tuple[int, float]]:
    """Items named (or identified) by the query, with a tie-break boost: exact id, id suffix, name."""
    text = query.strip()
    if not text or not IDENT.match(text):
        return []
    parts = [p for p in SEPARATORS.split(text) if p]
    if not parts:
        return []
    names = spellings(parts[-1])
    wanted = norm_id(text).lower()
    variants = {wanted.rsplit(".", 1)[0] + "." + n if "." in wanted else n for n in names}
    marks = ",".join("?" * len(names))
    sql = (
        f"SELECT i.rowid, i.id, i.name, i.public, i.documented FROM items i WHERE i.name_lc IN ({marks}){where} "
        "LIMIT 200"
    )
    found = []
    for rowid, item_id, item_name, public, documented in conn.execute(sql, (*names, *args)):
        norm = norm_id(item_id).lower()
        if norm in variants:
            boost = 30.0
        elif len(parts) > 1 and any(norm.endswith("." + v) for v in variants):
            boost = 20.0
        elif len(parts) > 1:
            continue
        else:
            boost = 10.0
        boost += (2.0 if item_name == parts[-1] else 0.0) + public + documented - len(item_id) / 1000
        found.append((rowid, boost))
    found.sort(key=lambda rb: -rb[1])
    return found[:limit]


def norm_id(item_id: str) -> str:
    """An id with every separator (`::`, `.`, `:`, `/`, `#`) as `.`, for comparing notations."""
    return SEPARATORS.sub(".", item_id)
