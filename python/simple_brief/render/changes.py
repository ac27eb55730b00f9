"""What changed in a file between two texts, per symbol (`changes_since`): added, removed,
renamed (same kind and place, same body under another name), signature changed, body
changed — each the innermost symbol that explains it — in the outline's block-mark style.

    src/app.py: 3 changes since you read it
      ~ renamed Method:App.a -> Method:App.b  F> def b(self) { ... } L5-6
      + F> def helper(x) { ... } L20-24
      ~ body  F> def run(self) { ... } L8-15
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from simple_brief.intel import merge
from simple_brief.model import Symbol
from simple_brief.render.blockmarks import mark_line

_SIGNS = {"added": "+", "removed": "-"}


@dataclass(frozen=True)
class Change:
    """One symbol's change: `what` (added, removed, renamed, signature, body), its chain
    (`Class:App > Method:run`), the symbol as it is now (as it was, for `removed`), and
    for a rename the old chain."""

    what: str
    chain: str
    symbol: Symbol
    was: str = ""

    def line(self) -> str:
        """The change as one block-mark line."""
        mark = mark_line(self.symbol)
        if self.what == "renamed":
            return f"~ renamed {self.was} -> {self.chain}  {mark}"
        if self.what in _SIGNS:
            return f"{_SIGNS[self.what]} {self.chain}  {mark}"
        return f"~ {self.what} changed  {mark}"

    def as_json(self) -> dict[str, Any]:
        """The change as data."""
        out = {"change": self.what, "symbol": self.chain, "line": self.symbol.range.start.line + 1}
        if self.was:
            out["was"] = self.was
        return out


def _flat(symbols: list[Symbol], parent: str = "") -> dict[str, tuple[Symbol, str]]:
    """Chain -> (symbol, its parent's chain); a second symbol of the same chain gets `#2`."""
    out: dict[str, tuple[Symbol, str]] = {}
    for sym in symbols:
        chain = f"{parent} > " if parent else ""
        chain += f"{sym.kind.name}:{sym.scoped_name}"
        key, n = chain, 1
        while key in out:
            n += 1
            key = f"{chain}#{n}"
        out[key] = (sym, parent)
        out.update({k: v for k, v in _flat(sym.children, key).items() if k not in out})
    return out


def _text(lines: list[str], sym: Symbol) -> str:
    return "\n".join(lines[sym.range.start.line : sym.range.end.line + 1])


def _body(lines: list[str], sym: Symbol) -> str:
    """The symbol's text after its name's line (what a rename leaves alone)."""
    return "\n".join(lines[sym.selection_range.start.line + 1 : sym.range.end.line + 1])


def symbol_changes(before: str, before_symbols: list[Symbol], after: str, after_symbols: list[Symbol]) -> list[Change]:
    """The per-symbol changes from `before` to `after` (texts and their outlines' symbols)."""
    old_lines, new_lines = merge.split_lines(before), merge.split_lines(after)
    old = _flat(before_symbols)
    new = _flat(after_symbols)
    removed = [k for k in old if k not in new]
    added = [k for k in new if k not in old]
    found: list[Change] = []
    renamed_old: set[str] = set()
    for key in list(added):
        sym, parent = new[key]
        body = _body(new_lines, sym)
        twin = next(
            (
                k
                for k in removed
                if k not in renamed_old
                and old[k][1] == parent
                and old[k][0].kind == sym.kind
                and _body(old_lines, old[k][0]) == body
            ),
            None,
        )
        if twin is not None:
            renamed_old.add(twin)
            added.remove(key)
            found.append(Change("renamed", key, sym, was=twin))
    found.extend(Change("removed", k, old[k][0]) for k in removed if k not in renamed_old)
    found.extend(Change("added", k, new[k][0]) for k in added)
    touched = {c.chain for c in found} | {c.was for c in found}
    for key, (sym, _) in new.items():
        if key not in old:
            continue
        was = old[key][0]
        if (sym.signature or sym.name) != (was.signature or was.name):
            found.append(Change("signature", key, sym))
        elif _text(new_lines, sym) != _text(old_lines, was) and not any(
            t.startswith(key + " > ") for t in touched | _changed_inside(key, old, new, old_lines, new_lines)
        ):
            found.append(Change("body", key, sym))
    found.sort(key=lambda c: c.symbol.range.start.line)
    return found


def _changed_inside(
    key: str,
    old: dict[str, tuple[Symbol, str]],
    new: dict[str, tuple[Symbol, str]],
    old_lines: list[str],
    new_lines: list[str],
) -> set[str]:
    """The members of `key` whose own text changed (their change explains the container's)."""
    return {
        k
        for k, (sym, _) in new.items()
        if k.startswith(key + " > ") and k in old and _text(new_lines, sym) != _text(old_lines, old[k][0])
    }


def outside_symbols(before: str, after: str, after_symbols: list[Symbol]) -> list[tuple[int, int]]:
    """The changed lines of `after` (1-based ranges, inclusive) outside every top-level
    symbol: imports, comments, top-level statements; blank lines left out (where lines
    were only removed, the line after them)."""
    spans = [(sym.range.start.line + 1, sym.range.end.line + 1) for sym in after_symbols]
    lines = merge.split_lines(after)
    outside: list[int] = []
    for a, b in merge.changed_lines(before, after):
        for line in range(a, max(a, b) + 1):
            blank = b >= a and not lines[line - 1].strip()
            if not blank and not any(lo <= line <= hi for lo, hi in spans):
                outside.append(line)
    ranges: list[tuple[int, int]] = []
    for line in outside:
        if ranges and ranges[-1][1] + 1 >= line:
            ranges[-1] = (ranges[-1][0], line)
        else:
            ranges.append((line, line))
    return ranges


def render(shown: str, found: list[Change], outside: list[tuple[int, int]]) -> str:
    """A file's changes as block-mark lines under one head line; then the lines changed
    outside any symbol."""
    where = ", ".join(f"L{a}" if a == b else f"L{a}-{b}" for a, b in outside)
    if not found:
        return f"{shown}: changed outside any symbol since you read it ({where}: imports, comments or statements)."
    noun = "change" if len(found) == 1 else "changes"
    lines = [f"{shown}: {len(found)} symbol {noun} since you read it", *("  " + c.line() for c in found)]
    if outside:
        lines.append(f"  ~ outside symbols  {where}")
    return "\n".join(lines)
