"""Edit arithmetic on text (positions 0-based, characters = code points): applying LSP-style
TextEdits, offsets <-> positions, and the smallest edits between two texts.

The previews of renames, formatting and fix-its (`render.lsp`) and the refactoring tools
use it; it knows nothing of LSP JSON (`protocol`) or of output (`render`).
"""

from __future__ import annotations

import difflib
import re
from bisect import bisect_right
from collections.abc import Iterable

from simple_brief.model import Position, Range, TextEdit


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def _line_end(text: str, starts: list[int], line: int) -> int:
    """Offset of the end of `line`'s content (before `\\r\\n` or `\\n`)."""
    end = starts[line + 1] - 1 if line + 1 < len(starts) else len(text)
    if end > starts[line] and text[end - 1] == "\r":
        end -= 1
    return end


def offset_of(text: str, pos: Position, starts: list[int] | None = None) -> int:
    """The offset of a position; past the end of a line or the text clamps (as LSP says)."""
    starts = starts if starts is not None else _line_starts(text)
    if pos.line >= len(starts):
        return len(text)
    line = max(pos.line, 0)
    return min(starts[line] + max(pos.character, 0), _line_end(text, starts, line))


def position_at(text: str, offset: int, starts: list[int] | None = None) -> Position:
    """The position of an offset."""
    starts = starts if starts is not None else _line_starts(text)
    line = max(0, bisect_right(starts, offset) - 1)
    return Position(line, offset - starts[line])


def apply_text_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """`text` with the edits applied (LSP rules: positions refer to the original text; edits
    at one position apply in the order given)."""
    starts = _line_starts(text)
    spans = [
        (offset_of(text, e.range.start, starts), offset_of(text, e.range.end, starts), i, e.new_text)
        for i, e in enumerate(edits)
    ]
    # From the end backwards, so earlier offsets stay valid; ties keep the given order.
    for start, end, _, new in sorted(spans, key=lambda s: (s[0], s[2]), reverse=True):
        text = text[:start] + new + text[max(start, end) :]
    return text


_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def minimal_edits(old: str, new: str) -> list[TextEdit]:
    """The small edits that turn `old` into `new`: whole tokens on changed lines (so a rename
    shows one edit per occurrence even when a server replaced the whole file), whole lines
    where lines were added or removed. Positions refer to `old`."""
    if old == new:
        return []
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    starts = _line_starts(old)
    a_offsets = [0]
    for line in a:
        a_offsets.append(a_offsets[-1] + len(line))
    edits: list[TextEdit] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if tag == "replace" and i2 - i1 == j2 - j1:
            for k in range(i2 - i1):
                edits.extend(_token_edits(old, starts, a_offsets[i1 + k], a[i1 + k], b[j1 + k]))
            continue
        start, end = a_offsets[i1], a_offsets[i2]
        edits.append(TextEdit(Range(position_at(old, start, starts), position_at(old, end, starts)), "".join(b[j1:j2])))
    return edits


def _token_edits(old: str, starts: list[int], base: int, before: str, after: str) -> list[TextEdit]:
    ta, tb = _TOKEN.findall(before), _TOKEN.findall(after)
    offsets = [0]
    for tok in ta:
        offsets.append(offsets[-1] + len(tok))
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if tag != "equal":
            s, e = base + offsets[i1], base + offsets[i2]
            out.append(TextEdit(Range(position_at(old, s, starts), position_at(old, e, starts)), "".join(tb[j1:j2])))
    return out
