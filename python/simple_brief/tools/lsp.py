"""The lsp toolset: hover, definition, references, calls, completion and diagnostic
explanations (the reports behind `diagnostics only=parse|types|lint` are
`tools.file_reports`).

Language work is delegated (SPEC): the LSP clients attached in Neovim answer when they
serve the file and method; otherwise the language servers named in `.simple-brief.toml`,
which the session starts itself (`lsp_client.ServerPool`). Positions in and out are 1-based
`line:col` counting characters; JSON data keeps LSP's 0-based positions. Nothing here has a
side effect; the tools that edit (rename, extract, format) are in `tools.refactor`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from simple_brief.editor.context import enclosing_scopes
from simple_brief.errors import UserError
from simple_brief.intel import LspReply, protocol
from simple_brief.model import Position, Range, Symbol
from simple_brief.model import SymbolKind as K
from simple_brief.render import lsp as view
from simple_brief.tools import Call, Doc, ToolResult, hints, tool
from simple_brief.tools.lsp_pages import Paged, within_page
from simple_brief.tools.servers import (
    TIMEOUT,
    ask,
    error_notes,
    incomplete_notice,
    locate,
    provider,
    settle,
    text_reader,
)

_WORD = re.compile(r"\w+")

FilePath = Annotated[str, Doc("File.")]
Line = Annotated[int, Doc("1-based.")]
Col = Annotated[int, Doc("1-based, characters.")]


# --- hover, definition, references, completion ---------------------------------------------


def _hover(call: Call, path: str, line: int, col: int) -> ToolResult:
    """Hover text per answering server."""
    real, shown, source, pos = locate(call, path, line, col)
    _, replies = ask(call, real, shown, "textDocument/hover", {"position": pos})
    word = view.word_at(source, pos)
    blocks: list[str] = []
    same: list[str] = []
    words_shown: set[str] = set()
    data: dict[str, Any] = {"path": shown, "position": pos, "hovers": []}
    for reply in replies:
        result = reply.result if isinstance(reply.result, dict) else {}
        text = protocol.hover_text(result.get("contents"))
        if not text:
            continue
        data["hovers"].append({"server": reply.server, "text": text, "range": result.get("range")})
        words = set(_WORD.findall(text.lower()))
        if blocks and len(words - words_shown) <= max(2, len(words) // 10):
            same.append(reply.server)  # the same signature and doc, worded a little differently
            continue
        words_shown |= words
        blocks.append(f"{shown}:{line}:{col} `{word}` ({reply.server})\n{text}")
    if not blocks:
        blocks = [f"No hover information at {shown}:{line}:{col} (`{word}`)."]
    if same:
        blocks.append(f"[{', '.join(same)}: the same hover; each server's text is in the data]")
    blocks.extend(error_notes(replies))
    source_call = hints.command("analyze", what="definition", path=shown, line=line, col=col)
    kept, left = view.fit(
        blocks, call.budget, f"each server's whole text is in the data (hovers); its source: {source_call}"
    )
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


def _places(call: Call, found: list[tuple[Path, Range]], named: bool = False) -> list[view.Place]:
    """Each location as shown (workspace-relative) with its line's text (files outside the
    workspace are not read); with `named`, the definition each sits in, from the engine's
    outline of its file (the workspace's parse cache: one scan per file)."""
    texts: dict[Path, tuple[list[str], list[Symbol] | None] | None] = {}
    out = []
    for path, rng in found:
        if path not in texts:
            texts[path] = _file_lines(call, path, named)
        read = texts[path]
        lines = read[0] if read is not None else None
        text = lines[rng.start.line] if lines is not None and rng.start.line < len(lines) else None
        if lines is not None and text is None:
            text = ""
        symbols = read[1] if read is not None else None
        symbol = enclosing(symbols, rng.start, text or "") if symbols is not None else None
        out.append(view.Place(call.workspace.display(path), rng.start, text, symbol))
    return out


def _file_lines(call: Call, path: Path, named: bool) -> tuple[list[str], list[Symbol] | None] | None:
    """A workspace file's lines and, with `named`, its outline's symbols (None: not readable)."""
    try:
        if named:
            outline = call.workspace.outline(path)[1]
            return outline.source.lines, outline.symbols
        return call.workspace.read(path)[1].lines, None
    except UserError:
        return None


def enclosing(symbols: list[Symbol], at: Position, text: str = "") -> str:
    """The dotted name of the definitions around `at` (`Terminal.Loop.doActions`: a Go
    method's receiver type qualifies it), outermost first: the editor context's scope
    chain there (`context.enclosing_scopes`; `text` is the line of `at`); `<module>` at
    the file's top level."""
    return ".".join(s.scoped_name for s in enclosing_scopes(symbols, at.line, at.character, text)) or view.MODULE_LEVEL


def _unique_locations(replies: list[LspReply]) -> list[tuple[Path, Range]]:
    """The locations of every reply, each once, in the order given (linear: a hub symbol's
    thousands of references)."""
    found: dict[tuple[Path, Range], None] = {}
    for reply in replies:
        for item in protocol.locations(reply.result):
            found.setdefault(item, None)
    return list(found)


def _paging(offset: int, limit: int) -> None:
    if limit < 1:
        raise UserError("parameter `limit` must be at least 1.")
    if offset < 0:
        raise UserError("parameter `offset` must be 0 or more.")


def _past_end(offset: int, total: int, what: str) -> None:
    if total and offset >= total:
        raise UserError(f"offset {offset} is past the end: there are {what}; give an offset from 0 to {total - 1}.")


def _definition(call: Call, path: str, line: int, col: int) -> ToolResult:
    """Definition locations, one line each, with an expand_at hint."""
    real, shown, source, pos = locate(call, path, line, col)
    _, replies = ask(call, real, shown, "textDocument/definition", {"position": pos})
    found: list[tuple[Path, Range]] = []
    for reply in replies:
        for item in protocol.locations(reply.result):
            if item not in found:
                found.append(item)
    places = _places(call, found)
    word = view.word_at(source, pos)
    data: dict[str, Any] = {
        "path": shown,
        "position": pos,
        "definitions": [{"path": p.path, "range": r.to_lsp()} for p, (_, r) in zip(places, found, strict=True)],
    }
    if not places:
        return ToolResult([f"No definition found for `{word}` at {shown}:{line}:{col}.", *error_notes(replies)], data)
    lines = [f"{view.plural(len(places), 'definition')} of `{word}` (from {shown}:{line}:{col})"]
    for place in places:
        hint = f"  [expand_at {place.path} line:{place.start.line + 1}]" if place.text is not None else ""
        lines.append(view.place_line(place, True) + hint)
    kept, left = view.fit(["\n".join(lines), *error_notes(replies)], call.budget, "the data lists every definition")
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


#: References (and calls) per page by default: a page of 50 lines stays near 2,000 tokens.
PAGE = 50
#: Completions shown by default.
COMPLETIONS = 30


def _references(
    call: Call, path: str, line: int, col: int, include_declaration: bool, offset: int, limit: int
) -> ToolResult:
    """Totals and per-file counts, then one page of sites by file, position first, each
    naming the definition it sits in (only the page's files are read and outlined)."""
    _paging(offset, limit)
    real, shown, source, pos = locate(call, path, line, col)
    params = {"position": pos, "context": {"includeDeclaration": include_declaration}}
    _, replies = ask(call, real, shown, "textDocument/references", params)
    found = _unique_locations(replies)
    if not include_declaration and found:
        # Some servers (jedi) list the declaration anyway: leave out where the definition is.
        try:
            _, defs = ask(call, real, shown, "textDocument/definition", {"position": pos})
        except UserError:
            defs = []
        declared = {item for reply in defs for item in protocol.locations(reply.result)}
        found = [item for item in found if item not in declared]
    display = {p: call.workspace.display(p) for p in {p for p, _ in found}}
    found.sort(key=lambda item: (display[item[0]].startswith("/"), display[item[0]], item[1].start))
    files: dict[str, int] = {}
    for p, _ in found:
        files[display[p]] = files.get(display[p], 0) + 1
    word = view.word_at(source, pos)
    total = len(found)
    _past_end(offset, total, f"{view.plural(total, 'reference')} to `{word}`")
    page = found[offset : offset + limit]
    places = _places(call, page, named=True)
    head = (
        f"{view.plural(total, 'reference')} to `{word}` in {view.plural(len(files), 'file')} "
        f"(declaration {'included' if include_declaration else 'left out'}; from {shown}:{line}:{col})"
    )
    if files:
        head += f": {view.file_counts(files)}"
    lead = incomplete_notice(replies)
    notes = error_notes(replies)
    again = {
        "what": "references",
        "path": shown,
        "line": line,
        "col": col,
        **({} if include_declaration else {"include_declaration": False}),
    }

    def answer(count: int) -> list[str]:
        next_offset = offset + count if offset + count < total else None
        note = view.page_note(offset, count, total, next_offset)
        return [*view.render_references(head + (f"\n{note}" if note else ""), places[:count], files), *notes]

    paged = Paged("reference", "analyze", again, offset, len(page), total)
    blocks, shown_count = within_page(call, answer, paged, lead)
    next_offset = offset + shown_count if offset + shown_count < total else None
    data: dict[str, Any] = {
        "path": shown,
        "position": pos,
        "total": total,
        "files": files,
        "offset": offset,
        "limit": limit,
        "next_offset": next_offset,
        "references": {},
    }
    if lead:
        data["incomplete"] = lead
    for place, (_, rng) in zip(places[:shown_count], page, strict=False):
        data["references"].setdefault(place.path, []).append({"range": rng.to_lsp(), "symbol": place.symbol})
    if shown_count < len(page):
        data["truncated"] = len(page) - shown_count
    return ToolResult(blocks, data)


#: JSON-RPC's MethodNotFound: the server does not offer the method at all.
_NOT_FOUND = ("-32601", "method not found")


def _unsupported(reply: LspReply) -> bool:
    return reply.error is not None and any(mark in reply.error.lower() for mark in _NOT_FOUND)


def _row_name(call: Call, path: Path, start: Position, item: dict[str, Any]) -> str:
    """A call-hierarchy item's name as the outline qualifies it (`Box.size`, `<module>` for a
    module item); the server's name when the file is not read or the outline disagrees."""
    name = str(item.get("name", ""))
    if item.get("kind") in (K.File, K.Module):
        return view.MODULE_LEVEL
    read = _file_lines(call, path, True)
    if read is None or read[1] is None:
        return name
    lines = read[0]
    qualified = enclosing(read[1], start, lines[start.line] if start.line < len(lines) else "")
    return qualified if qualified.split(".")[-1] == name else name


def _calls(call: Call, path: str, line: int, col: int, direction: str, offset: int, limit: int) -> ToolResult:
    """prepareCallHierarchy, then incomingCalls or outgoingCalls of the first item, one row
    per caller (callee) with the lines of its calls."""
    _paging(offset, limit)
    real, shown, source, pos = locate(call, path, line, col)
    word = view.word_at(source, pos)
    prepare = "textDocument/prepareCallHierarchy"
    intel = provider(call, real, prepare, shown)
    settle(call, intel, real, prepare)
    replies = intel.request(real, prepare, {"position": pos}, TIMEOUT)
    offered = [r for r in replies if not _unsupported(r)]
    if not offered:
        names = ", ".join(r.server for r in replies) or "its language server"
        raise UserError(
            f"{names} (serving {shown}) {'do' if len(replies) > 1 else 'does'} not offer call hierarchy; "
            "use analyze what=references for the uses, or name a server that does (basedpyright) in .simple-brief.toml."
        )
    text_of = text_reader(call, intel)
    uri = protocol.path_to_uri(real)
    items: list[tuple[str, dict[str, Any]]] = []
    for reply in offered:
        if reply.error is None and isinstance(reply.result, list):
            converted = protocol.convert_positions(reply.result, text_of, reply.encoding, uri)
            items.extend((reply.server, item) for item in converted if isinstance(item, dict))
    if not items:
        if all(r.error is not None for r in offered):
            raise UserError(f"the language server could not answer {prepare} for {shown} ({error_notes(offered)[0]}).")
        return ToolResult(
            [f"No function or method at {shown}:{line}:{col} (`{word}`); point at a function's name or a call of it."],
            {"path": shown, "position": pos, "direction": direction, "total": 0, "calls": []},
        )
    server, item = items[0]
    item_path = protocol.uri_to_path(str(item.get("uri", ""))) or real
    asked_path = item_path if item_path.is_relative_to(call.workspace.root) else real
    method = f"callHierarchy/{direction}Calls"
    answers = [r for r in intel.request(asked_path, method, {"item": item}, TIMEOUT) if r.server == server]
    rows: list[tuple[dict[str, Any], list[Range]]] = []
    notes = error_notes(answers)
    for reply in answers:
        if reply.error is not None or not isinstance(reply.result, list):
            continue
        for entry in reply.result:
            other = entry.get("from" if direction == "incoming" else "to") if isinstance(entry, dict) else None
            if not isinstance(other, dict):
                continue
            other = protocol.convert_positions(other, text_of, reply.encoding, uri)
            sites_uri = str(other.get("uri", "")) if direction == "incoming" else str(item.get("uri", ""))
            ranges = protocol.convert_positions(entry.get("fromRanges") or [], text_of, reply.encoding, sites_uri)
            # basedpyright can send one site twice (`self.raw_decode(...)` in json/decoder.py).
            sites = dict.fromkeys(protocol.range_from_lsp(r) for r in ranges if isinstance(r, dict))
            rows.append((other, list(sites)))
    total = len(rows)
    name = str(item.get("name") or word)
    what = "caller" if direction == "incoming" else "callee"
    _past_end(offset, total, f"{view.plural(total, what)} of `{name}`")
    rows.sort(key=lambda row: (str(row[0].get("uri", "")), protocol.range_from_lsp(row[0].get("range") or {}).start))
    page = rows[offset : offset + limit]
    head = f"{view.plural(total, what)} of `{name}` ({direction} calls, {server}; from {shown}:{line}:{col})"
    data_rows: list[dict[str, Any]] = []
    row_blocks: list[str] = []
    for other, ranges in page:
        other_path = protocol.uri_to_path(str(other.get("uri", ""))) or real
        sites_path = other_path if direction == "incoming" else item_path
        rng = protocol.range_from_lsp(other.get("selectionRange") or other.get("range") or {})
        places = _places(call, [(sites_path, r) for r in ranges])
        shown_other = call.workspace.display(other_path)
        other_name = _row_name(call, other_path, rng.start, other)
        row = view.call_row(shown_other, rng.start, other_name, other.get("kind"))
        row_blocks.append("\n".join([row, *("  " + view.place_line(p, False) for p in places)]))
        data_rows.append(
            {
                "name": other_name,
                "kind": other.get("kind"),
                "path": shown_other,
                "range": rng.to_lsp(),
                "calls": [{"path": p.path, "range": r.to_lsp()} for p, r in zip(places, ranges, strict=True)],
            }
        )

    def answer(count: int) -> list[str]:
        if not total:
            return [f"No {what}s of `{name}` ({direction} calls, {server}; from {shown}:{line}:{col}).", *notes]
        next_offset = offset + count if offset + count < total else None
        note = view.page_note(offset, count, total, next_offset)
        if direction == "outgoing":
            note += f"{'; ' if note else ''}call lines in {call.workspace.display(item_path)}"
        return [head + (f"\n{note}" if note else ""), *row_blocks[:count], *notes]

    lead = incomplete_notice([*replies, *answers])
    again = {"what": _CALLS[direction], "path": shown, "line": line, "col": col}
    paged = Paged(what, "analyze", again, offset, len(page), total)
    blocks, shown_count = within_page(call, answer, paged, lead)
    data = {
        "path": shown,
        "position": pos,
        "direction": direction,
        "item": {"name": name, "kind": item.get("kind"), "server": server},
        "total": total,
        "offset": offset,
        "limit": limit,
        "next_offset": offset + shown_count if offset + shown_count < total else None,
        "calls": data_rows[:shown_count],
    }
    if lead:
        data["incomplete"] = lead
    if shown_count < len(page):
        data["truncated"] = len(page) - shown_count
    return ToolResult(blocks, data)


def _completion(call: Call, path: str, line: int, col: int, limit: int) -> ToolResult:
    """Completion items, one line each, in the servers' order."""
    if limit < 1:
        raise UserError("parameter `limit` must be at least 1.")
    real, shown, source, pos = locate(call, path, line, col)
    _, replies = ask(call, real, shown, "textDocument/completion", {"position": pos})
    items: list[dict[str, Any]] = []
    incomplete = False
    for reply in replies:
        result = reply.result
        if isinstance(result, dict):
            incomplete = incomplete or bool(result.get("isIncomplete"))
            result = result.get("items")
        if isinstance(result, list):
            mine = [i for i in result if isinstance(i, dict)]
            items.extend(sorted(mine, key=lambda i: str(i.get("sortText") or i.get("label", ""))))
    # Servers in config order, each in its own order; a name two servers offer shows once.
    unique: dict[tuple[str, Any], dict[str, Any]] = {}
    for item in items:
        text = item.get("filterText") or item.get("insertText") or item.get("label", "")
        unique.setdefault((str(text), item.get("kind")), item)
    items = list(unique.values())
    shown_items = items[:limit]
    word = view.word_at(source, pos)
    head = f"{view.plural(len(items), 'completion')} at {shown}:{line}:{col}"
    if word:
        head += f" (after `{word}`)"
    if len(items) > limit:
        every = hints.command("analyze", what="completion", path=shown, line=line, col=col, limit=len(items))
        head += f"; showing {limit}, all of them: {every}"
    if incomplete:
        head += "; the server's list is incomplete, type more and ask again"
    text = "\n".join([head, *("  " + view.completion_line(i) for i in shown_items)])
    data = {
        "path": shown,
        "position": pos,
        "total": len(items),
        "items": [
            {k: i[k] for k in ("label", "kind", "detail", "insertText") if i.get(k) is not None} for i in shown_items
        ],
    }
    kept, left = view.fit([text, *error_notes(replies)], call.budget, "type more of the name and ask again")
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


#: `what` for each direction of the call hierarchy.
_CALLS = {"incoming": "callers", "outgoing": "callees"}


@tool(
    "analyze",
    "lsp",
    "Ask the language servers about the symbol at line:col: hover (type, doc), definition, references, "
    "callers, callees, completion. USE FOR: types, who uses or calls it. DON'T USE FOR: its source "
    "(expand_at), names across files (search).",
)
def analyze(
    call: Call,
    what: Annotated[
        Literal["hover", "definition", "references", "callers", "callees", "completion"], Doc("What to ask.")
    ],
    path: FilePath,
    line: Line,
    col: Col,
    include_declaration: Annotated[bool, Doc("references: with the definition.")] = True,
    offset: Annotated[int, Doc("Items to skip.")] = 0,
    limit: Annotated[int | None, Doc("Items per page; default 50 (completion 30).")] = None,
) -> ToolResult:
    """The answer `what` asks for (one of the former analyze_* tools)."""
    if what == "hover":
        return _hover(call, path, line, col)
    if what == "definition":
        return _definition(call, path, line, col)
    if what == "completion":
        return _completion(call, path, line, col, COMPLETIONS if limit is None else limit)
    if what == "references":
        return _references(call, path, line, col, include_declaration, offset, PAGE if limit is None else limit)
    direction = "incoming" if what == "callers" else "outgoing"
    return _calls(call, path, line, col, direction, offset, PAGE if limit is None else limit)
