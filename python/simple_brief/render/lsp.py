"""Language-server answers as text (seed 002's to-do formats): rendering only. The LSP JSON
they come from is read by `simple_brief.intel.protocol`; edits are applied by
`simple_brief.intel.text_edits`.

Every format is grouped by file, position first, one line per item, paths
workspace-relative, positions 1-based `line:col` counting characters:

    hover       app.py:13:16 `compute_total` (jedi-language-server)
                def compute_total(items: list[int]) -> int ...
    definition  helpers.py:1:5 def greet(name: str) -> str:  [expand_at helpers.py line:1]
    references  3 references to `compute_total` in 1 file (...): app.py 3
                app.py (3)
                  5:5 in compute_total: def compute_total(items: list[int]) -> int:
                  13:16 in Cart.total: return compute_total([1, 2])
    calls       a.py:4 g (Function)
                  5:12 return f()
    completion  os Module  detail
    rename      app.py (3 edits)
                  5:5 - def compute_total(items: list[int]) -> int:
                      + def add_up(items: list[int]) -> int:
    format      unified diff hunks `@@ -4 +4,3 @@` with `-`/`+` lines
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from simple_brief.intel.text_edits import apply_text_edits
from simple_brief.model import Position, Range, Symbol, SymbolKind, TextEdit

# `diagnostic_to_lsp`, `hover_text`, `locations`, `workspace_edit` and `minimal_edits` are
# read through this module by the lsp tools (`view.<name>`); they live in `protocol` and
# `text_edits`.
from simple_brief.render.budget import CHARS_PER_TOKEN, approx_tokens
from simple_brief.source import Source

#: A shown line of code is cut to this many characters.
LINE_CHARS = 160

COMPLETION_KINDS = {
    1: "Text",
    2: "Method",
    3: "Function",
    4: "Constructor",
    5: "Field",
    6: "Variable",
    7: "Class",
    8: "Interface",
    9: "Module",
    10: "Property",
    11: "Unit",
    12: "Value",
    13: "Enum",
    14: "Keyword",
    15: "Snippet",
    16: "Color",
    17: "File",
    18: "Reference",
    19: "Folder",
    20: "EnumMember",
    21: "Constant",
    22: "Struct",
    23: "Event",
    24: "Operator",
    25: "TypeParameter",
}

# --- shared helpers ------------------------------------------------------------------------


def cut(line: str, limit: int = LINE_CHARS) -> str:
    """A code line for one-line output: surrounding blanks dropped, cut with `…`."""
    text = line.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 file`, `2 files`."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def cut_note(what: str, budget: int, hint: str) -> str:
    """`[WHAT left out to stay within the B-token budget; HINT.]`: the words every cut answer
    opens with (`render.budget.fit_blocks`, simple_read)."""
    return f"[{what} left out to stay within the {budget:,}-token budget{'; ' + hint if hint else ''}.]"


def opening(lead: str | None, note: str | None, head: str) -> str:
    """`head` opened by one line holding `lead` (a server still loading: the answer may be
    incomplete) and then `note` (what a cut left out and the call that gets it), either or both."""
    first = " ".join(part for part in (lead, note) if part)
    return f"{first}\n{head}" if first else head


def fit(blocks: list[str], budget: int, hint: str, lead: str | None = None) -> tuple[list[str], int]:
    """Whole blocks while they fit the token budget; of the first block that does not fit, the
    lines that fit. A cut answer opens with one line saying what was left out and how to get
    it (`hint`), after `lead` when given (which opens the answer either way). Returns the
    blocks and how many blocks were left out or cut."""
    joined = "\n\n".join(blocks)
    if approx_tokens(f"{lead}\n{joined}" if lead else joined) <= budget:
        return ([opening(lead, None, blocks[0]), *blocks[1:]] if lead and blocks else blocks), 0
    # The note's longest form, so that what is kept and the note stay within the budget.
    widest = cut_note(f"{plural(10**6, 'more line')} and {plural(10**6, 'more block')}", budget, hint)
    room = (budget - approx_tokens(opening(lead, widest, ""))) * CHARS_PER_TOKEN
    kept: list[str] = []
    used = 0.0
    for i, block in enumerate(blocks):
        cost = len(block) + 2
        if used + cost <= room:
            kept.append(block)
            used += cost
            continue
        left = len(blocks) - i
        lines = block.split("\n")
        shown = 0
        while shown < len(lines) and used + len(lines[shown]) + 1 <= room:
            used += len(lines[shown]) + 1
            shown += 1
        if shown == len(lines):  # the block's lines fit without the separator: the last block
            kept.append(block)
            continue
        parts = [plural(len(lines) - shown, "more line")] if shown else []
        if not shown and not kept:
            # Not even one line fits: its start, so the answer is never only a note.
            kept.append(lines[0][: max(int(room - used) - 1, 1)] + "…")
            parts = ["the rest of a long line"] + ([plural(len(lines) - 1, "more line")] if len(lines) > 1 else [])
            left -= 1
        elif shown:
            kept.append("\n".join(lines[:shown]))
            left -= 1
        if left:
            parts.append(plural(left, "more block"))
        note = cut_note(" and ".join(parts), budget, hint)
        return [opening(lead, note, kept[0]), *kept[1:]], len(blocks) - i
    return ([opening(lead, None, kept[0]), *kept[1:]] if lead and kept else kept), 0


def word_at(source: Source, pos: dict[str, int]) -> str:
    """The identifier at (or just before) a position, for headers."""
    text = source.lines[pos["line"]] if pos["line"] < len(source.lines) else ""
    start = end = min(pos["character"], len(text))
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[start:end]


def import_lines(lines: list[str], numbers: set[int]) -> list[tuple[int, str]]:
    """Import statements as (0-based first line, text), continuation lines joined."""
    out: list[tuple[int, str]] = []
    for n in sorted(numbers):
        text = lines[n] if n < len(lines) else ""
        if out and out[-1][0] + len(out[-1][1].split("\n")) == n and text[:1] in (" ", "\t", ")", "}"):
            out[-1] = (out[-1][0], out[-1][1] + "\n" + text)
        else:
            out.append((n, text))
    return [(n, " ".join(text.split())) for n, text in out]


def render_parse(
    head: str,
    errors: list[str],
    functions: list[tuple[Symbol, str]],
    types: list[tuple[Symbol, str]],
    imports: list[tuple[int, str]],
) -> str:
    """`diagnostics only=parse`'s text: the verdict line, syntax errors, then functions, types and
    imports, one `line:col name  signature` line each."""
    lines = [head, *("  " + e for e in errors)]
    for title, items in (("functions", functions), ("types", types)):
        lines.append(f"{title} ({len(items)})")
        for sym, name in items:
            lines.append(f"  {sym.selection_range.start.one_based()} {name}  {cut(sym.signature, 120)}".rstrip())
    lines.append(f"imports ({len(imports)})")
    lines.extend(f"  {n + 1}:1 {cut(text, 120)}" for n, text in imports)
    return "\n".join(lines)


# --- references and definitions ------------------------------------------------------------


#: The enclosing symbol of a place at a file's top level.
MODULE_LEVEL = "<module>"


@dataclass(frozen=True)
class Place:
    """One location to show: file (as shown), 0-based range start, the line's text (None when
    the file is outside the workspace and was not read), and the definition it sits in
    (`Class.method`, `<module>`; None when not named)."""

    path: str
    start: Position
    text: str | None
    symbol: str | None = None


def place_line(place: Place, with_path: bool) -> str:
    """`5:5 def f():` (or `app.py:5:5 def f():`); `5:5 in Cart.total: x()` when the place
    names its enclosing symbol."""
    where = f"{place.path}:{place.start.one_based()}" if with_path else place.start.one_based()
    if place.symbol is not None:
        where += f" in {place.symbol}:"
    if place.text is None:
        return f"{where} (outside the workspace)"
    return f"{where} {cut(place.text)}".rstrip()


def group_places(places: Sequence[Place]) -> dict[str, list[Place]]:
    """Places by file (files in name order, workspace files first), each file's in position order."""
    groups: dict[str, list[Place]] = {}
    for p in sorted(set(places), key=lambda p: (p.path.startswith("/"), p.path, p.start)):
        groups.setdefault(p.path, []).append(p)
    return groups


def render_references(head: str, places: Sequence[Place], totals: dict[str, int] | None = None) -> list[str]:
    """Summary block, then one block per file: `path (N)` and `  line:col text` lines;
    `path (5 of 20)` when `totals` (references per file) says the page shows only part."""
    blocks = [head]
    for path, items in group_places(places).items():
        total = (totals or {}).get(path, len(items))
        count = f"{len(items)}" if total == len(items) else f"{len(items)} of {total}"
        blocks.append("\n".join([f"{path} ({count})", *("  " + place_line(p, False) for p in items)]))
    return blocks


def file_counts(files: dict[str, int], most: int = 10) -> str:
    """`a.py 20, b.py 12, … 3 more files`: the files with the most references first."""
    ranked = sorted(files.items(), key=lambda item: (-item[1], item[0]))
    text = ", ".join(f"{path} {count:,}" for path, count in ranked[:most])
    if len(ranked) > most:
        text += f", … {plural(len(ranked) - most, 'more file')}"
    return text


def page_note(offset: int, shown: int, total: int, next_offset: int | None) -> str:
    """`showing 51-100; next page: offset=100`; empty when the page is everything."""
    if offset == 0 and next_offset is None:
        return ""
    note = f"showing {offset + 1:,}-{offset + shown:,}"
    return note + (f"; next page: offset={next_offset}" if next_offset is not None else "; the last page")


def call_row(path: str, start: Position, name: str, kind: Any) -> str:
    """`a.py:4 Box.size (Method)`: a caller or callee of a call hierarchy; `a.py:1 <module>`."""
    if name == MODULE_LEVEL:
        return f"{path}:{start.line + 1} {name}"
    try:
        kind_name = SymbolKind(int(kind)).name
    except (TypeError, ValueError):
        kind_name = "symbol"
    return f"{path}:{start.line + 1} {name} ({kind_name})"


# --- completion ----------------------------------------------------------------------------


def completion_line(item: dict[str, Any]) -> str:
    """`label Kind  detail`."""
    label = " ".join(str(item.get("label", "")).split())
    kind = COMPLETION_KINDS.get(item.get("kind") or 0, "")
    detail = " ".join(str(item.get("detail") or "").split())
    line = f"{label} {kind}".rstrip()
    if detail and detail != label:
        line += f"  {cut(detail, 100)}"
    if item.get("deprecated") or 1 in (item.get("tags") or ()):
        line += "  (deprecated)"
    return line


# --- rename and format previews ------------------------------------------------------------


def changed_lines(old: str, edits: Sequence[TextEdit]) -> list[tuple[int, int, list[str], list[str]]]:
    """For a file's edits: (first 0-based line, first changed 0-based column, lines before,
    lines after) per group of edits touching the same lines, in order."""
    old_lines = old.split("\n")
    groups: list[tuple[int, int, list[TextEdit]]] = []
    for edit in sorted(edits, key=lambda e: (e.range.start, e.range.end)):
        first, last = edit.range.start.line, edit.range.end.line
        if groups and first <= groups[-1][1]:
            g_first, g_last, g_edits = groups[-1]
            groups[-1] = (g_first, max(g_last, last), [*g_edits, edit])
        else:
            groups.append((first, last, [edit]))
    out = []
    for first, last, g_edits in groups:
        before = [ln.rstrip("\r") for ln in old_lines[first : last + 1]]
        block = "\n".join(before)
        shifted = [
            TextEdit(
                Range(
                    Position(e.range.start.line - first, e.range.start.character),
                    Position(e.range.end.line - first, e.range.end.character),
                ),
                e.new_text,
            )
            for e in g_edits
        ]
        after = apply_text_edits(block, shifted).split("\n")
        out.append((first, g_edits[0].range.start.character, before, after))
    return out


def render_file_edits(path: str, old: str, edits: Sequence[TextEdit]) -> str:
    """`path (N edits)` then, per changed place, `line:col - before` / `+ after` lines."""
    lines = [f"{path} ({plural(len(edits), 'edit')})"]
    for first, col, before, after in changed_lines(old, edits):
        where = f"{first + 1}:{col + 1}"
        pad = " " * len(where)
        for i, text in enumerate(before):
            lines.append(f"  {where if i == 0 else pad} - {text}")
        if not before:
            lines.append(f"  {where} -")
        for text in after:
            lines.append(f"  {pad} + {text}")
    return "\n".join(lines)


def unified_diff(old: str, new: str) -> list[str]:
    """Hunks of a zero-context unified diff (`@@ -4 +4,3 @@`, 1-based lines), no file header."""
    diff = difflib.unified_diff(old.splitlines(), new.splitlines(), n=0, lineterm="")
    return [ln for ln in diff if not ln.startswith(("---", "+++"))]
