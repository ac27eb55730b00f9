"""Document symbols as the seed 003 table, or as LSP `DocumentSymbol[]` JSON.

    NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO | EOL
    square | 12 | 3:1-5:13 | 3:5-10 |  | def square(x: int) -> int - Square x. | <<<

Text positions are 1-based `line:col` (SPEC "Positions"; the seed's table was
0-based). A column range is inclusive: `3:5-10` is characters 5 through 10 of line 3.
RANGE is the whole definition, from the doc comment and decorators above it (what folds
and what `expand_at` shows); SELECTION is the name (LSP's selectionRange), the position
every other answer gives for the definition.
JSON (`format=standard`) keeps LSP's 0-based positions with an exclusive end.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any, Literal

from simple_brief.intel.protocol import document_symbol
from simple_brief.model import Range, Symbol

HEADER = "NAME | KIND | RANGE | SELECTION | PARENT | HOVER_INFO | EOL"
#: What the two position columns are, said where the table is printed.
RANGE_NOTE = "RANGE includes the doc comment and decorators above, SELECTION is the name"
ROW_END = "<<<"
HOVER_CHARS = 200
#: With `return_children=auto`, descendants are listed while the whole table stays this small.
AUTO_CHILDREN_ROWS = 400

_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")

ReturnChildren = Literal["yes", "no", "auto"]


def format_range(rng: Range) -> str:
    """`L:C-C` on one line, `L:C-L:C` across lines; 1-based, end column inclusive."""
    start = f"{rng.start.line + 1}:{rng.start.character + 1}"
    if rng.start.line == rng.end.line:
        return f"{start}-{rng.end.character}"
    return f"{start}-{rng.end.line + 1}:{rng.end.character}"


def cell(text: str) -> str:
    """Newlines to spaces and `|` escaped, so a cell never breaks its row."""
    return " ".join(text.split()).replace("|", "\\|")


def doc_summary(doc: str) -> str:
    """The doc's first paragraph, up to its first sentence end."""
    para = " ".join(doc.strip().split("\n\n", 1)[0].split())
    match = _SENTENCE_END.search(para)
    return para[: match.end()].strip() if match else para


def hover_info(sym: Symbol) -> str:
    """Signature and the doc's summary sentence, as one table cell cut at 200 characters."""
    text = sym.signature or sym.name
    if sym.doc:
        text = f"{text} - {doc_summary(sym.doc)}"
    text = cell(text)
    if len(text) > HOVER_CHARS:
        text = text[: HOVER_CHARS - 1].rstrip() + "…"
    return text


def _walk_with_parent(symbols: list[Symbol]) -> Iterator[tuple[Symbol, Symbol | None]]:
    """Every symbol of a forest with its parent (None at top level), depth first, in document
    order — as `model.walk_with_parent`, but with an explicit stack: nested generators cost
    time in the depth of every symbol."""
    stack: list[tuple[Symbol, Symbol | None]] = [(s, None) for s in reversed(symbols)]
    while stack:
        sym, parent = stack.pop()
        yield sym, parent
        stack.extend((child, sym) for child in reversed(sym.children))


def select_rows(symbols: list[Symbol], return_children: ReturnChildren) -> list[tuple[Symbol, Symbol | None]]:
    """The (symbol, parent) pairs listed: top level only, all, or all while the table stays small."""
    if return_children == "no":
        return [(s, None) for s in symbols]
    rows = list(_walk_with_parent(symbols))
    if return_children == "auto" and len(rows) > AUTO_CHILDREN_ROWS:
        rows = [(s, None) for s in symbols] + [(c, s) for s in symbols for c in s.children]
        rows.sort(key=lambda pair: pair[0].range.start)
    return rows


def render_table(symbols: list[Symbol], return_children: ReturnChildren = "auto", include_hover: bool = True) -> str:
    """The seed 003 table, one `<<<`-terminated row per symbol, parents before children."""
    return render_rows(select_rows(symbols, return_children), "hover" if include_hover else "none")


#: What a row's HOVER_INFO cell holds: the hover, nothing, or how many symbols nest under it.
HoverCell = Literal["hover", "none", "nested"]


def nested_count(sym: Symbol) -> int:
    """How many symbols nest under `sym`, at every depth."""
    return sum(1 for _ in _walk_with_parent(sym.children))


def render_rows(rows: list[tuple[Symbol, Symbol | None]], hover_cell: HoverCell = "hover") -> str:
    """The table's header and one row per (symbol, parent); HOVER_INFO as `hover_cell` says
    (`nested`: `N nested` when symbols nest under it, the budget's top-level view)."""
    lines = [HEADER]
    for sym, parent in rows:
        if hover_cell == "hover":
            hover = hover_info(sym)
        elif hover_cell == "nested" and sym.children:
            hover = f"{nested_count(sym)} nested"
        else:
            hover = ""
        owner = parent.scoped_name if parent else sym.scope
        lines.append(
            f"{cell(sym.name)} | {int(sym.kind)} | {format_range(sym.range)} | "
            f"{format_range(sym.selection_range)} | {cell(owner)} | {hover} | {ROW_END}"
        )
    return "\n".join(lines)


def document_symbols_json(symbols: list[Symbol], return_children: ReturnChildren = "auto") -> list[dict[str, Any]]:
    """`DocumentSymbol[]` for `format=standard` (positions in code points; `protocol.document_symbol`)."""
    with_children = return_children != "no"
    if return_children == "auto" and sum(1 for _ in _walk_with_parent(symbols)) > AUTO_CHILDREN_ROWS:
        return [
            {**document_symbol(s, children=False), "children": [document_symbol(c, False) for c in s.children]}
            if s.children
            else document_symbol(s, children=False)
            for s in symbols
        ]
    return [document_symbol(s, children=with_children) for s in symbols]


def render_standard(symbols: list[Symbol], return_children: ReturnChildren = "auto") -> str:
    """Compact JSON text of `DocumentSymbol[]`."""
    return json.dumps(document_symbols_json(symbols, return_children), separators=(",", ":"), ensure_ascii=False)
