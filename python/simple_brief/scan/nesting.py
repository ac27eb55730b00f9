"""Flat symbols -> a tree, by range containment (the last step of `scan.scan`).

Queries and the line heuristic find definitions one by one; here a symbol becomes the
child of the innermost symbol whose range strictly contains it. A function directly in a
class is a method; a field set inside a constructor is listed under its class. Every step
is linear in the number of symbols (after one sort).
"""

from __future__ import annotations

from simple_brief.model import (
    CLASS_KINDS,
    FUNCTION_KINDS,
    Diagnostic,
    Position,
    Range,
    Severity,
    Symbol,
    SymbolKind,
)

#: Symbols nested deeper than this are not listed (keeps every walker off the recursion limit).
MAX_NESTING = 64
_MEMBER_KINDS = frozenset({SymbolKind.Field, SymbolKind.Property})
#: A function directly inside one of these is a method (not inside a module or namespace).
_METHOD_OWNERS = frozenset(
    {SymbolKind.Class, SymbolKind.Interface, SymbolKind.Object, SymbolKind.Struct, SymbolKind.Enum}
)
_FUNCTION_KINDS = FUNCTION_KINDS


def nest(symbols: list[Symbol], diagnostics: list[Diagnostic] | None = None) -> list[Symbol]:
    """Nest flat symbols by range containment; a function directly in a class is a method."""
    ordered = sorted(symbols, key=_by_start_then_longest)
    roots: list[Symbol] = []
    stack: list[Symbol] = []
    too_deep = 0
    names = _ChildNames()
    for sym in ordered:
        while stack and not _encloses(stack[-1], sym):
            stack.pop()
        if len(stack) >= MAX_NESTING:
            too_deep += 1
            continue
        if stack:
            parent = stack[-1]
            if sym.kind == SymbolKind.Function and parent.kind in _METHOD_OWNERS:
                sym.kind = SymbolKind.Method
            if sym.kind in _MEMBER_KINDS and parent.kind in _FUNCTION_KINDS and len(stack) > 1:
                owner = stack[-2]
                if owner.kind in CLASS_KINDS and names.lacks(owner, sym.name):
                    owner.children.append(sym)
                continue
            parent.children.append(sym)
        else:
            roots.append(sym)
        stack.append(sym)
    if too_deep and diagnostics is not None:
        diagnostics.append(too_deep_hint(too_deep))
    return roots


def too_deep_hint(count: int) -> Diagnostic:
    """H001: definitions left out because they nest deeper than MAX_NESTING."""
    return Diagnostic(
        Range(Position(0, 0), Position(0, 0)),
        f"{count} definitions nested deeper than {MAX_NESTING} levels are not listed",
        Severity.Hint,
        "H001",
    )


def too_many_hint(cap: int) -> Diagnostic:
    """H002: a data file with more keys than its language lists; the outline stops there."""
    return Diagnostic(
        Range(Position(0, 0), Position(0, 0)),
        f"the outline stops at {cap:,} definitions; the rest of this file is not listed",
        Severity.Hint,
        "H002",
    )


class _ChildNames:
    """The names among each symbol's children, for listing a field set inside a constructor
    under its class once per name: looking through the children for every field would be
    quadratic in a constructor that sets many."""

    def __init__(self) -> None:
        self._names: dict[int, tuple[Symbol, set[str], int]] = {}

    def lacks(self, owner: Symbol, name: str) -> bool:
        """Whether no child of `owner` is called `name` (children appended since the last
        call are taken into account)."""
        known = self._names.get(id(owner))
        seen, count = (known[1], known[2]) if known is not None else (set(), 0)
        children = owner.children
        seen.update(c.name for c in children[count:])
        self._names[id(owner)] = (owner, seen, len(children))
        return name not in seen


def _by_start_then_longest(sym: Symbol) -> tuple[int, int, int, int]:
    """Sort key: by start, then the one ending last first (Positions order as (line, character))."""
    start, end = sym.range.start, sym.range.end
    return (start.line, start.character, -end.line, -end.character)


def _encloses(outer: Symbol, inner: Symbol) -> bool:
    """Strictly contains: two symbols of one range (`int a, b;`) are siblings, not parent and child."""
    o, i = outer.range, inner.range
    os_, oe, is_, ie = o.start, o.end, i.start, i.end
    o_start, o_end = (os_.line, os_.character), (oe.line, oe.character)
    i_start, i_end = (is_.line, is_.character), (ie.line, ie.character)
    if o_start == i_start and o_end == i_end:
        return False
    return o_start <= i_start and i_end <= o_end
