"""`document_symbols` inside the token budget: the table (or LSP JSON) as asked when it fits,
else a smaller view whose first line says what was cut and which call gets the rest.

The views, in the order tried: as asked; without HOVER_INFO (JSON: without `detail`); the
listed symbols' top level with how many nest under each (JSON: without `children`; skipped
when paging); a page of rows from `offset` with the `offset=` of the next page. `under=NAME` lists one symbol's
members, `offset=N` starts at row N of the listing (rows in document order, parents first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from simple_brief.intel.protocol import document_symbol
from simple_brief.model import Symbol
from simple_brief.render import table
from simple_brief.render.budget import CHARS_PER_TOKEN, TABLE_CHARS_PER_TOKEN, approx_tokens
from simple_brief.tools import hints

Row = tuple[Symbol, Symbol | None]
#: Tokens kept for the note that says what was cut (its longest form, with a long path).
NOTE_TOKENS = 160


@dataclass
class Listing:
    """What was asked: the rows of the listing (after `under` and `return_children`), where
    the page starts, and how to name the file and its format in the next call."""

    rows: list[Row]
    offset: int
    paging: bool
    shown: str
    format: str
    hover: bool
    return_children: str
    under: str | None
    head: str


@dataclass
class View:
    """One rendering tried against the budget."""

    text: str
    symbols: list[dict[str, Any]]
    rows: int
    cut: str = ""
    next_call: str = ""


def fit(listing: Listing, budget: int) -> tuple[list[str], dict[str, Any]]:
    """The blocks and data of the first view within `budget` (a page always fits: at least one row)."""
    total = len(listing.rows)
    rows = listing.rows[listing.offset :]
    asked = _render(listing, rows, detail=listing.hover, nested=False)
    tried = [asked]
    asked_tokens = _tokens(listing, asked.text)
    if asked_tokens <= budget:
        return [asked.text], {"symbols": asked.symbols, "rows": len(rows), "total_rows": total}
    if listing.hover:
        bare = _render(listing, rows, detail=False, nested=False)
        bare.cut = "HOVER_INFO left out" if listing.format == "table" else "`detail` left out"
        bare.next_call = _more(listing, include_hover="false", offset=listing.offset if listing.paging else None)
        tried.append(bare)
    if not listing.paging:
        tops = [row for row in rows if row[1] is None or row[1] is _holder(listing)]
        if len(tops) < len(rows):
            top = _render(listing, tops, detail=False, nested=True)
            each = "each with how many nest under it" if listing.format == "table" else "without their children"
            top.cut = f"only the {len(tops):,} top-level of {total:,} rows, {each}"
            name = _qualified(listing, tops[0][0]) if len(tops) == 1 else "NAME"
            top.next_call = _more(listing, under=name) + f" for one symbol's members, or {_page_call(listing, 0)}"
            tried.append(top)
    for view in tried[1:]:
        if _tokens(listing, view.text) + NOTE_TOKENS <= budget:
            return _noted(view, asked_tokens, budget, total)
    return _noted(_page(listing, rows, budget), asked_tokens, budget, total)


def _qualified(listing: Listing, sym: Symbol) -> str:
    return f"{listing.under}.{sym.name}" if listing.under else sym.name


def _holder(listing: Listing) -> Symbol | None:
    return None if not listing.rows else listing.rows[0][1] if listing.under else None


def _page(listing: Listing, rows: list[Row], budget: int) -> View:
    """As many rows from the offset as fit (at least one), without hover."""
    room = (budget - NOTE_TOKENS) * _chars_per_token(listing) - len(listing.head) - len(table.HEADER)
    used = 0
    count = 0
    for row in rows:
        used += len(_bare_row(listing, row)) + 1
        if count and used > room:
            break
        count += 1
    view = _render(listing, rows[:count], detail=False, nested=False)
    while count > 1 and _tokens(listing, view.text) + NOTE_TOKENS > budget:
        count = max(1, count * 9 // 10)
        view = _render(listing, rows[:count], detail=False, nested=False)
    end = listing.offset + count
    view.cut = f"rows {listing.offset + 1:,}-{end:,} of {len(listing.rows):,}, without hover"
    view.next_call = _page_call(listing, end) if end < len(listing.rows) else "this is the last page"
    return view


def _bare_row(listing: Listing, row: Row) -> str:
    if listing.format == "table":
        return table.render_rows([row], "none").partition("\n")[2]
    return json.dumps(_entry(row[0], False), separators=(",", ":"), ensure_ascii=False)


def _chars_per_token(listing: Listing) -> float:
    return TABLE_CHARS_PER_TOKEN if listing.format == "table" else CHARS_PER_TOKEN


def _tokens(listing: Listing, text: str) -> int:
    """Estimated tokens of a view: the table's rows count denser than other text."""
    return approx_tokens(text, _chars_per_token(listing))


def _page_call(listing: Listing, offset: int) -> str:
    return _more(listing, include_hover="false", offset=offset)


def _noted(view: View, asked_tokens: int, budget: int, total: int) -> tuple[list[str], dict[str, Any]]:
    note = (
        f"[the symbols as asked are ~{asked_tokens:,} tokens, over the {budget:,}-token budget: showing {view.cut}. "
        f"The rest: {view.next_call}.]"
    )
    return [note, view.text], {"symbols": view.symbols, "rows": view.rows, "total_rows": total, "cut": view.cut}


def _more(listing: Listing, **params: object) -> str:
    given: dict[str, object] = {}
    if listing.format != "table":
        given["format"] = listing.format
    if listing.return_children != "auto":
        given["return_children"] = listing.return_children
    if listing.under and "under" not in params:
        given["under"] = listing.under
    given.update({k: v for k, v in params.items() if v is not None})
    return hints.command("document_symbols", listing.shown, **given)


def _entry(sym: Symbol, detail: bool) -> dict[str, Any]:
    out = document_symbol(sym, children=False)
    if not detail:
        out.pop("detail")
    return out


def _render(listing: Listing, rows: list[Row], detail: bool, nested: bool) -> View:
    """The rows as the table or as `DocumentSymbol[]` (re-nested: a row whose parent is listed
    sits in its `children`)."""
    if listing.format == "table":
        cell: table.HoverCell = "nested" if nested else "hover" if detail else "none"
        text = listing.head + "\n" + table.render_rows(rows, cell)
    forest: list[dict[str, Any]] = []
    by_id: dict[int, dict[str, Any]] = {}
    for sym, parent in rows:
        entry = _entry(sym, detail)
        by_id[id(sym)] = entry
        holder = by_id.get(id(parent)) if parent is not None else None
        if holder is None:
            forest.append(entry)
        else:
            holder.setdefault("children", []).append(entry)
    if listing.format != "table":
        text = json.dumps(forest, separators=(",", ":"), ensure_ascii=False)
    return View(text, forest, len(rows))
