"""Answering `search` and `workspace_symbols` from the index, ranked exactly as the full
scan ranks (`symbol_search.score` and the kind bonus of `rank_symbols`), overlays parsed
live and laid over their file's stored rows; and the full scan itself (`full_scan`), the
answer when the index cannot be used and the baseline the tests and the bench compare with.

How a query runs: the in-memory name table gives the names `score` may accept
(`index.names`); `score` ranks those names (a name's score does not depend on where it
is defined, unless the query is dotted); names are taken by score, best first, and for
each score the stored rows are read best kind first, then by path and position, at most
`limit` of them. The names that surely match at most `INNER_BEST` (`Lookup.inner`) are
ranked only when the rows taken so far leave room for them. Counts come from the name
table (the whole index) or one SQL count (a folder). Dotted queries (`User.greet`) also
read the rows whose qualified name holds the query and score each row.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.files.path_escapes import escape_path, unescape_path
from simple_brief.files.workspace import Workspace
from simple_brief.index.parse import symbol_of
from simple_brief.index.symbol_search import INNER_BEST, KIND_BONUS, rank_symbols, score
from simple_brief.model import Symbol, SymbolKind, qualified, walk_with_parent
from simple_brief.render.search import Match, signature_preview

if TYPE_CHECKING:
    from simple_brief.index import SymbolIndex
    from simple_brief.index.names import Names

#: The largest kind bonus (`rank_symbols` adds bonus * 0.01 to a score).
_MAX_BONUS = max(KIND_BONUS.values()) * 0.01
_BONUS_SQL = "CASE s.kind " + " ".join(f"WHEN {int(k)} THEN {v}" for k, v in KIND_BONUS.items()) + " ELSE 0 END"
_ROW = (
    "SELECT s.name, s.kind, s.sl, s.sc, s.el, s.ec, s.ssl, s.ssc, s.sel, s.sec,"
    " s.preview, f.path, s.seq, s.walk, s.qual, s.rowid FROM symbols s JOIN files f ON f.id = s.file"
)


@dataclass
class Found:
    """A query's answer: the best matches (sorted as shown), how many matched in how many
    files, and how many files of the scope were left out (by reason)."""

    matches: list[Match]
    total: int
    files: int
    skipped: dict[str, int] = field(default_factory=dict)


def sort_key(m: Match, seq: int = 0) -> tuple[float, str, Any, int]:
    """The order of the tools' answers: score, then path, then position."""
    return (-m.score, m.path, m.symbol.range.start, seq)


def _ranked(query: str, symbols: list[Symbol]) -> list[tuple[float, Symbol]]:
    if query.strip():
        return rank_symbols(query, [(sym, qual) for sym, qual, _ in qualified(symbols)])
    return [(1.0, sym) for sym, _ in walk_with_parent(symbols)]


def full_scan(
    ws: Workspace,
    query: str,
    path: str | None,
    kinds: set[SymbolKind] | None,
    limit: int,
    display: Callable[[Path], str],
    check: Callable[[], None] = lambda: None,
) -> Found:
    """Parse every listed file and rank its symbols (what `search` did before the index)."""
    found: list[Match] = []
    for file in ws.files(path):
        check()
        try:
            _, outline = ws.outline(file)
        except UserError:
            continue
        shown = display(file)
        for s, sym in _ranked(query, outline.symbols):
            if kinds is None or sym.kind in kinds:
                found.append(Match(shown, sym, s, signature_preview(outline.source.lines, sym)))
    found.sort(key=lambda m: (-m.score, m.path, m.symbol.range.start))
    return Found(found[:limit], len(found), len({m.path for m in found}))


def _live(
    index: SymbolIndex, query: str, under: str | None, kinds: set[SymbolKind] | None, display: Callable[[Path], str]
) -> tuple[list[tuple[Match, int]], set[int]]:
    """Matches in overlaid files (parsed now), and the ids of the stored files they replace."""
    ws = index.workspace
    root = ws.root
    matches: list[tuple[Match, int]] = []
    replaced: set[int] = set()
    for real in sorted(ws.overlays):
        if root not in real.parents:
            continue
        rel = real.relative_to(root).as_posix()
        if under is not None and not rel.startswith(under):
            continue
        state = index.file_state(rel)
        if state is not None:
            if state.skipped is not None and state.mtime_ns == -1:
                continue  # left out of the listing (binary or too big on disk)
            replaced.add(state.id)
        elif os.path.lexists(real) or languages.for_path(real) is languages.PLAIN:
            continue  # not listed (ignored, unknown language): the full scan would not read it
        try:
            _, outline = ws.outline(real)
        except UserError:
            continue
        shown = display(real)
        for i, (s, sym) in enumerate(_ranked(query, outline.symbols)):
            if kinds is None or sym.kind in kinds:
                matches.append((Match(shown, sym, s, signature_preview(outline.source.lines, sym)), i))
    return matches, replaced


def _scope(under: str | None, replaced: set[int], kinds: set[SymbolKind] | None) -> tuple[str, list[Any]]:
    conds: list[str] = []
    params: list[Any] = []
    if under is not None:
        conds.append("s.file IN (SELECT id FROM files WHERE path >= ? AND path < ?)")
        stored = escape_path(under)
        params += [stored, stored[:-1] + chr(ord(stored[-1]) + 1)]
    if replaced:
        conds.append("s.file NOT IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(sorted(replaced)))
    if kinds is not None:
        conds.append("s.kind IN (SELECT value FROM json_each(?))")
        params.append(json.dumps(sorted(int(k) for k in kinds)))
    return "".join(f" AND {c}" for c in conds), params


def _match(row: tuple[Any, ...], s: float, root: Path, display: Callable[[Path], str], shown: dict[str, str]) -> Match:
    rel = row[11]
    path = shown.get(rel)
    if path is None:
        path = shown[rel] = display(root / unescape_path(rel))
    return Match(path, symbol_of(*row[:10]), s, row[10])


def search_index(
    index: SymbolIndex,
    query: str,
    under: str | None,
    kinds: set[SymbolKind] | None,
    limit: int,
    display: Callable[[Path], str],
) -> Found:
    """The answer of the full scan, from the index (see the module doc). `under` is a
    folder relative to the root ending in `/`, or None for the whole workspace."""
    with index.lock:
        index.sync()
        live, replaced = _live(index, query, under, kinds, display)
        where, params = _scope(under, replaced, kinds)
        root = index.workspace.root
        shown: dict[str, str] = {}
        conn = index.conn
        if not query.strip():
            rows = conn.execute(
                f"{_ROW} WHERE 1 {where} ORDER BY f.path, s.sl, s.sc, s.walk LIMIT ?", [*params, limit]
            ).fetchall()
            total, files = conn.execute(
                f"SELECT count(*), count(DISTINCT s.file) FROM symbols s WHERE 1 {where}", params
            ).fetchone()
            stored = [(_match(r, 1.0, root, display, shown), r[13]) for r in rows]
        else:
            q = query.strip().lower()
            if "." in q or "::" in q:
                stored, total, files = _dotted(index, query, where, params, root, display, shown)
            else:
                stored, total, files = _by_name(index, query, where, params, limit, root, display, shown)
        merged = stored + live
        merged.sort(key=lambda pair: sort_key(*pair))
        skipped = index.skipped_counts(under)
        return Found(
            [m for m, _ in merged[:limit]],
            total + len(live),
            files + len({m.path for m, _ in live}),
            skipped,
        )


def _by_name(
    index: SymbolIndex,
    query: str,
    where: str,
    params: list[Any],
    limit: int,
    root: Path,
    display: Callable[[Path], str],
    shown: dict[str, str],
) -> tuple[list[tuple[Match, int]], int, int]:
    table = index.names()
    found = table.lookup(query)
    groups = _grouped(query, found.scored, table)
    inner = found.inner
    if not groups and not inner:
        return [], 0, 0
    matched = [n for names in groups.values() for n in names]
    if not where:  # the whole index: counted in memory
        total, files = table.tally(matched, inner)
    else:
        total, files = _count(index, matched + table.names_of(inner), where, params)
    top: list[tuple[Match, int]] = []

    def beaten(best: float) -> bool:
        """Whether no row of score `best` or less can enter the top (it is full)."""
        return bool(top) and len(top) >= limit and best + _MAX_BONUS < top[-1][0].score

    def take(s: float) -> None:
        rows = index.conn.execute(
            f"{_ROW} WHERE s.name IN (SELECT value FROM json_each(?)){where}"
            f" ORDER BY {_BONUS_SQL} DESC, f.path, s.sl, s.sc, s.seq LIMIT ?",
            [json.dumps(groups[s]), *params, limit],
        ).fetchall()
        top.extend(
            (_match(r, s + KIND_BONUS.get(SymbolKind(r[1]), 0) * 0.01, root, display, shown), r[12]) for r in rows
        )
        if len(top) >= limit:
            top.sort(key=lambda pair: sort_key(*pair))
            del top[limit:]

    # Scores above INNER_BEST first; the inner names are ranked only if they may still enter.
    order = sorted(groups, reverse=True)
    done = 0
    while done < len(order) and order[done] > INNER_BEST:
        if beaten(order[done]):
            return top, total, files
        take(order[done])
        done += 1
    if inner and not beaten(INNER_BEST):
        for s, names in _grouped(query, table.names_of(inner), table).items():
            groups.setdefault(s, []).extend(names)
        order = order[:done] + sorted(set(groups).difference(order[:done]), reverse=True)
    for s in order[done:]:
        if beaten(s):
            break
        take(s)
    return top, total, files


def _grouped(query: str, names: list[str], table: Names) -> dict[float, list[str]]:
    """The names `score` accepts, by score."""
    groups: dict[float, list[str]] = {}
    for name in names:
        s = score(query, name, name_words=table.words_of(name))
        if s > 0:
            groups.setdefault(s, []).append(name)
    return groups


def _count(index: SymbolIndex, names: list[str], where: str, params: list[Any]) -> tuple[int, int]:
    """How many rows of these names, in how many files, within the scope."""
    total, files = index.conn.execute(
        "SELECT count(*), count(DISTINCT s.file) FROM symbols s"
        f" WHERE s.name IN (SELECT value FROM json_each(?)){where}",
        [json.dumps(names), *params],
    ).fetchone()
    return int(total), int(files)


def _dotted(
    index: SymbolIndex,
    query: str,
    where: str,
    params: list[Any],
    root: Path,
    display: Callable[[Path], str],
    shown: dict[str, str],
) -> tuple[list[tuple[Match, int]], int, int]:
    """A dotted query scores every row: its name may match (the name rules) or its
    qualified name may hold the query. The part after the query's last dot lies inside
    one component of such a qualified name, so the rows are found from the names that
    hold that part (the anchors whose qualified name holds the query) and the anchors'
    descendants (their qualified names go on from the anchor's)."""
    q = query.strip().lower()
    table = index.names()
    conn = index.conn
    last = q.rsplit(".", 1)[-1]
    rowids: list[int] = []
    if last:
        anchors = json.dumps(table.containing(last))
        matched = [
            (rowid, file, qual)
            for rowid, file, qual in conn.execute(
                "SELECT rowid, file, qual FROM symbols WHERE name IN (SELECT value FROM json_each(?))", [anchors]
            )
            if q in qual.lower()
        ]
        for rowid, file, qual in matched:
            rowids.append(rowid)
            rowids.extend(
                r
                for (r,) in conn.execute(
                    "SELECT rowid FROM symbols WHERE file = ? AND qual > ? AND qual < ?", [file, qual + ".", qual + "/"]
                )
            )
        by_name = conn.execute(
            f"{_ROW} WHERE s.name IN (SELECT value FROM json_each(?)){where}",
            [json.dumps(table.candidates(query)), *params],
        ).fetchall()
        have = {r[15] for r in by_name}
        by_qual = conn.execute(
            f"{_ROW} WHERE s.rowid IN (SELECT value FROM json_each(?)){where}",
            [json.dumps(sorted(set(rowids) - have)), *params],
        ).fetchall()
        rows: Iterable[tuple[Any, ...]] = by_name + by_qual
    else:  # `User.`: every qualified name is a candidate
        rows = conn.execute(f"{_ROW} WHERE 1 {where}", params).fetchall()
    found: list[tuple[Match, int]] = []
    for r in rows:
        s = score(query, r[0], r[14])
        if s > 0:
            found.append((_match(r, s + KIND_BONUS.get(SymbolKind(r[1]), 0) * 0.01, root, display, shown), r[12]))
    return found, len(found), len({m.path for m, _ in found})
