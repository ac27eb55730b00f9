"""Editor context (seed 001): where the person is working, as one JSON object and one line.

`build_context` turns an editor `Snapshot` and the document's symbols into the object of
seed 001 AC1, with its exact field names::

    {
      "file": {"path", "languageId", "lineCount", "isDirty"},
      "cursor": {"line", "character"},                       # 1-based
      "selection": {"isEmpty", "text", "range"?},            # range only when not empty
      "symbols": {"totalInDocument", "containingScopes", "immediateScope",
                  "scopeHierarchy", "warning"?},
    }

Each scope is `{"name", "kind", "range": {"start", "end", "length"}}` with 1-based lines
and `kind` the LSP SymbolKind name ("Class", "Method", "String" for Markdown headings);
a symbol's scope qualifies its name (a Go method: `Method:Terminal.Loop`).
`context_line` gives the agent the same in one short line of text. Nothing here talks to
an editor: backends (`simple_brief.editor`) capture the snapshot, this module reads it.

With several Neovims registered for the workspace, the object also has `neovim`
(`following`: which one the answers come from, e.g. `{"index": 2, "count": 2, "pid": 4242,
"usedLast": true, "origin": "instances"}`, numbered in the order they started) and the line
ends `· Neovim 2 of 2 (pid 4242, used last)`. Nothing is added while only one runs.

A snapshot of a secrets file (`Snapshot.extra['withheld']`, the rule it matches) names the
file, the cursor and the selection's range, never what the file holds: no selected text,
no symbols, and `symbols.warning` says the content is withheld (the caller's own warning
when it gives one).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from simple_brief.editor import Snapshot
from simple_brief.files.path_escapes import escape_path
from simple_brief.model import FUNCTION_KINDS, Symbol, SymbolKind

#: The warning of AC10: the document has no symbol provider at all.
NO_SYMBOL_PROVIDER = "No symbol provider registered for this language"

#: The warning for a secrets file (`{rule}`: the deny glob it matches).
WITHHELD = "Content withheld: the file matches the secrets rule `{rule}`"

#: Kinds that are a scope even on a single line (`def f(): return 1`, `class A: pass`).
#: Other kinds (variables, fields, constants, imports reported as modules...) count only
#: when they span several lines from their name's line on, so a one-line statement at
#: module level is top level (AC8), even under a doc comment, while a multi-line
#: declaration block is a scope (AC6).
SCOPE_KINDS = FUNCTION_KINDS | frozenset(
    {
        SymbolKind.Class,
        SymbolKind.Struct,
        SymbolKind.Interface,
        SymbolKind.Enum,
        SymbolKind.Namespace,
        SymbolKind.Object,
    }
)

#: Neovim filetypes (first part of a dotted filetype) read as Markdown: headings nest.
MARKDOWN_FILETYPES = frozenset({"markdown", "mdx", "rmd", "quarto", "pandoc", "vimwiki", "telekasten"})

_KIND_NAMES = {kind: kind.name for kind in SymbolKind}


@runtime_checkable
class ListsEditors(Protocol):
    """A backend that knows every editor registered for the workspace
    (`simple_brief.editor.nvim.attach.AutoBackend.editors`)."""

    def editors(self) -> list[dict[str, Any]]:
        """The editors in the order they started: `pid`, `address`, `cwd`, `file`, `started`,
        `used`, `usedLast`, `followed` (and `origin` for the followed one)."""
        ...


def following(editors: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Which of several registered editors answers (the context's `neovim`), or None when
    fewer than two run or the followed one is not among them."""
    if len(editors) < 2:
        return None
    for index, item in enumerate(editors, 1):
        if item.get("followed"):
            return {
                "index": index,
                "count": len(editors),
                "pid": item.get("pid"),
                "usedLast": bool(item.get("usedLast")),
                "origin": item.get("origin") or "instances",
            }
    return None


def following_text(neovim: dict[str, Any]) -> str:
    """`Neovim 2 of 2 (pid 4242, used last)`; why it is followed when not the one used last."""
    if neovim.get("usedLast"):
        why = "used last"
    elif neovim.get("origin") in ("--nvim", "$NVIM"):
        why = str(neovim["origin"])
    else:
        why = "the one used last does not answer"
    return f"Neovim {neovim.get('index')} of {neovim.get('count')} (pid {neovim.get('pid')}, {why})"


def build_context(snapshot: Snapshot, symbols: list[Symbol] | None, warning: str | None = None) -> dict[str, Any]:
    """The seed 001 AC1 editor-context object for a snapshot.

    Args:
        snapshot: where the person is (from `EditorBackend.snapshot`).
        symbols: the document's symbols (nested or flat, 0-based code-point positions),
            or None when no symbol provider answers for this document (AC10).
        warning: a note for `symbols.warning` (for example a provider that failed); with
            `symbols` None and no warning, the AC10 text is used.

    Returns:
        The JSON-ready object. `containingScopes` lists every symbol around the cursor,
        outermost first; `[]`, `None` and `""` at top level (AC8). Markdown headings
        (kind String) reach to the next heading of the same or a higher level (AC7).
    """
    line, character = snapshot.cursor
    withheld = snapshot.extra.get("withheld")
    if withheld:
        symbols, warning = None, warning or WITHHELD.format(rule=withheld)
    context: dict[str, Any] = {
        "file": {
            "path": escape_path(str(snapshot.path)) if snapshot.path is not None else None,
            "languageId": snapshot.filetype or "plaintext",
            "lineCount": snapshot.line_count,
            "isDirty": snapshot.modified,
        },
        "cursor": {"line": line, "character": character},
        "selection": _selection(snapshot),
    }
    if symbols is None:
        context["symbols"] = {
            "totalInDocument": 0,
            "containingScopes": [],
            "immediateScope": None,
            "scopeHierarchy": "",
            "warning": warning or NO_SYMBOL_PROVIDER,
        }
        return context
    total, scopes = _containing_scopes(snapshot, symbols)
    info: dict[str, Any] = {
        "totalInDocument": total,
        "containingScopes": scopes,
        "immediateScope": scopes[-1] if scopes else None,
        "scopeHierarchy": " > ".join(f"{s['kind']}:{s['name']}" for s in scopes),
    }
    if warning:
        info["warning"] = warning
    context["symbols"] = info
    return context


def context_line(
    ctx: dict[str, Any], root: str | os.PathLike[str] | None = None, terminal_fallback: bool = False
) -> str:
    """One short line of text for the agent, from a `build_context` object.

    Example: `editor: src/x.py:46:9 python modified · Class:UserService > Method:findUser`,
    ending `· Neovim 2 of 2 (pid 4242, used last)` with several Neovims (`ctx["neovim"]`).

    Args:
        ctx: the object `build_context` returned.
        root: the workspace root; the path is shown relative to it when inside it.
        terminal_fallback: the snapshot is of the last code window, not the current one
            (`Snapshot.terminal_fallback`).

    Returns:
        The line, without a trailing newline.
    """
    file = ctx.get("file") or {}
    cursor = ctx.get("cursor") or {}
    symbols = ctx.get("symbols") or {}
    selection = ctx.get("selection") or {}
    path = _display_path(file.get("path"), root)
    language = file.get("languageId") or "plaintext"
    text = f"editor: {path}:{cursor.get('line', 1)}:{cursor.get('character', 1)} {language}"
    if file.get("isDirty"):
        text += " modified"
    if symbols.get("scopeHierarchy"):
        text += f" · {symbols['scopeHierarchy']}"
    if symbols.get("warning"):
        text += f" · {symbols['warning']}"
    if not selection.get("isEmpty", True):
        sel_range = selection.get("range") or {}
        first = (sel_range.get("start") or {}).get("line", 0)
        last = (sel_range.get("end") or {}).get("line", first)
        count = last - first + 1
        text += f" · selection {count} line{'s' if count != 1 else ''}"
    if terminal_fallback:
        text += " · from last code window"
    if ctx.get("neovim"):
        text += f" · {following_text(ctx['neovim'])}"
    return text


def _display_path(path: str | None, root: str | os.PathLike[str] | None) -> str:
    if not path:
        return "[No Name]"
    if root is None:
        return path
    target = Path(path)
    base = Path(root)
    for candidate in (base, base.resolve()):
        try:
            return target.relative_to(candidate).as_posix()
        except ValueError:
            continue
    return path


def _selection(snapshot: Snapshot) -> dict[str, Any]:
    sel = snapshot.selection
    withheld = bool(snapshot.extra.get("withheld"))
    if sel is None or (sel.start == sel.end and not sel.text and not withheld):
        return {"isEmpty": True, "text": None}
    return {
        "isEmpty": False,
        "text": None if withheld else sel.text,
        "range": {
            "start": {"line": sel.start[0], "character": sel.start[1]},
            "end": {"line": sel.end[0], "character": sel.end[1]},
        },
    }


def _containing_scopes(snapshot: Snapshot, symbols: list[Symbol]) -> tuple[int, list[dict[str, Any]]]:
    """Count every symbol and collect those around the cursor, in one walk.

    Returns:
        (symbols in the document, scope objects outermost first).
    """
    cursor_line: list[str] = []  # the cursor's line, read lazily for boundary columns
    row = snapshot.cursor[0] - 1
    total, found = _scopes_around(
        symbols,
        (row, snapshot.cursor[1] - 1),
        lambda: _line(snapshot, row, cursor_line),
        (snapshot.filetype or "").split(".")[0] in MARKDOWN_FILETYPES,
        max(snapshot.line_count - 1, 0),
    )
    scopes = [
        {
            "name": sym.scoped_name,
            "kind": _KIND_NAMES.get(sym.kind, str(sym.kind)),
            "range": {"start": start + 1, "end": end + 1, "length": end - start + 1},
        }
        for start, end, sym in found
    ]
    return total, scopes


def enclosing_scopes(symbols: list[Symbol], line: int, character: int, text: str = "") -> list[Symbol]:
    """The symbols around a 0-based position, outermost first: the scope chain the editor
    context gives for a cursor there (`containingScopes`), so an answer naming where a
    place sits (a reference's `in Terminal.Loop.doActions`) agrees with it. `text` is the
    position's line ("" when unknown: a position on a symbol's first or last line then
    counts as inside it)."""
    return [sym for _, _, sym in _scopes_around(symbols, (line, character), lambda: text)[1]]


def _scopes_around(
    symbols: list[Symbol],
    at: tuple[int, int],
    line_text: Callable[[], str],
    markdown: bool = False,
    last_row: int = 0,
) -> tuple[int, list[tuple[int, int, Symbol]]]:
    """Every symbol counted, and the scopes around `at` (0-based row and column) with
    their first and last rows, outermost first. Scopes are SCOPE_KINDS, symbols spanning
    several lines from their name on and, with `markdown`, sections (reaching to the next
    heading of the same or a higher level, or `last_row`); the text of the row
    (`line_text`) decides at a symbol's first and last columns."""
    row, col = at
    found: list[tuple[int, int, int, int, int, Symbol]] = []
    total = 0
    order = 0
    # Stack of (siblings, index, where the parent's section ends) — an explicit stack keeps
    # deep trees off the recursion limit.
    stack: list[tuple[list[Symbol], int, int]] = [(symbols, 0, last_row)]
    while stack:
        siblings, index, parent_end = stack.pop()
        if index >= len(siblings):
            continue
        sym = siblings[index]
        stack.append((siblings, index + 1, parent_end))
        total += 1
        rng = sym.range
        start_row, start_col = rng.start.line, rng.start.character
        end_row, end_col = rng.end.line, rng.end.character
        if end_col == 0 and end_row > start_row:
            # A half-open end at the start of a line: the symbol's last line is the one before.
            end_row -= 1
            end_col = -1
        heading = markdown and sym.kind == SymbolKind.String
        if heading:
            # A section reaches to the next heading of the same or a higher level, or the end.
            section_end = siblings[index + 1].range.start.line - 1 if index + 1 < len(siblings) else parent_end
            if section_end > end_row:
                end_row, end_col = section_end, -1
        if sym.children:
            stack.append((sym.children, 0, end_row))
        if row < start_row or row > end_row:
            continue
        if not heading and sym.kind not in SCOPE_KINDS and max(start_row, sym.selection_range.start.line) >= end_row:
            continue  # one line from its name on: a doc comment above does not make it a block
        if row == start_row and col < start_col and not _blank(line_text()[:start_col]):
            continue
        if row == end_row and 0 <= end_col < col and not _blank(line_text()[end_col:]):
            continue
        found.append((start_row, start_col, -end_row, order, end_row, sym))
        order += 1
    found.sort(key=lambda item: (item[0], item[1], item[2], item[3]))
    return total, [(start, end, sym) for start, _, _, _, end, sym in found]


def _line(snapshot: Snapshot, row: int, memo: list[str]) -> str:
    """The 0-based line `row` of the snapshot's text ("" when the text is unknown: lenient)."""
    if memo:
        return memo[0]
    text = snapshot.text
    line = ""
    if text is not None:
        start = 0
        for _ in range(row):
            nl = text.find("\n", start)
            if nl < 0:
                start = len(text) + 1
                break
            start = nl + 1
        if start <= len(text):
            end = text.find("\n", start)
            line = text[start:] if end < 0 else text[start:end]
    memo.append(line)
    return line


def _blank(text: str) -> bool:
    return not text.strip()
