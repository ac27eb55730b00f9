"""Language-server answers as text (seed 002's to-do formats), and the text arithmetic the
previews need: applying edits, finding the smallest edits between two texts, diffs.

Every format is grouped by file, position first, one line per item, paths
workspace-relative, positions 1-based `line:col` counting characters:

    hover       app.py:13:16 `compute_total` (jedi-language-server)
                def compute_total(items: list[int]) -> int ...
    definition  helpers.py:1:5 def greet(name: str) -> str:  [expand_at helpers.py line:1]
    references  app.py (3)
                  5:5 def compute_total(items: list[int]) -> int:
    completion  os Module  detail
    rename      app.py (3 edits)
                  5:5 - def compute_total(items: list[int]) -> int:
                      + def add_up(items: list[int]) -> int:
    format      unified diff hunks `@@ -4 +4,3 @@` with `-`/`+` lines
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simple_brief.explain import fixit_confidence
from simple_brief.intel import uri_to_path
from simple_brief.model import Diagnostic, FixIt, Position, Range, Severity, Symbol, TextEdit
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

# --- text arithmetic (positions 0-based, characters = code points) ------------------------


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
    line = max(0, _bisect_right(starts, offset) - 1)
    return Position(line, offset - starts[line])


def _bisect_right(items: list[int], value: int) -> int:
    lo, hi = 0, len(items)
    while lo < hi:
        mid = (lo + hi) // 2
        if value < items[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


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


# --- shared helpers ------------------------------------------------------------------------


def cut(line: str, limit: int = LINE_CHARS) -> str:
    """A code line for one-line output: surrounding blanks dropped, cut with `…`."""
    text = line.strip()
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(n: int, word: str, many: str | None = None) -> str:
    """`1 file`, `2 files`."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def fit(blocks: list[str], budget: int, hint: str) -> tuple[list[str], int]:
    """Whole blocks while they fit the token budget, then one note saying what was left out
    and how to get it; of the first block that does not fit, the lines that fit are kept.
    Returns the blocks and how many blocks were left out or cut."""
    kept: list[str] = []
    used = 0
    for i, block in enumerate(blocks):
        cost = approx_tokens(block)
        if used + cost <= budget:
            kept.append(block)
            used += cost
            continue
        left = len(blocks) - i
        lines = block.split("\n")
        room, chars = 0, 0
        while room < len(lines) and approx_tokens("x" * (chars + len(lines[room]) + 1)) + used <= budget:
            chars += len(lines[room]) + 1
            room += 1
        partial = "\n".join(lines[:room]) if room else None
        parts = [plural(len(lines) - room, "more line")] if room and room < len(lines) else []
        if partial is None and not kept:
            # Not even one line fits: its start, so the answer is never only a note.
            partial = lines[0][: max(int((budget - used) * CHARS_PER_TOKEN) - 1, 1)] + "…"
            parts = ["the rest of a long line"] + ([plural(len(lines) - 1, "more line")] if len(lines) > 1 else [])
        if partial is not None:
            kept.append(partial)
            left -= 1
        if left:
            parts.append(plural(left, "more block"))
        what = " and ".join(parts)
        kept.append(f"[{what} left out to stay within the {budget:,}-token budget; {hint}.]")
        return kept, len(blocks) - i
    return kept, 0


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
    """analyze_parse's text: the verdict line, syntax errors, then functions, types and
    imports, one `line:col name  signature` line each."""
    lines = [head, *("  " + e for e in errors)]
    for title, items in (("functions", functions), ("types", types)):
        lines.append(f"{title} ({len(items)})")
        for sym, name in items:
            lines.append(f"  {sym.selection_range.start.one_based()} {name}  {cut(sym.signature, 120)}".rstrip())
    lines.append(f"imports ({len(imports)})")
    lines.extend(f"  {n + 1}:1 {cut(text, 120)}" for n, text in imports)
    return "\n".join(lines)


# --- hover ---------------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*```")


def hover_text(contents: Any) -> str:
    """Hover contents (MarkupContent, MarkedString or a list of them) as plain text: code
    fences dropped (their code kept), runs of blank lines squeezed."""
    if contents is None:
        return ""
    if isinstance(contents, list):
        parts = [hover_text(c) for c in contents]
        return "\n---\n".join(p for p in parts if p)
    value = str(contents.get("value", "")) if isinstance(contents, dict) else str(contents)
    lines = [ln.rstrip() for ln in value.splitlines() if not _FENCE.match(ln)]
    out: list[str] = []
    for ln in lines:
        if ln or (out and out[-1]):
            out.append(ln)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


# --- references and definitions ------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """One location to show: file (as shown), 0-based range start, the line's text (None when
    the file is outside the workspace and was not read)."""

    path: str
    start: Position
    text: str | None


def place_line(place: Place, with_path: bool) -> str:
    """`5:5 def f():` (or `app.py:5:5 def f():`)."""
    where = f"{place.path}:{place.start.one_based()}" if with_path else place.start.one_based()
    if place.text is None:
        return f"{where} (outside the workspace)"
    return f"{where} {cut(place.text)}".rstrip()


def group_places(places: Sequence[Place]) -> dict[str, list[Place]]:
    """Places by file (files in name order, workspace files first), each file's in position order."""
    groups: dict[str, list[Place]] = {}
    for p in sorted(set(places), key=lambda p: (p.path.startswith("/"), p.path, p.start)):
        groups.setdefault(p.path, []).append(p)
    return groups


def render_references(head: str, places: Sequence[Place]) -> list[str]:
    """Summary block, then one block per file: `path (N)` and `  line:col text` lines."""
    blocks = [head]
    for path, items in group_places(places).items():
        blocks.append("\n".join([f"{path} ({len(items)})", *("  " + place_line(p, False) for p in items)]))
    return blocks


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


# --- LSP JSON -> the model (positions already in code points) ------------------------------


def _pos(raw: dict[str, Any]) -> Position:
    return Position(int(raw.get("line", 0)), int(raw.get("character", 0)))


def _range(raw: dict[str, Any]) -> Range:
    return Range(_pos(raw.get("start") or {}), _pos(raw.get("end") or {}))


def locations(result: Any) -> list[tuple[Path, Range]]:
    """Location, Location[] or LocationLink[] as (path, range) pairs (non-file URIs dropped)."""
    items = result if isinstance(result, list) else [result] if isinstance(result, dict) else []
    out = []
    for item in items:
        if not isinstance(item, dict):
            continue
        uri = item.get("targetUri") or item.get("uri")
        raw = item.get("targetSelectionRange") or item.get("range")
        path = uri_to_path(uri) if isinstance(uri, str) else None
        if path is not None and isinstance(raw, dict):
            out.append((path, _range(raw)))
    return out


def workspace_edit(result: Any) -> tuple[dict[Path, list[TextEdit]], list[str]]:
    """A WorkspaceEdit's text edits by file (`changes` or `documentChanges`), and notes for the
    file operations (create/rename/delete) it also asks for, which are not applied."""
    edits: dict[Path, list[TextEdit]] = {}
    notes: list[str] = []
    if not isinstance(result, dict):
        return edits, notes

    def add(uri: Any, items: Any) -> None:
        path = uri_to_path(uri) if isinstance(uri, str) else None
        if path is None or not isinstance(items, list):
            return
        for e in items:
            if isinstance(e, dict) and isinstance(e.get("range"), dict):
                edits.setdefault(path, []).append(TextEdit(_range(e["range"]), str(e.get("newText", ""))))

    for change in result.get("documentChanges") or []:
        if isinstance(change, dict) and "kind" in change:
            notes.append(f"{change.get('kind')} {change.get('oldUri') or change.get('uri')} (not applied)")
        elif isinstance(change, dict):
            add((change.get("textDocument") or {}).get("uri"), change.get("edits"))
    if not result.get("documentChanges"):
        for uri, items in (result.get("changes") or {}).items():
            add(uri, items)
    return edits, notes


def diagnostic_from_lsp(raw: dict[str, Any], server: str) -> Diagnostic:
    """An LSP Diagnostic (positions already in code points) in the one model; the code keeps
    its source (`ruff F401`); a missing severity counts as an error (as Neovim reads it)."""
    code = raw.get("code")
    try:
        severity = Severity(int(raw.get("severity") or 1))
    except ValueError:
        severity = Severity.Error
    return Diagnostic(
        _range(raw.get("range") or {}),
        str(raw.get("message", "")),
        severity,
        "" if code is None else str(code),
        str(raw.get("source") or server),
    )


def diagnostic_to_lsp(diag: Diagnostic) -> dict[str, Any]:
    """A model Diagnostic as LSP JSON, for code-action requests about it."""
    out: dict[str, Any] = {"range": diag.range.to_lsp(), "message": diag.message, "severity": int(diag.severity)}
    if diag.code:
        out["code"] = diag.code
    if diag.source:
        out["source"] = diag.source
    if diag.lsp_data is not None:
        out["data"] = diag.lsp_data
    return out


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a.get("message") == b.get("message") and str(a.get("code")) == str(b.get("code"))


def fixit_from_action(action: dict[str, Any], raw: dict[str, Any], real: Path) -> FixIt | None:
    """A code action about `raw` as a FixIt (None: no edit, or it is about other diagnostics)."""
    about = action.get("diagnostics")
    if isinstance(about, list) and about and not any(isinstance(d, dict) and _same(d, raw) for d in about):
        return None
    kind = str(action.get("kind") or "")
    if kind == "refactor" or kind.startswith("refactor."):
        return None  # a refactoring offered at the range, not a fix of the finding
    edits, _ = workspace_edit(action.get("edit"))
    if not edits:
        return None  # a command-only action cannot be shown as edits
    title = str(action.get("title", ""))
    confidence = fixit_confidence(kind, bool(action.get("isPreferred")), title)
    own = tuple(edits.pop(real, []))
    others = tuple((path, tuple(items)) for path, items in sorted(edits.items()))
    return FixIt(title, own, confidence, kind, others)
