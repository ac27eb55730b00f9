"""The `names` tier of an outline: every top-level definition as `name:line`, its members
that are definitions too (methods, nested types and functions, enum members) in
parentheses after it, theirs in parentheses after them, to any depth — more than a
depth-1 symbol overview gives, with the line to open each by (`expand_at FILE line:N`): the
name's line, not the doc comment's above it.
Data members (fields, properties, attributes, variables inside a type or function) are left
to the outline; module-level variables and constants are top-level definitions and stay.

    HTTPServer:130(server_bind:134)
    Registry:60(add:76 admins:82(is_admin:83) describe:89)
    test:1250

With a depth, the definitions below it are counted on a last line, never dropped silently.
"""

from __future__ import annotations

from simple_brief.model import Symbol, SymbolKind

#: Kinds of members the names tier leaves to the outline (a type's data, not its definitions).
DATA_MEMBERS = frozenset({SymbolKind.Field, SymbolKind.Property, SymbolKind.Variable, SymbolKind.Constant})


def render_names(symbols: list[Symbol], depth: int = 0) -> str:
    """One line per top-level symbol: `name:line` (a Go method `Terminal.Loop:line`), then
    `(member:line …)` (its members that are not data, each with its own the same way), down
    to `depth` levels (0: all); a last line counts the definitions a depth left out."""
    left_out = [0]
    lines = [_named(sym, sym.scoped_name, 1, depth, left_out) for sym in symbols]
    if left_out[0]:
        more = "definition" if left_out[0] == 1 else "definitions"
        lines.append(f"+{left_out[0]} nested {more} below depth={depth} not named: depth=0 names them all")
    return "\n".join(lines)


def _named(sym: Symbol, name: str, level: int, depth: int, left_out: list[int]) -> str:
    """`name:line(members)`; the members past `depth` added to `left_out[0]` instead."""
    text = f"{name}:{sym.selection_range.start.line + 1}"
    kids = [kid for kid in sym.children if kid.kind not in DATA_MEMBERS]
    if not kids:
        return text
    if depth and level >= depth:
        left_out[0] += sum(_definitions(kid) for kid in kids)
        return text
    return text + "(" + " ".join(_named(kid, kid.name, level + 1, depth, left_out) for kid in kids) + ")"


def _definitions(sym: Symbol) -> int:
    """`sym` and the definitions (not data) inside it."""
    return 1 + sum(_definitions(kid) for kid in sym.children if kid.kind not in DATA_MEMBERS)
