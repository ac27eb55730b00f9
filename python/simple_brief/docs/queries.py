"""The read side of the docs index: search, get, list, resolve, each a function of an open
SQLite connection (`DocsIndex` runs them with its retries and rebuilds), and the result
types they return.
"""

from __future__ import annotations

import json
import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from simple_brief.docs import db, ranking
from simple_brief.docs.model import Item
from simple_brief.files.path_escapes import escape_path

#: Added to the best bm25 score for an item whose name (or id) is what was asked for.
NAME_BOOST = 1000.0
#: Among items sharing an id: documented, public and the workspace's own first.
_BEST_FIRST = "ORDER BY documented DESC, public DESC, library = 'workspace' DESC"


@dataclass
class Hit:
    """A search result: the item, its relevance (higher is better) and a text snippet."""

    item: Item
    score: float
    snippet: str


@dataclass
class Related:
    """An item related to another, why (`see_also`, `same_module`, `similar_signature`,
    `implements`) and how much (0..1)."""

    item: Item
    reason: str
    relevance: float


@dataclass
class ModuleListing:
    """A module's own item (with its doc; None when the module has no item), its public
    items and the ids of its submodules."""

    module: Item | None
    items: list[Item] = field(default_factory=list)
    submodules: list[str] = field(default_factory=list)


def search(
    conn: sqlite3.Connection, query: str, kind: str | None, module: str | None, library: str | None, limit: int
) -> list[Hit]:
    """Items ranked by bm25 (name > signature > summary > body), best first; an item whose
    name or id is the query first. FTS syntax in `query` is taken as plain words."""
    limit = max(1, limit)
    terms = ranking.query_terms(query)
    if not terms:
        return []
    if ranking.IDENT.match(query.strip()) and len(ranking.SEPARATORS.split(query.strip())) > 2:
        # A qualified id (`pkg.mod.Class.method`): its package words match most items;
        # the exact item comes from the name lookup, the text search looks for `Class method`.
        terms = ranking.query_terms(" ".join(ranking.SEPARATORS.split(query.strip())[-2:]))
    where, args = ranking.filters(kind, module, library)
    scored: dict[int, float] = {}
    named = ranking.name_matches(conn, query, where, args, limit)
    if len(named) < limit:
        ranking.fts_rank(conn, terms, where, args, limit, scored, identifier=bool(named))
    best = max(scored.values(), default=0.0)
    for rowid, boost in named:
        scored[rowid] = best + NAME_BOOST + boost
    top = sorted(scored.items(), key=lambda kv: -kv[1])[:limit]
    items = db.items_by_rowid(conn, [r for r, _ in top])
    snippets = ranking.snippets(conn, [r for r, _ in top], terms)
    hits = []
    for rowid, score in top:
        item = items.get(rowid)
        if item is not None:
            hits.append(Hit(item, round(score, 3), _snippet(item, snippets.get(rowid, ""), terms)))
    return hits


def get(conn: sqlite3.Connection, item_id: str, library: str | None) -> Item | None:
    """The item with exactly this id (documented and public first when several share it)."""
    where, args = "id = ?", [item_id]
    if library is not None:
        where, args = where + " AND library = ?", [*args, library]
    found = db.select_items(conn, where, args, _BEST_FIRST)
    return found[0] if found else None


def list_module(conn: sqlite3.Connection, module: str, library: str | None) -> ModuleListing:
    """A module's item, its public items and submodules."""
    lib_where, lib_args = (" AND library = ?", [library]) if library is not None else ("", [])
    members = db.select_items(conn, f"module = ?{lib_where}", [module, *lib_args], "ORDER BY path, line")
    own = next((m for m in db.select_items(conn, f"id = ? AND kind = 'module'{lib_where}", [module, *lib_args])), None)
    direct = [
        m
        for m in members
        if m.public and m.kind != "module" and ranking.norm_id(m.id) == ranking.norm_id(module) + "." + m.name
    ]
    subs: set[str] = set()
    rows = conn.execute(
        "SELECT DISTINCT module FROM files WHERE module > ? AND module < ?" + lib_where,
        [module, module + "\U0010ffff", *lib_args],
    )
    nmod = ranking.norm_id(module)
    for (mod,) in rows:
        norm = ranking.norm_id(mod)
        if norm.startswith(nmod + ".") and mod != module:
            sep = mod[len(module) : len(module) + 2]
            sep = "::" if sep == "::" else sep[:1]
            rest = mod[len(module) + len(sep) :]
            subs.add(module + sep + ranking.SEPARATORS.split(rest)[0])
    for m in members:
        if m.kind == "module" and m.id != module:
            subs.add(m.id)
    return ModuleListing(own, direct, sorted(subs))


def context_of(conn: sqlite3.Connection, context: str | None, root: Path) -> tuple[str | None, set[str]]:
    """The module id of `context` (a module id, or a file path) and the modules its file(s) import."""
    if not context:
        return None, set()
    rel = context if context.isprintable() else escape_path(context)
    try:
        path = Path(context)
        if path.is_absolute():
            rel = escape_path(path.resolve().relative_to(root).as_posix())
    except (ValueError, OSError):
        pass
    row = conn.execute("SELECT module, imports FROM files WHERE path = ? LIMIT 1", (rel,)).fetchone()
    if row is not None:
        return row[0], set(json.loads(row[1]))
    imports: set[str] = set()
    for (raw,) in conn.execute("SELECT imports FROM files WHERE module = ?", (context,)):
        imports.update(json.loads(raw))
    return context, imports


def resolve(
    conn: sqlite3.Connection, symbol: str, ctx_module: str | None, ctx_imports: set[str], library: str | None
) -> list[Item]:
    """Items a (possibly partial) name may mean, best first; names in the context's module
    and its imports win."""
    text = symbol.strip()
    parts = [p for p in ranking.SEPARATORS.split(text) if p]
    if not parts:
        return []

    lib_where, lib_args = (" AND library = ?", [library]) if library is not None else ("", [])
    exact = db.select_items(conn, f"id = ?{lib_where}", [text, *lib_args])
    named = db.select_items(conn, f"name_lc = ?{lib_where}", [parts[-1].lower(), *lib_args], "LIMIT 500")
    wanted = ranking.norm_id(text).lower()
    ranked: dict[int, tuple[tuple[float, ...], Item]] = {}
    for tier, group in ((0, exact), (1, named)):
        for item in group:
            norm = ranking.norm_id(item.id).lower()
            if tier == 1:
                if norm == wanted:
                    tier_here = 0
                elif norm.endswith("." + wanted):
                    tier_here = 1
                elif len(parts) == 1 and item.name.lower() == parts[0].lower():
                    tier_here = 2
                else:
                    continue
            else:
                tier_here = 0
            where_rank = _context_rank(item, ctx_module, ctx_imports)
            key = (
                tier_here,
                where_rank,
                0 if item.public else 1,
                0 if item.name == parts[-1] else 1,
                0 if item.doc.summary else 1,
                len(item.id),
            )
            ident = hash((item.library, item.id, item.path, item.line))
            if ident not in ranked or key < ranked[ident][0]:
                ranked[ident] = (key, item)
    return [item for _key, item in sorted(ranked.values(), key=lambda ki: ki[0])]


def _snippet(item: Item, body_snippet: str, terms: list[str]) -> str:
    """The summary when it mentions a query word (or nothing else matched), else the body's snippet."""
    summary = item.doc.summary
    lowered = {t.lower() for t in terms}
    if summary and (not body_snippet or any(w.lower() in lowered for w in re.findall(r"\w+", summary))):
        return summary
    return " ".join(body_snippet.split()) or summary or item.signature


def _context_rank(item: Item, ctx_module: str | None, imports: set[str]) -> int:
    """0: in the context's module or imported by name; 1: in a module it imports; 2: a
    relative of those; 3: the same top-level package; 4: elsewhere."""
    if ctx_module is None:
        return 2
    module = item.module
    if module == ctx_module or item.id in imports:
        return 0
    if module in imports:
        return 1
    if any(module.startswith(imp + ".") or imp.startswith(module + ".") for imp in imports):
        return 2
    head = ranking.norm_id(ctx_module).split(".")[0]
    return 3 if ranking.norm_id(module).split(".")[0] == head else 4
