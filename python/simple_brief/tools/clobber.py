"""Never clobber (issue 29): an edit path (`files_apply_overlay`, rename/extract
`apply=true`) never writes over lines the person changed since the agent read the file.

The session's read mark (`editor.review.ReadMarks`) is the text the agent read; the call's
view is the text now (the person's unsaved buffers included). Where they differ, the person
changed it: an edit there is refused with one sentence naming the lines and what to do.
Without a read mark (the agent never read the file, or the command line, which keeps none)
nothing is known to have changed and the edit goes ahead.
"""

from __future__ import annotations

from pathlib import Path

from simple_brief.errors import UserError
from simple_brief.intel import merge
from simple_brief.model import TextEdit
from simple_brief.source import Source
from simple_brief.tools import Call

AFTER = "re-read it (simple_read) and make the edit again, or send it to the person with edit_propose"


def _spans(ranges: list[tuple[int, int]]) -> str:
    shown = [f"{a}" if a >= b else f"{a}-{b}" for a, b in ranges[:5]]
    more = f" and {len(ranges) - 5} more" if len(ranges) > 5 else ""
    return ", ".join(shown) + more


def merged_overlay(call: Call, real: Path, content: str) -> tuple[str, list[tuple[int, int]]]:
    """The overlay text to keep for `content`: itself when the person changed nothing since
    the read mark; else the agent's changes rebased on the person's text (three-way merge),
    with the lines the person had changed.

    Raises:
        UserError: the agent's text changes lines the person changed too.
    """
    mark = call.marks.get(real) if call.marks is not None else None
    if mark is None or not real.exists():
        return content, []
    try:
        person = _person_text(call, real)
    except UserError:
        return content, []
    if person == mark:
        return content, []
    merged = merge.merge3(mark, person, content)
    conflicts = [(h.start, h.end) for h in merged.conflicts]
    if conflicts:
        raise UserError(
            f"lines {_spans(conflicts)} of {call.workspace.display(real)} changed since you read it (the person's "
            f"edits) and your text changes them too; nothing was applied: {AFTER}."
        )
    return merged.text, merge.changed_lines(mark, person)


def _person_text(call: Call, real: Path) -> str:
    """The person's text of `real` now: their unsaved buffer, else the disk; never the
    agent's own overlay (which a new overlay replaces)."""
    ws = call.workspace
    buffer = ws.overlays.editor.get(real)
    if buffer is not None:
        return buffer
    _, data = ws.read_bytes(real)
    return Source.from_bytes(data, name=ws.display(real), max_bytes=ws.max_bytes).text


def refuse_edits_over_changes(call: Call, real: Path, current: str, edits: list[TextEdit]) -> None:
    """Refuse `edits` (against `current`, the text now) that touch lines the person changed
    since the session read `real`.

    Raises:
        UserError: an edit's lines overlap the person's changes (one sentence naming them).
    """
    mark = call.marks.get(real) if call.marks is not None else None
    if mark is None or mark == current or real in call.workspace.overlays.agent:
        # With the agent's own overlay the edit goes to that text: what differs is the agent's.
        return
    changed = merge.changed_lines(mark, current)
    hit = []
    for a, b in changed:
        lo, hi = a, max(a, b)
        for e in edits:
            first, last = e.range.start.line + 1, e.range.end.line + 1
            if first <= hi and lo <= last:
                hit.append((a, b))
                break
    if hit:
        raise UserError(
            f"lines {_spans(hit)} of {call.workspace.display(real)} changed since you read it (the person's edits) "
            f"and this edit touches them; nothing was applied: {AFTER}."
        )
