"""The `names` tier of an outline: every top-level definition as `name:line`, its members
that are definitions too (methods, nested types, enum members) on the same line — what a
depth-1 symbol overview gives, with the line to open each by (`expand_at FILE line:N`): the
name's line, not the doc comment's above it.
Data members (fields, properties, attributes, variables inside a type) are left to the
outline; module-level variables and constants are top-level definitions and stay.

    HTTPServer:130: server_bind:134
    BaseHTTPRequestHandler:147: parse_request:267 handle_one_request:407 …
    test:1250
"""

from __future__ import annotations

from simple_brief.model import Symbol, SymbolKind

#: Kinds of members the names tier leaves to the outline (a type's data, not its definitions).
DATA_MEMBERS = frozenset({SymbolKind.Field, SymbolKind.Property, SymbolKind.Variable, SymbolKind.Constant})


def render_names(symbols: list[Symbol], members: bool = True) -> str:
    """One line per top-level symbol: `name:line` (a Go method `Terminal.Loop:line`), then
    `: member:line …` (its members that are not data) unless `members` is False."""
    lines = []
    for sym in symbols:
        line = f"{sym.scoped_name}:{sym.selection_range.start.line + 1}"
        kids = [kid for kid in sym.children if kid.kind not in DATA_MEMBERS] if members else []
        if kids:
            line += ": " + " ".join(f"{kid.name}:{kid.selection_range.start.line + 1}" for kid in kids)
        lines.append(line)
    return "\n".join(lines)
