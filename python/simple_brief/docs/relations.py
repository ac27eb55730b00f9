"""How items relate beyond their text: the bases an item implements (and the items
implementing it), items with a similar signature, and the item a see-also entry names.
Used by `DocsIndex.related`.
"""

from __future__ import annotations

import json
import re
import sqlite3

from simple_brief.docs import db
from simple_brief.docs.model import Item


def implementers(conn: sqlite3.Connection, item: Item) -> list[Item]:
    """Bases the item (or its owner) names, the same-named methods in them, and items naming it as a base."""
    found: list[Item] = []
    row = conn.execute(
        "SELECT bases FROM items WHERE id = ? AND library = ? LIMIT 1", (item.id, item.library)
    ).fetchone()
    bases = json.loads(row[0]) if row else []
    method = item.kind in ("method", "constructor", "function", "field", "constant", "type")
    owner = owner_id(item.id)
    if not bases and method and owner:
        row = conn.execute(
            "SELECT bases FROM items WHERE id = ? AND library = ? LIMIT 1", (owner, item.library)
        ).fetchone()
        bases = json.loads(row[0]) if row else []
    for base in bases:
        for cand in db.select_items(
            conn,
            "name = ? AND kind IN ('class', 'interface', 'trait', 'struct', 'type', 'enum')",
            [base],
            "LIMIT 5",
        ):
            if method:
                sep = "::" if "::" in cand.id else "."
                found += db.select_items(conn, "id = ?", [f"{cand.id}{sep}{item.name}"], "LIMIT 2")
            else:
                found.append(cand)
    if not method:
        pattern = f'%"{item.name}"%'
        found += db.select_items(conn, "bases LIKE ? AND kind != 'module'", [pattern], "LIMIT 20")
    return found


def similar(conn: sqlite3.Connection, item: Item, limit: int) -> list[tuple[Item, float]]:
    """Same-kind items whose normalised signatures are close (rapidfuzz), relevance 0.3-0.7."""
    if not item.signature:
        return []
    from rapidfuzz import fuzz, process

    rows = conn.execute(
        "SELECT rowid, name, signature FROM items WHERE kind = ? AND language = ? AND library = ? AND id != ?",
        (item.kind, item.language, item.library, item.id),
    ).fetchall()
    if not rows:
        return []
    choices = {row[0]: norm_sig(row[2], row[1]) for row in rows}
    cutoff = 70.0
    best = process.extract(
        norm_sig(item.signature, item.name), choices, scorer=fuzz.ratio, limit=limit, score_cutoff=cutoff
    )
    items = db.items_by_rowid(conn, [rowid for _c, _s, rowid in best])
    return [
        (items[rowid], 0.3 + 0.4 * (score - cutoff) / (100 - cutoff)) for _c, score, rowid in best if rowid in items
    ]


def owner_id(item_id: str) -> str:
    """The id of the item's container (`a.B.m` -> `a.B`), '' for none."""
    for sep in ("::", "."):
        if sep in item_id:
            return item_id.rsplit(sep, 1)[0]
    return ""


def norm_sig(signature: str, name: str) -> str:
    """A signature without its name, keywords and spacing, so shapes compare."""
    text = signature.replace(name, "_", 1) if name else signature
    text = re.sub(r"^(?:pub(?:\([^)]*\))?\s+|export\s+|async\s+|static\s+|public\s+|local\s+)+", "", text)
    return " ".join(text.split()).lower()


def see_target(target: str) -> str:
    """`{@link Foo#bar}`, `[Foo](x)`, `` `Foo` ``, `Foo()` -> `Foo.bar` / `Foo`."""
    text = re.sub(r"^\{@link\s+|\}$", "", target.strip())
    text = re.sub(r"^\[([^\]]*)\].*$", r"\1", text)
    text = text.strip("`'\" ").split()[0] if text.strip("`'\" ") else text
    return re.sub(r"\(.*$", "", text).replace("#", ".")
