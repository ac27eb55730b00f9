"""`expand_at context=true`: a symbol with its own chain around it — the headers of the symbols
holding it, the fields of its class, the signatures of its nearest siblings, the imports its
text uses — bounded to a small share of the budget, never the whole file. The first line says
what was left out and how to see it (`simple_read mode=outline`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from simple_brief.model import Symbol, SymbolKind
from simple_brief.render import blockmarks
from simple_brief.render.budget import approx_tokens
from simple_brief.scan import Outline
from simple_brief.tools import Call, ToolResult, hints

#: Most tokens the surroundings take, whatever the budget…
SURROUNDINGS_TOKENS = 1_500
#: …and at most this share of the budget.
SURROUNDINGS_SHARE = 0.15
#: Sibling signatures shown on each side of the symbol, nearest first.
SIBLINGS_EACH_SIDE = 3

#: How the first line names each part it left out.
_PART_NAMES = {"imports": "imports it uses", "fields": "fields", "siblings": "sibling signatures"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def surroundings_room(budget: int) -> int:
    """Tokens the surroundings may take under `budget`: the smaller of the two bounds."""
    return min(SURROUNDINGS_TOKENS, int(budget * SURROUNDINGS_SHARE))


def used_imports(outline: Outline, sym: Symbol) -> list[int]:
    """0-based lines of the file's import statements that name a word the symbol's text
    uses (a continuation line brings its statement's first line)."""
    lines = outline.source.lines
    first, last = sym.range.start.line, sym.range.end.line
    words = set(_WORD.findall("\n".join(lines[first : last + 1])))
    kept: set[int] = set()
    for row in sorted(outline.import_lines):
        if row >= len(lines) or first <= row <= last:
            continue
        named = set(_WORD.findall(lines[row])) - {"import", "from", "as", "require", "use", "using", "include"}
        if not named & words:
            continue
        kept.add(row)
        head = row
        while head > 0 and head - 1 in outline.import_lines and lines[head][:1] in (" ", "\t", ")", "}"):
            head -= 1
            kept.add(head)
    return sorted(kept)


def ancestors(symbols: list[Symbol], target: Symbol) -> list[Symbol]:
    """The symbols containing `target`, outermost first."""
    chain: list[Symbol] = []
    level = symbols
    while True:
        holder = next((s for s in level if s is not target and _holds(s, target)), None)
        if holder is None:
            return chain
        chain.append(holder)
        level = holder.children


def _holds(outer: Symbol, inner: Symbol) -> bool:
    return any(child is inner or _holds(child, inner) for child in outer.children)


@dataclass
class _Kept:
    """Lines chosen within the room, and how many of each part were left out."""

    room: int
    used: int = 0
    lines: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    left: dict[str, int] = field(default_factory=dict)

    def offer(self, part: str, row: int, text: str) -> None:
        cost = approx_tokens(text + "\n")
        if self.used + cost <= self.room:
            self.used += cost
            self.lines.setdefault(part, []).append((row, text))
        else:
            self.left[part] = self.left.get(part, 0) + 1


def _member_line(sym: Symbol) -> str:
    return f"{blockmarks.member_text(sym)}{blockmarks.SPAN_SEP}{sym.range.line_span()}"


def _nearest_first(before: list[Symbol], after: list[Symbol]) -> list[Symbol]:
    out: list[Symbol] = []
    for i in range(SIBLINGS_EACH_SIDE):
        out.extend(side[i] for side in (before[::-1], after) if i < len(side))
    return out


def with_surroundings(call: Call, shown: str, outline: Outline, sym: Symbol) -> ToolResult:
    """The symbol's source inside its chain: class headers, fields, nearby sibling signatures
    and the imports it uses, within `surroundings_room(call.budget)`; the first line says
    what was left out. A symbol too big for what remains shows its signature."""
    lines = outline.source.lines
    chain = ancestors(outline.symbols, sym)
    level = chain[-1].children if chain else outline.symbols
    room = surroundings_room(call.budget)
    kept = _Kept(room, used=sum(approx_tokens(blockmarks.mark_line(p, open_=True) + "\n") for p in chain))
    rows = used_imports(outline, sym)
    for row in rows:
        kept.offer("imports", row, f"{row + 1}: {lines[row]}")
    if chain:
        for member in level:
            if member is not sym and not member.is_block and member.kind != SymbolKind.String:
                kept.offer("fields", member.range.start.line, _member_line(member))
    blocks_around = [s for s in level if s.is_block or s is sym]
    at = next(i for i, s in enumerate(blocks_around) if s is sym) if sym in blocks_around else 0
    nearby = _nearest_first(blocks_around[:at], blocks_around[at + 1 :])
    for sibling in nearby:
        kept.offer("siblings", sibling.range.start.line, blockmarks.mark_line(sibling))
    kept.left["siblings"] = kept.left.get("siblings", 0) + max(0, len(blocks_around) - 1 - len(nearby))

    source = blockmarks.render_expanded(outline, sym, "all")
    too_big = approx_tokens(source) > call.budget - kept.used - 200
    if too_big:
        source = blockmarks.render_expanded(outline, sym, "signature")
    skeleton = [blockmarks.mark_line(p, open_=True) for p in chain]
    around = sorted(kept.lines.get("fields", []) + kept.lines.get("siblings", []))
    start = sym.range.start.line
    skeleton += [text for row, text in around if row < start] + [source]
    skeleton += [text for row, text in around if row > start]
    imports = [text for _, text in kept.lines.get("imports", [])]

    data: dict[str, Any] = {
        "path": shown,
        "name": sym.name,
        "kind": int(sym.kind),
        "range": sym.range.to_lsp(),
        "containers": [p.scoped_name for p in chain],
        "imports": [row + 1 for row, _ in kept.lines.get("imports", [])],
        "fields": len(kept.lines.get("fields", [])),
        "siblings": len(kept.lines.get("siblings", [])),
        "left_out": {k: v for k, v in kept.left.items() if v},
        "surroundings_tokens": room,
    }
    first = _first_line(call, shown, outline, sym, kept, too_big)
    blocks = [first, *(["imports it uses:\n" + "\n".join(imports)] if imports else []), "\n".join(skeleton)]
    return ToolResult(blocks, data)


def _first_line(call: Call, shown: str, outline: Outline, sym: Symbol, kept: _Kept, too_big: bool) -> str:
    head = (
        f"{shown}: {sym.scoped_name} with its surroundings ({outline.language.name}, {outline.source.line_count} lines)"
    )
    left = [f"{n} {_PART_NAMES[part]}" for part, n in kept.left.items() if n]
    cut = f"surroundings kept within ~{kept.room:,} tokens, left out: {', '.join(left)}; " if left else ""
    note = f"[{cut}the file's outline: {hints.command('simple_read', shown, mode='outline')}"
    if too_big:
        note += (
            f"; its source is over the {call.budget:,}-token budget, so its signature is shown: open a part with "
            f"{hints.command('expand_at', shown, 'line:N')}"
        )
    return f"{head} {note}]"
