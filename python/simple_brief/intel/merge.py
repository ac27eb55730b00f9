"""Line hunks between two texts, and the three-way merge that keeps the person's edits.

`hunks(old, new)` is a line diff (difflib) as the review shows it: each hunk the lines it
removes from `old` (from `start`, 1-based) and the lines it puts there.

`merge3(base, ours, theirs)`: `base` is the text the agent last read, `ours` the text the
person sees now, `theirs` the agent's new text written against `base`. The agent's changes
come back as hunks against `ours`: a change in a region the person did not touch applies
as it is; a change in a region the person changed too (overlapping, or touching the same
point) is a conflict hunk (`old` = the person's lines now, `new` = the agent's), never
applied blindly. A change both made alike is no hunk at all.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class Hunk:
    """One change: `old` lines (from line `start`, 1-based) become `new`.

    For a pure insertion (`old` empty) the new lines go before line `start`
    (the line count + 1 appends).
    """

    start: int
    old: tuple[str, ...]
    new: tuple[str, ...]
    conflict: bool = False

    @property
    def end(self) -> int:
        """The last line of `old` (start - 1 for an insertion)."""
        return self.start + len(self.old) - 1

    def span(self) -> str:
        """`L12-14`, `L12`, or `before L12` for an insertion."""
        if not self.old:
            return f"before L{self.start}"
        return f"L{self.start}" if self.end == self.start else f"L{self.start}-{self.end}"


@dataclass(frozen=True)
class Merged:
    """The agent's changes against the person's text now (`hunks`, conflicts marked), and
    `text`: `ours` with every hunk that is not a conflict applied."""

    hunks: tuple[Hunk, ...]
    text: str

    @property
    def conflicts(self) -> list[Hunk]:
        """The hunks the person changed too."""
        return [h for h in self.hunks if h.conflict]


def split_lines(text: str) -> list[str]:
    """The lines of `text` split at newlines only (as Neovim counts them: a form feed or a
    lone carriage return stays inside its line); a final newline ends the last line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def join_lines(lines: list[str] | tuple[str, ...], eol: bool) -> str:
    """Lines back to a text, with a final newline when `eol` (and any line at all)."""
    body = "\n".join(lines)
    return body + "\n" if eol and lines else body


def _ends_with_newline(text: str) -> bool:
    return text.endswith("\n")


@dataclass(frozen=True)
class _Change:
    """A change of one side against base: base lines [lo, hi) (0-based) become `lines`."""

    lo: int
    hi: int
    lines: tuple[str, ...]


def _differing(a: list[str], b: list[str]) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) of each differing block of `a` and `b`: the lines both begin and end
    with are set aside before difflib (quadratic at worst) sees the middle, where an edit is."""
    same = min(len(a), len(b))
    head = 0
    while head < same and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < same - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    matcher = difflib.SequenceMatcher(None, a[head : len(a) - tail], b[head : len(b) - tail], autojunk=False)
    return [
        (i1 + head, i2 + head, j1 + head, j2 + head) for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"
    ]


def _changes(a: list[str], b: list[str]) -> list[_Change]:
    return [_Change(i1, i2, tuple(b[j1:j2])) for i1, i2, j1, j2 in _differing(a, b)]


def hunks(old: str, new: str) -> list[Hunk]:
    """The line hunks that turn `old` into `new`, in order."""
    a, b = split_lines(old), split_lines(new)
    return [Hunk(c.lo + 1, tuple(a[c.lo : c.hi]), c.lines) for c in _changes(a, b)]


def _touch(x: _Change, y: _Change) -> bool:
    """Whether two changes of base meet: their line ranges overlap, or one is an insertion at
    a point inside or at either end of the other (both sides changed the same place)."""
    if x.lo == x.hi or y.lo == y.hi:
        return y.lo <= x.lo <= y.hi if x.lo == x.hi else x.lo <= y.lo <= x.hi
    return x.lo < y.hi and y.lo < x.hi


def merge3(base: str, ours: str, theirs: str) -> Merged:
    """The agent's changes (`base` → `theirs`) as hunks against `ours` (see the module)."""
    b, o, t = split_lines(base), split_lines(ours), split_lines(theirs)
    mine, agent = _changes(b, o), _changes(b, t)
    out: list[Hunk] = []
    i = 0
    while i < len(agent):
        lo, hi = agent[i].lo, agent[i].hi
        group_agent = [agent[i]]
        group_mine = [m for m in mine if _touch(agent[i], m)]
        # Grow the region while changes of either side meet it.
        grown = True
        while grown:
            if group_mine:
                lo = min(lo, *(m.lo for m in group_mine))
                hi = max(hi, *(m.hi for m in group_mine))
            grown = False
            while i + 1 < len(agent) and _touch(_Change(lo, hi, ()), agent[i + 1]):
                i += 1
                group_agent.append(agent[i])
                lo, hi = min(lo, agent[i].lo), max(hi, agent[i].hi)
                grown = True
            more = [m for m in mine if m not in group_mine and _touch(_Change(lo, hi, ()), m)]
            if more:
                group_mine.extend(more)
                grown = True
        i += 1
        start = _in_ours(lo, mine)
        if not group_mine:
            out.append(Hunk(start + 1, tuple(o[start : start + hi - lo]), _apply(b, lo, hi, group_agent)))
            continue
        end = _in_ours(hi, mine, end=True)
        person, agents = tuple(o[start:end]), _apply(b, lo, hi, group_agent)
        if person != agents:
            out.append(Hunk(start + 1, person, agents, conflict=True))
    text = ours
    for h in reversed([h for h in out if not h.conflict]):
        text = apply_hunk(text, h)
    return Merged(tuple(out), text)


def _apply(base: list[str], lo: int, hi: int, changes: list[_Change]) -> tuple[str, ...]:
    """Base lines [lo, hi) with `changes` (inside that region, in order) applied."""
    out: list[str] = []
    at = lo
    for c in changes:
        out.extend(base[at : c.lo])
        out.extend(c.lines)
        at = c.hi
    out.extend(base[at:hi])
    return tuple(out)


def _in_ours(line: int, mine: list[_Change], end: bool = False) -> int:
    """Base line `line` (0-based; a boundary) in the person's text: shifted by the person's
    changes before it; `end`: a boundary that also takes in a change ending there."""
    shift = 0
    for m in mine:
        if m.hi < line or (m.hi == line and (end or m.lo < m.hi)):
            shift += len(m.lines) - (m.hi - m.lo)
    return line + shift


def apply_hunk(text: str, hunk: Hunk) -> str:
    """`text` with `hunk`'s old lines (which must be there) replaced by its new ones."""
    lines = split_lines(text)
    lines[hunk.start - 1 : hunk.start - 1 + len(hunk.old)] = list(hunk.new)
    eol = _ends_with_newline(text) or not text
    return join_lines(lines, eol)


def changed_lines(base: str, now: str) -> list[tuple[int, int]]:
    """The line ranges of `now` (1-based, inclusive; an empty range (n, n-1) where lines were
    only removed) that differ from `base`."""
    return [(h.start, h.start + len(h.old) - 1) for h in _now_side(base, now)]


def _now_side(base: str, now: str) -> list[Hunk]:
    """The changes from `base` to `now` seen from `now`: `old` the lines of `now`."""
    a, b = split_lines(base), split_lines(now)
    return [Hunk(j1 + 1, tuple(b[j1:j2]), tuple(a[i1:i2])) for i1, i2, j1, j2 in _differing(a, b)]
