"""`simple_read mode=symbols`: seed 002's tiered symbol view.

    Found 5 symbols in file: src/user.py (max depth 99)
    Symbol breakdown: 2 methods, 2 fields, 1 class

    @7:7 Class - User
      @12:9 Method - __init__ [User, Class]
        `def __init__(self, name, age)`

One block per root-level symbol; positions 1-based, each the name's (not the doc comment's
or decorator's above it); no descent into function bodies
(no locals, no callbacks); `preview` adds signatures, or code for leaf symbols only.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from simple_brief.model import FUNCTION_KINDS, Symbol, SymbolKind
from simple_brief.scan import Outline

Preview = Literal["none", "signature", "expanded"]
#: Code lines shown per leaf symbol with `preview=expanded`.
EXPANDED_LINES = 12

_PLURALS = {"Class": "classes", "Property": "properties"}
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


def kind_name(kind: SymbolKind) -> str:
    """`Method`, `Class`, ... (the LSP name)."""
    return kind.name


def breakdown(symbols: list[Symbol]) -> str:
    """`27 methods, 21 properties, 2 classes` — most common kind first."""
    counts = Counter(s.kind.name for s in symbols)
    parts = []
    for name, n in counts.most_common():
        words = _CAMEL.sub(" ", name).lower()
        noun = words if n == 1 else _PLURALS.get(name, words + "s")
        parts.append(f"{n} {noun}")
    return ", ".join(parts)


def _visible(
    sym: Symbol, depth: int, max_depth: int, ignore: frozenset[SymbolKind], parent: Symbol | None
) -> list[tuple[Symbol, int, Symbol | None]]:
    """`sym` and the descendants shown under it, in document order, with their level and
    parent. One list is filled as the tree is walked (an explicit stack): returning a list
    per level and copying it into its parent's would cost time in the depth of every row."""
    rows: list[tuple[Symbol, int, Symbol | None]] = []
    stack: list[tuple[Symbol, int, Symbol | None]] = [(sym, depth, parent)]
    while stack:
        current, level, above = stack.pop()
        if current.kind in ignore or level > max_depth:
            continue
        rows.append((current, level, above))
        if current.kind not in FUNCTION_KINDS:
            stack.extend((child, level + 1, current) for child in reversed(current.children))
    return rows


def render_symbols_view(
    outline: Outline,
    path: str,
    preview: Preview = "none",
    max_depth: int = 99,
    ignore_kinds: frozenset[SymbolKind] = frozenset(),
) -> list[str]:
    """Content blocks: the summary, then one block per root-level symbol."""
    groups = [_visible(s, 1, max_depth, ignore_kinds, None) for s in outline.symbols]
    groups = [g for g in groups if g]
    shown = [sym for g in groups for sym, _, _ in g]
    summary = f"Found {len(shown)} symbols in file: {path} (max depth {max_depth})"
    if shown:
        summary += f"\nSymbol breakdown: {breakdown(shown)}"
    blocks = [summary]
    lang = outline.language.name
    lines = outline.source.lines
    for group in groups:
        out: list[str] = []
        for sym, depth, parent in group:
            pad = "  " * (depth - 1)
            where = f" [{parent.scoped_name}, {parent.kind.name}]" if parent else f" [{sym.scope}]" if sym.scope else ""
            out.append(f"{pad}@{sym.selection_range.start.one_based()} {kind_name(sym.kind)} - {sym.name}{where}")
            if preview == "signature" and sym.signature:
                out.append(f"{pad}  `{sym.signature}`")
            elif preview == "expanded":
                is_leaf = not any(c.kind not in ignore_kinds for c in sym.children) or sym.kind in FUNCTION_KINDS
                if is_leaf:
                    out.extend(_code_preview(lines, sym, pad + "  ", lang, outline.language.comment))
                elif sym.signature:
                    out.append(f"{pad}  `{sym.signature}`")
        blocks.append("\n".join(out))
    return blocks


def _code_preview(lines: list[str], sym: Symbol, pad: str, lang: str, comment: str) -> list[str]:
    first, last = sym.range.start.line, sym.range.end.line
    code = lines[first : last + 1]
    indents = [len(ln) - len(ln.lstrip()) for ln in code if ln.strip()]
    cut = min(indents, default=0)
    code = [ln[cut:] for ln in code]
    out = [f"{pad}```{lang}"]
    out.extend(pad + ln if ln else "" for ln in code[:EXPANDED_LINES])
    if len(code) > EXPANDED_LINES:
        out.append(f"{pad}{comment} ... {len(code) - EXPANDED_LINES} more lines")
    out.append(f"{pad}```")
    return out
