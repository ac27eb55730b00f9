"""The edit toolset (issue 29): the agent proposes edits the person reviews in Neovim, hunk
by hunk, learns what was kept, sees what changed since it read a file, and points the
person at code.

- `edit_propose`: the agent's new text (or 1-based TextEdits) diffed against the text the
  person sees now (the loaded buffer, else the disk); a `new_text` written against an
  older read is rebased on the person's edits (`intel.merge.merge3`: base = the session's
  read mark); each hunk named by its enclosing symbol; sent to
  `require('simple_brief.review').propose` (re-sent on `stale`, at most `STALE_RETRIES`).
- `edit_status`: per hunk pending / accepted / rejected / conflict, and the person's own
  tweaks (the buffer against the proposal with the accepted hunks applied); `wait_s`
  polls with MCP progress and stops when the call is cancelled.
- `changes_since`: per symbol, what changed since the session's read mark (the mark does
  not move: reading moves it).
- `editor_show`: folds the person's window to the listed symbols, cursor and note at one.

Nothing here writes a file: the person saves.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated, Any

from simple_brief import languages
from simple_brief.editor.context import enclosing_scopes
from simple_brief.editor.review import Proposal
from simple_brief.errors import UserError
from simple_brief.intel import merge
from simple_brief.intel.text_edits import apply_text_edits
from simple_brief.model import Position, Range, Symbol, TextEdit
from simple_brief.render import changes
from simple_brief.render.budget import fit_blocks
from simple_brief.render.lsp import unified_diff
from simple_brief.scan import scan
from simple_brief.source import Source
from simple_brief.tools import Call, Doc, ToolResult, hints, tool
from simple_brief.tools.read import find_symbol

#: Times a proposal is re-made when the buffer changed between the diff and its display.
STALE_RETRIES = 3
#: The longest `edit_status` wait, seconds.
MAX_WAIT_S = 120
#: Seconds between two status polls while waiting.
POLL_S = 0.5
#: Lines of the person's own tweaks shown by `edit_status`.
TWEAK_LINES = 40

NO_NEOVIM = (
    "reviewing edits needs a running Neovim with simple-brief, and none is attached; "
    "try the text in memory with files_apply_overlay (nothing is written), or write the file yourself."
)

EditPath = Annotated[str, Doc("File.")]


def _editor_answer(call: Call, function: str, args: list[Any]) -> Any:
    """The value of a review call to Neovim.

    Raises:
        UserError: no Neovim, it did not answer, or its plugin lacks the review module.
    """
    if call.editor.name == "disk":
        raise UserError(NO_NEOVIM)
    answer = call.editor.review(function, args)
    if answer is None:
        raise UserError(f"Neovim did not answer the review call ({function}); check it is not busy, then try again.")
    if answer.get("error"):
        raise UserError(str(answer["error"]))
    return answer.get("value")


def _person_text(call: Call, real: Path) -> tuple[str, int | None, bool]:
    """(the text the person sees: the loaded buffer, else the disk (never the agent's
    overlay); its changedtick, None when no buffer; whether it ends with a newline)."""
    found = _editor_answer(call, "buffer", [str(real)])
    if not isinstance(found, dict):
        disk = _disk_text(call, real)
        return disk, None, disk.endswith("\n") or not disk
    lines = [str(ln) for ln in found.get("lines") or []]
    eol = bool(found.get("eol", True))
    return merge.join_lines(lines, eol), int(found["tick"]), eol


def scope_chain(symbols: list[Symbol], text_lines: list[str], line: int) -> str:
    """`Class:App > Method:run`: the symbols around 1-based `line` (its first non-blank
    character), as the editor context names them ('' at top level)."""
    row = max(line - 1, 0)
    text = text_lines[row] if row < len(text_lines) else ""
    col = len(text) - len(text.lstrip())
    return " > ".join(f"{s.kind.name}:{s.scoped_name}" for s in enclosing_scopes(symbols, row, col, text))


def _hunk_line(hunk: merge.Hunk) -> int:
    """The line a hunk's symbol is looked up at: its first old line, or for an insertion
    the line the new lines follow."""
    return hunk.start if hunk.old else max(hunk.start - 1, 1)


def _edits_from_json(text: str) -> list[TextEdit]:
    """LSP TextEdits given as JSON, 1-based lines and characters (as every tool writes them).

    Raises:
        UserError: not a JSON list of {range: {start, end}, newText}.
    """
    example = (
        '[{"range": {"start": {"line": 3, "character": 1}, "end": {"line": 4, "character": 1}}, "newText": "x\\n"}]'
    )
    try:
        items = json.loads(text)
        if not isinstance(items, list):
            raise TypeError
        out = []
        for item in items:
            rng = item["range"]
            start, end = rng["start"], rng["end"]
            out.append(
                TextEdit(
                    Range(
                        Position(int(start["line"]) - 1, int(start["character"]) - 1),
                        Position(int(end["line"]) - 1, int(end["character"]) - 1),
                    ),
                    str(item["newText"]),
                )
            )
    except (ValueError, TypeError, KeyError):
        raise UserError(f"parameter `edits` must be a JSON list of 1-based LSP TextEdits, such as {example}.") from None
    if any(e.range.start.line < 0 or e.range.start.character < 0 for e in out):
        raise UserError("parameter `edits` has a position before line 1 or column 1; positions are 1-based.")
    return out


def propose_text(
    call: Call, real: Path, theirs: str, title: str | None, written_on: str | None = None
) -> tuple[Proposal, bool]:
    """Merge `theirs` with the person's text now, send it to Neovim (again on `stale`), keep
    it; (the proposal, whether it was rebased on the person's edits since the text it was
    written on). `written_on`: the text `theirs` was made from (a refactoring's); default
    the session's read mark.

    Raises:
        UserError: no Neovim, no change to propose, or Neovim refused it.
    """
    mark = written_on if written_on is not None else _read_as(call, real)
    pid = call.proposals.next_id()
    for _ in range(STALE_RETRIES):
        ours, tick, eol = _person_text(call, real)
        base = mark
        merged = merge.merge3(base, ours, theirs)
        if not merged.hunks:
            raise UserError(f"{call.workspace.display(real)} already reads as proposed; there is nothing to review.")
        symbols, lines = _symbols_of(real, ours), merge.split_lines(ours)
        chains = tuple(scope_chain(symbols, lines, _hunk_line(h)) for h in merged.hunks)
        proposal = Proposal(pid, real, ours, merged.hunks, chains, title, tick, eol)
        answer = _editor_answer(call, "propose", [_contract(proposal)])
        if isinstance(answer, dict) and answer.get("ok"):
            call.proposals.keep(proposal)
            return proposal, base != ours
        if not (isinstance(answer, dict) and answer.get("stale")):
            why = (answer.get("error") or answer.get("message")) if isinstance(answer, dict) else None
            raise UserError(f"Neovim did not show the proposal ({why or 'no reason given'}); try again.")
    raise UserError(
        f"the person kept typing in {call.workspace.display(real)} while the proposal was made "
        f"({STALE_RETRIES} tries); call edit_propose again in a moment."
    )


def _read_as(call: Call, real: Path) -> str:
    """The text the agent wrote against: its session's read mark, else the disk (what an
    agent reading files with its own tools saw; the person's unsaved edits are then theirs
    to keep, never proposed away)."""
    mark = call.marks.get(real) if call.marks is not None else None
    return mark if mark is not None else _disk_text(call, real)


def _disk_text(call: Call, real: Path) -> str:
    _, data = call.workspace.read_bytes(real)
    return Source.from_bytes(data, name=call.workspace.display(real), max_bytes=call.workspace.max_bytes).text


def _contract(proposal: Proposal) -> dict[str, Any]:
    """The `propose(p)` table of the contract (docs/mcp.md)."""
    return {
        "id": proposal.id,
        "path": str(proposal.path),
        "title": proposal.title,
        "tick": proposal.tick,
        "hunks": [
            {
                "n": n,
                "start": h.start,
                "old": list(h.old),
                "new": list(h.new),
                "symbol": chain,
                "conflict": h.conflict,
            }
            for n, (h, chain) in enumerate(zip(proposal.hunks, proposal.chains, strict=True), 1)
        ],
    }


def _symbols_of(real: Path, text: str) -> list[Symbol]:
    return scan(text, languages.detect(real, None)).symbols


def proposal_blocks(call: Call, proposal: Proposal, rebased: bool) -> tuple[str, dict[str, Any]]:
    """The answer's text of a proposal sent to review, and its data."""
    shown = call.workspace.display(proposal.path)
    rows = []
    hunks_data = []
    for n, (h, chain) in enumerate(zip(proposal.hunks, proposal.chains, strict=True), 1):
        where = f" in {chain}" if chain else " at top level"
        conflict = " CONFLICT: the person changed these lines since you read them" if h.conflict else ""
        rows.append(f"hunk {n} {h.span()}{where}: -{len(h.old)} +{len(h.new)}{conflict}")
        hunks_data.append(
            {
                "n": n,
                "start": h.start,
                "removed": len(h.old),
                "added": len(h.new),
                "symbol": chain,
                "conflict": h.conflict,
            }
        )
    count = len(proposal.hunks)
    head = (
        f"{proposal.id}: {count} hunk{'s' if count != 1 else ''} proposed for {shown}, shown in Neovim for the "
        f"person's review (nothing written); {hints.command('edit_status', id=proposal.id, wait_s='60')} "
        "waits for their decision."
    )
    if rebased:
        head += " Rebased on the person's edits since you read the file."
    data = {"id": proposal.id, "path": shown, "hunks": hunks_data, "rebased": rebased}
    return "\n".join([head, *rows]), data


def sent_to_review(call: Call, head: str, changed: dict[Path, tuple[str, str, list[TextEdit]]]) -> ToolResult:
    """A refactoring's new texts (old, new, edits per file) sent to the person's review
    instead of applied (`review=true`): one proposal per file."""
    if call.editor.name == "disk":
        raise UserError(NO_NEOVIM)
    blocks = [f"{head}; sent to the person's review in Neovim, one proposal per file (nothing applied):"]
    proposals = []
    for real, (old, new, _) in sorted(changed.items()):
        proposal, rebased = propose_text(call, real, new, head, written_on=old)
        text, data = proposal_blocks(call, proposal, rebased)
        blocks.append(text)
        proposals.append(data)
    return ToolResult(blocks, {"proposals": proposals})


@tool(
    "edit_propose",
    "edit",
    "A change the person reviews hunk by hunk in Neovim; nothing is written. "
    "USE FOR: edits the person approves. DON'T USE FOR: trying text (files_apply_overlay).",
    read_only=False,
    destructive=False,
)
def edit_propose(
    call: Call,
    path: EditPath,
    # Plain `str` with "" for none: the MCP SDK would parse a JSON-looking `str | None`
    # value (a package.json, the edits) into a list before our code sees it.
    new_text: Annotated[str, Doc("The whole new file.")] = "",
    edits: Annotated[str, Doc("Or: JSON list of LSP TextEdits, 1-based.")] = "",
    title: Annotated[str | None, Doc("For the person.")] = None,
) -> ToolResult:
    """Diff, rebase, name the hunks, send them to Neovim; the id at once."""
    if bool(new_text) == bool(edits):
        raise UserError(
            "give either `new_text` (the whole new file) or `edits` (1-based TextEdits; also to empty a file), "
            "not both."
        )
    if call.editor.name == "disk":
        raise UserError(NO_NEOVIM)
    real, _ = call.workspace.read(path)  # refuses what may not be read (outside, secrets, binary)
    if edits:
        # Positions as the agent read the file: its read mark, else the disk.
        try:
            new_text = apply_text_edits(_read_as(call, real), _edits_from_json(edits))
        except (IndexError, ValueError):
            raise UserError(
                "an edit in `edits` lies outside the file; positions are 1-based lines and columns."
            ) from None
    proposal, rebased = propose_text(call, real, new_text, title)
    text, data = proposal_blocks(call, proposal, rebased)
    return ToolResult([text], data)


@tool(
    "edit_status",
    "edit",
    "A proposal's hunks (accepted, rejected, pending) and the person's own tweaks. "
    "USE FOR: after edit_propose. DON'T USE FOR: reading files.",
)
def edit_status(
    call: Call,
    id: Annotated[str, Doc("From edit_propose (r1).")],
    wait_s: Annotated[int, Doc(f"Seconds to wait (<= {MAX_WAIT_S}).")] = 0,
) -> ToolResult:
    """Per-hunk states, waiting with progress while any is pending."""
    if not 0 <= wait_s <= MAX_WAIT_S:
        raise UserError(f"parameter `wait_s` must be between 0 and {MAX_WAIT_S} seconds, not {wait_s}.")
    proposal = call.proposals.get(id.strip())
    if proposal is None:
        known = ", ".join(call.proposals.ids()) or "none yet"
        raise UserError(f"there is no proposal `{id.strip()}` in this workspace (proposals: {known}).")
    started = time.monotonic()
    status: Any = None
    while True:
        try:
            status = _editor_answer(call, "status", [proposal.id])
        except UserError:
            # Neovim busy for a moment while we wait: ask again at the next poll.
            if time.monotonic() - started >= wait_s:
                raise
            call.report(time.monotonic() - started, wait_s, f"{proposal.id}: Neovim is busy; asking again")
            call.cancelled.wait(POLL_S)
            call.check_cancelled()
            continue
        if not isinstance(status, dict):
            raise UserError(
                f"Neovim no longer knows {proposal.id} (it was restarted or the buffer wiped); propose it again."
            )
        states = _states(status)
        pending = sum(1 for s in states.values() if s in ("pending", "conflict"))
        waited = time.monotonic() - started
        if not pending or waited >= wait_s:
            break
        call.report(waited, wait_s, f"{proposal.id}: {pending} of {len(states)} hunks await the person")
        call.cancelled.wait(POLL_S)
        call.check_cancelled()
    return _status_answer(call, proposal, status, states, pending)


def _states(status: dict[str, Any]) -> dict[int, str]:
    return {int(h["n"]): str(h.get("state", "pending")) for h in status.get("hunks") or []}


def _status_answer(
    call: Call, proposal: Proposal, status: dict[str, Any], states: dict[int, str], pending: int
) -> ToolResult:
    shown = call.workspace.display(proposal.path)
    parts = [f"hunk {n} {state}" for n, state in sorted(states.items())]
    if pending:
        waiting = f"{pending} of {len(states)} hunks await the person"
        head = f"pending: {proposal.id} on {shown}: {waiting} ({', '.join(parts)})."
    else:
        head = f"done: {proposal.id} on {shown}: {', '.join(parts)}."
    expected = proposal.ours
    for n, h in reversed(list(enumerate(proposal.hunks, 1))):
        if states.get(n) == "accepted":
            expected = merge.apply_hunk(expected, h)
    lines = [str(ln) for ln in status.get("lines") or []]
    final = merge.join_lines(lines, bool(status.get("eol", True)))
    tweaks = unified_diff(expected, final)
    blocks = [head]
    if tweaks:
        kept, _, _ = fit_blocks(["\n".join(tweaks[:TWEAK_LINES])], max(call.budget // 2, 200), "")
        more = f" ({len(tweaks) - TWEAK_LINES} more)" if len(tweaks) > TWEAK_LINES else ""
        blocks.append(f"the person's own changes beyond the proposal (a diff to the buffer now){more}:\n" + kept[0])
    else:
        blocks.append("the buffer holds exactly the proposal's accepted hunks (no other change); not saved yet.")
    data = {
        "id": proposal.id,
        "path": shown,
        "done": not pending,
        "hunks": [{"n": n, "state": s} for n, s in sorted(states.items())],
        "tweaks": sum(1 for t in tweaks if t.startswith("@@")),
    }
    return ToolResult(blocks, data)


@tool(
    "changes_since",
    "edit",
    "Per-symbol changes since you last read a file, the person's unsaved edits included. "
    "USE FOR: re-checking a file read earlier. DON'T USE FOR: git history.",
)
def changes_since(
    call: Call,
    path: Annotated[str | None, Doc("Default: every file you read.")] = None,
) -> ToolResult:
    """Per-symbol changes against the session's read marks (which do not move)."""
    if call.marks is None:
        raise UserError(
            "changes_since compares with what this MCP session read; the command line keeps no reads: "
            "use simple_read to see the file now."
        )
    if path is not None:
        real = call.workspace.resolve(path)
        if call.marks.get(real) is None:
            raise UserError(
                f"{call.workspace.display(real)} was not read in this session; "
                f"{hints.command('simple_read', path=call.workspace.display(real))} reads it."
            )
        paths = [real]
    else:
        paths = call.marks.paths()
        if not paths:
            raise UserError("this session has read no file yet; simple_read or expand_at read one.")
    blocks = []
    data: dict[str, Any] = {}
    for real in paths:
        call.check_cancelled()
        shown = call.workspace.display(real)
        before = call.marks.get(real) or ""
        try:
            _, source = call.workspace.read(real)
        except UserError as err:
            blocks.append(f"{shown}: {err}")
            continue
        if source.text == before:
            if path is not None:
                blocks.append(f"{shown}: unchanged since you read it.")
            data[shown] = []
            continue
        now = _symbols_of(real, source.text)
        found = changes.symbol_changes(before, _symbols_of(real, before), source.text, now)
        outside = changes.outside_symbols(before, source.text, now)
        data[shown] = [c.as_json() for c in found] + [{"change": "outside", "lines": [a, b]} for a, b in outside]
        blocks.append(changes.render(shown, found, outside))
    if not blocks:
        blocks = [f"none of the {len(paths)} files you read changed since you read them."]
    kept, left, _ = fit_blocks(blocks, call.budget, "changes_since path=FILE shows one file")
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


@tool(
    "editor_show",
    "edit",
    "Point the person at code in Neovim: folded to the symbols named, with a note. "
    "USE FOR: pointing at code. DON'T USE FOR: reading code.",
)
def editor_show(
    call: Call,
    path: EditPath,
    selector: Annotated[str, Doc("`name`, `Class.method` or `line:N`.")],
    symbols: Annotated[str | None, Doc("Comma-separated names to leave open.")] = None,
    note: Annotated[str | None, Doc("A line shown at the symbol.")] = None,
) -> ToolResult:
    """Resolve the selector and the symbols to lines, ask Neovim's show.lua to show them."""
    if call.editor.name == "disk":
        raise UserError(
            "showing code to the person needs a running Neovim with simple-brief, and none is attached; "
            "tell them the file and line instead."
        )
    real, outline = call.workspace.outline(path)
    shown = call.workspace.display(real)
    target = find_symbol(outline, selector, shown)
    sel = selector.strip()
    line = (
        int(sel[5:]) if sel.startswith("line:") and sel[5:].strip().isdigit() else target.selection_range.start.line + 1
    )
    opened = [target] + [find_symbol(outline, n.strip(), shown) for n in (symbols or "").split(",") if n.strip()]
    spans = [[s.range.start.line + 1, _last_line(s)] for s in opened]
    text = note.strip() if note else None
    answer = _editor_answer(call, "show", [{"path": str(real), "line": line, "open": spans, "note": text}])
    where = f"{shown}:{line} ({target.kind.name}:{target.scoped_name})"
    data = {"path": shown, "line": line, "open": spans}
    if isinstance(answer, dict) and answer.get("waiting"):
        data["shown"] = False
        return ToolResult(
            [f"waiting: the person is typing (insert mode); {where} shows when they leave it."],
            {**data, "waiting": True},
        )
    data["shown"] = bool(isinstance(answer, dict) and answer.get("shown"))
    if not data["shown"]:
        why = answer.get("error") if isinstance(answer, dict) else None
        raise UserError(f"Neovim did not show {where}" + (f": {why}" if why else "") + ".")
    names = ", ".join(f"{s.scoped_name} L{a}-{b}" for s, (a, b) in zip(opened, spans, strict=True))
    return ToolResult(
        [f"shown in Neovim: {where}, folded with only {names} open" + (" and the note" if text else "") + "."], data
    )


def _last_line(sym: Symbol) -> int:
    """A symbol's last line, 1-based (a range ending at column 0 ends on the line before)."""
    end = sym.range.end
    return end.line if end.character == 0 and end.line > sym.range.start.line else end.line + 1
