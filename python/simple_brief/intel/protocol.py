"""LSP-shaped data <-> the model: every conversion between LSP JSON (and Neovim's diagnostic
entries) and `model` values, written once.

Engine code: plain dicts and lists as the LSP JSON has them, no lsprotocol (the pygls
server wraps the dicts it returns). The tools, the Neovim adapter, our LSP client and the
language server all convert through here.

- URIs: `path_to_uri`, `uri_to_path`.
- Positions: `convert_positions` (a server's answer, its encoding -> code points, per
  document) and `encode_positions` (request params, code points -> a server's encoding),
  through the one converter in `simple_brief.positions`.
- LSP JSON -> model: `range_from_lsp`, `locations`, `workspace_edit`, `diagnostic_from_lsp`,
  `fixit_from_action`, `hover_text`, `symbols_from_lsp`.
- Model -> LSP JSON: `text_edit_to_lsp`, `diagnostic_to_lsp`, `document_symbol`.
- Neovim: `diagnostic_from_editor` (a `vim.diagnostic` entry).

Positions here count code points unless a function says otherwise.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from simple_brief.model import (
    Diagnostic,
    FixIt,
    Position,
    Range,
    Severity,
    Symbol,
    SymbolKind,
    TextEdit,
    fixit_confidence,
)
from simple_brief.positions import TextColumns

# --- URIs ----------------------------------------------------------------------------------


def path_to_uri(path: Path) -> str:
    """The `file://` URI of an absolute path."""
    return path.as_uri()


def uri_to_path(uri: str) -> Path | None:
    """The path of a `file://` URI (percent-decoded, bytes that are not UTF-8 as Python
    reads them from disk: `%FF` is the file `path_to_uri` named); None for other schemes.

    A server that cannot decode such a name (vscode-uri: basedpyright, pyright) sends it
    back with its `%` escaped (`bad%25FF.py`): when no file has the name decoded once and
    one has it decoded twice, that one is meant."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = unquote(parsed.path, errors="surrogateescape")
    if "%" in path and not os.path.lexists(path):
        twice = unquote(path, errors="surrogateescape")
        if twice != path and os.path.lexists(twice):
            return Path(twice)
    return Path(path)


# --- positions in LSP JSON -----------------------------------------------------------------

#: (row, column) -> column, converting on one document's lines.
_ColumnFn = Callable[[TextColumns, int, int], int]


def _is_position(obj: dict[str, Any]) -> bool:
    line, character = obj.get("line"), obj.get("character")
    return isinstance(line, int) and isinstance(character, int) and not isinstance(character, bool)


def _convert(obj: Any, uri: str | None, columns_of: Callable[[str | None], TextColumns | None], col: _ColumnFn) -> Any:
    if isinstance(obj, list):
        return [_convert(item, uri, columns_of, col) for item in obj]
    if not isinstance(obj, dict):
        return obj
    if _is_position(obj):
        columns = columns_of(uri)
        if columns is None or not 0 <= obj["line"] < len(columns.lines):
            return dict(obj)
        return {**obj, "character": col(columns, obj["line"], obj["character"])}
    # The document a range belongs to: its own `uri`/`targetUri` (Location, LocationLink,
    # Diagnostic related information), the sibling `textDocument` (TextDocumentEdit).
    for key in ("uri", "targetUri"):
        if isinstance(obj.get(key), str):
            uri = obj[key]
    document = obj.get("textDocument")
    if isinstance(document, dict) and isinstance(document.get("uri"), str):
        uri = document["uri"]
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key == "changes" and isinstance(value, dict):
            # WorkspaceEdit.changes: {uri: [TextEdit]} — the keys are the documents.
            out[key] = {u: _convert(edits, u, columns_of, col) for u, edits in value.items()}
        else:
            out[key] = _convert(value, uri, columns_of, col)
    return out


def convert_positions(obj: Any, text_of: Callable[[str], str | None], encoding: str, uri: str | None = None) -> Any:
    """A copy of an LSP JSON result with every Position's `character` in code points.

    Walks Locations, LocationLinks, TextEdits, WorkspaceEdits (`changes` and
    `documentChanges`), hover and completion ranges and Diagnostics: each position is
    converted with the text of its document — the nearest enclosing `uri`/`targetUri`/
    `textDocument.uri`/`changes` key, else `uri` (the requested file, for results such as
    a hover that carry no URI of their own). `text_of(uri)` gives a document's text (None:
    unknown, positions kept). `encoding` is the server's (`LspReply.encoding`).
    """
    if encoding == "utf-32":
        return obj
    cache: dict[str | None, TextColumns | None] = {}

    def columns_of(doc: str | None) -> TextColumns | None:
        if doc not in cache:
            text = text_of(doc) if doc is not None else None
            cache[doc] = TextColumns.of_text(text) if text is not None else None
        return cache[doc]

    return _convert(obj, uri, columns_of, lambda columns, row, c: columns.from_encoding(row, c, encoding))


def encode_positions(obj: Any, text: str, encoding: str) -> Any:
    """A copy of request params with every Position's code-point `character` in `encoding`,
    all positions being in the one document whose text is `text`."""
    if encoding == "utf-32":
        return obj
    columns = TextColumns.of_text(text)
    return _convert(obj, None, lambda _uri: columns, lambda cols, row, c: cols.to_encoding(row, c, encoding))


# --- LSP JSON -> the model (positions already in code points) ------------------------------


def position_from_lsp(raw: Mapping[str, Any]) -> Position:
    """An LSP Position (missing fields count 0)."""
    return Position(int(raw.get("line", 0)), int(raw.get("character", 0)))


def range_from_lsp(raw: Mapping[str, Any]) -> Range:
    """An LSP Range; an end before the start counts as the start."""
    start = position_from_lsp(raw.get("start") or {})
    return Range(start, max(start, position_from_lsp(raw.get("end") or {})))


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
            out.append((path, range_from_lsp(raw)))
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
                edits.setdefault(path, []).append(TextEdit(range_from_lsp(e["range"]), str(e.get("newText", ""))))

    for change in result.get("documentChanges") or []:
        if isinstance(change, dict) and "kind" in change:
            notes.append(f"{change.get('kind')} {change.get('oldUri') or change.get('uri')} (not applied)")
        elif isinstance(change, dict):
            add((change.get("textDocument") or {}).get("uri"), change.get("edits"))
    if not result.get("documentChanges"):
        for uri, items in (result.get("changes") or {}).items():
            add(uri, items)
    return edits, notes


def _severity(value: Any) -> Severity:
    """An LSP/Neovim severity number; missing or unknown counts as an error (as Neovim reads it)."""
    try:
        return Severity(int(value or 1))
    except (TypeError, ValueError):
        return Severity.Error


def _code(value: Any) -> str:
    return "" if value is None else str(value)


def diagnostic_from_lsp(raw: dict[str, Any], server: str) -> Diagnostic:
    """An LSP Diagnostic (positions already in code points) in the one model; the code keeps
    its source (`ruff F401`); a missing severity counts as an error (as Neovim reads it)."""
    return Diagnostic(
        range_from_lsp(raw.get("range") or {}),
        str(raw.get("message", "")),
        _severity(raw.get("severity")),
        _code(raw.get("code")),
        str(raw.get("source") or server),
    )


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


def _kind(value: Any) -> SymbolKind:
    try:
        return SymbolKind(int(value))
    except (TypeError, ValueError):
        return SymbolKind.Variable


def symbols_from_lsp(result: list[dict[str, Any]]) -> list[Symbol]:
    """Engine symbols from a documentSymbol answer (positions already in code points).

    Args:
        result: `DocumentSymbol[]` (nested through `children`) or `SymbolInformation[]`
            (flat, with `location`; nested here by range containment).

    Returns:
        Top-level symbols in document order, children nested.
    """
    if not result:
        return []
    if "location" in result[0]:
        return _nest_flat(
            [
                Symbol(
                    name=str(item.get("name", "")),
                    kind=_kind(item.get("kind")),
                    range=(rng := range_from_lsp(item["location"]["range"])),
                    selection_range=rng,
                )
                for item in result
            ]
        )

    def convert(item: dict[str, Any]) -> Symbol:
        rng = range_from_lsp(item["range"])
        children = [convert(child) for child in item.get("children") or []]
        children.sort(key=lambda s: (s.range.start, s.range.end))
        return Symbol(
            name=str(item.get("name", "")),
            kind=_kind(item.get("kind")),
            range=rng,
            selection_range=range_from_lsp(item["selectionRange"]) if item.get("selectionRange") else rng,
            signature=str(item.get("detail") or ""),
            children=children,
        )

    top = [convert(item) for item in result]
    top.sort(key=lambda s: (s.range.start, s.range.end))
    return top


def _nest_flat(symbols: list[Symbol]) -> list[Symbol]:
    """Nest flat symbols by range containment, outer before inner at equal starts."""
    ordered = sorted(symbols, key=lambda s: (s.range.start, (-s.range.end.line, -s.range.end.character)))
    roots: list[Symbol] = []
    stack: list[Symbol] = []
    for sym in ordered:
        while stack and not (stack[-1].range.start <= sym.range.start and sym.range.end <= stack[-1].range.end):
            stack.pop()
        (stack[-1].children if stack else roots).append(sym)
        stack.append(sym)
    return roots


# --- the model -> LSP JSON -----------------------------------------------------------------

#: (row, code-point column) -> the column a client counts in (see `document_symbol`).
ColumnFn = Callable[[int, int], int]


def range_to_lsp(rng: Range, column: ColumnFn | None = None) -> dict[str, dict[str, int]]:
    """A Range as LSP JSON, columns through `column(row, char)` (None: code points)."""
    if column is None:
        return rng.to_lsp()
    start, end = rng.start, rng.end
    return {
        "start": {"line": start.line, "character": column(start.line, start.character)},
        "end": {"line": end.line, "character": column(end.line, end.character)},
    }


def text_edit_to_lsp(edit: TextEdit) -> dict[str, Any]:
    """A TextEdit as LSP JSON (0-based, code points)."""
    return {"range": edit.range.to_lsp(), "newText": edit.new_text}


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


def document_symbol(sym: Symbol, children: bool = True, column: ColumnFn | None = None) -> dict[str, Any]:
    """LSP `DocumentSymbol` JSON (0-based) with `detail` = signature (`""` when it has none);
    `children` only when there are any (and `children` is true).

    Args:
        sym: the symbol.
        children: include its descendants.
        column: `(row, char) -> column` in the client's encoding (e.g. `Source.encode_col`);
            None keeps code points (`format=standard`).
    """
    out: dict[str, Any] = {
        "name": sym.name,
        "detail": sym.signature,
        "kind": int(sym.kind),
        "range": range_to_lsp(sym.range, column),
        "selectionRange": range_to_lsp(sym.selection_range, column),
    }
    if children and sym.children:
        out["children"] = [document_symbol(c, True, column) for c in sym.children]
    return out


# --- Neovim ----------------------------------------------------------------------------------

#: The fields of a `vim.diagnostic` entry read here, in the order nvim/rpc.lua sends them as a
#: list (then, optionally, the LSP diagnostic's `data`).
EDITOR_DIAGNOSTIC_FIELDS = ("lnum", "col", "end_lnum", "end_col", "severity", "message", "source", "code")


def diagnostic_from_editor(item: Mapping[str, Any]) -> Diagnostic:
    """A Neovim `vim.diagnostic` entry (0-based `lnum`/`col`, columns as the caller sends them:
    nvim/rpc.lua sends code points; severity 1-4) as a Diagnostic.

    A missing end is the start; an end before the start counts as the start; a missing or
    unknown severity is an error. `lsp_data` (the LSP diagnostic's `data`) is kept for
    code-action requests.
    """
    lnum, col = int(item.get("lnum") or 0), int(item.get("col") or 0)
    start = Position(lnum, col)
    end_lnum, end_col = item.get("end_lnum"), item.get("end_col")
    end = Position(lnum if end_lnum is None else int(end_lnum), col if end_col is None else int(end_col))
    return Diagnostic(
        range=Range(start, max(start, end)),
        message=str(item.get("message") or ""),
        severity=_severity(item.get("severity")),
        code=_code(item.get("code")),
        source=str(item.get("source") or ""),
        lsp_data=item.get("lsp_data"),
    )
