"""The `names` tier of an outline: every top-level definition by name with its line span,
its members by name and first line on the same line — what a depth-1 symbol overview
gives, with lines to open them by (`expand_at FILE line:N`).

    HTTPServer L130-139: server_bind L134
    BaseHTTPRequestHandler L147-644: parse_request L267, handle_one_request L407, …
    test L1250-1271
"""

from __future__ import annotations

from simple_brief.model import Symbol


def render_names(symbols: list[Symbol], members: bool = True) -> str:
    """One line per top-level symbol: `name Lfirst-last`, then `: member Lfirst, …` unless
    `members` is False."""
    lines = []
    for sym in symbols:
        line = f"{sym.name} {sym.range.line_span()}"
        if members and sym.children:
            line += ": " + ", ".join(f"{kid.name} L{kid.range.start.line + 1}" for kid in sym.children)
        lines.append(line)
    return "\n".join(lines)
