"""The read toolset: simple_read, expand_at, document_symbols, search, diagnostics."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from rapidfuzz import process

from simple_brief.errors import UserError
from simple_brief.intel.checkers import Verdict
from simple_brief.intel.protocol import diagnostic_to_lsp
from simple_brief.model import Diagnostic, Position, Range, Severity, Symbol, SymbolKind, qualified, walk_with_parent
from simple_brief.render import blockmarks, table
from simple_brief.render.budget import approx_tokens, fit_blocks
from simple_brief.render.diagnostics import OWN_SOURCE, diagnostic_json, render_diagnostics, sort_key
from simple_brief.render.names import render_names
from simple_brief.render.search import render_search
from simple_brief.render.symbols_view import render_symbols_view
from simple_brief.scan import Outline
from simple_brief.tools import Call, Doc, ToolResult, checks, hints, name_of, surroundings, symbol_pages, tool
from simple_brief.tools.servers import add_fixits, server_diagnostics

ReadPath = Annotated[str, Doc("File.")]
Filetype = Annotated[str | None, Doc("Default: from the file name.")]
#: The order views degrade in to fit a token budget (then: counts).
DEGRADE = ("full", "outline", "compact")


def _header(call: Call, real: Path, outline: Outline, mode: str) -> str:
    lines = outline.source.line_count
    return f"{call.workspace.display(real)} ({outline.language.name}, {lines} lines) {mode}"


def _render_mode(outline: Outline, diags: list[Diagnostic], mode: str, depth: int | None) -> str:
    if mode == "full":
        return blockmarks.render_full(outline, diags)
    return blockmarks.render_outline(outline, diags, mode, depth)


@tool(
    "simple_read",
    "read",
    "A file as source or folded to its definitions with line spans. USE FOR: a file's structure, exact "
    "source. DON'T USE FOR: one body (expand_at), names across files (search).",
)
def simple_read(
    call: Call,
    path: ReadPath,
    mode: Annotated[
        Literal["full", "outline", "compact", "symbols", "names"],
        Doc("outline: definitions folded; compact: one diagnostics line; symbols: a list; names: the cheapest."),
    ] = "full",
    depth: Annotated[int, Doc("Nesting levels shown (1: top); 0: all.")] = 0,
    preview: Annotated[
        Literal["none", "signature", "expanded"],
        Doc("mode=symbols: what each shows."),
    ] = "none",
    filetype: Filetype = None,
) -> ToolResult:
    """The file in the asked mode, degraded (full -> outline -> compact -> counts) to fit the budget."""
    if depth < 0:
        raise UserError("parameter `depth` must be 0 (all levels) or more.")
    if preview != "none" and mode != "symbols":
        raise UserError(f"preview={preview} applies to mode=symbols only; ask for mode=symbols, or leave preview out.")
    if depth and mode == "full":
        raise UserError("depth applies to the outline modes, not mode=full (the whole source); leave depth out.")
    real, outline = call.workspace.outline(path, filetype)
    shown = call.workspace.display(real)
    data: dict[str, Any] = {
        "path": shown,
        "language": outline.language.name,
        "lines": outline.source.line_count,
        "symbols": sum(1 for _ in walk_with_parent(outline.symbols)),
        "mode": mode,
    }
    if mode == "names":
        text = f"{_header(call, real, outline, mode)}\n{render_names(outline.symbols, depth)}"
        return _within_budget(call, [text], data, f"use {hints.command('search', '…')} for one name")
    if mode == "symbols":
        blocks = render_symbols_view(outline, shown, preview, depth or 99)
        return _within_budget(call, blocks, data, f"use depth=1, or {hints.command('expand_at', shown, 'NAME')}")
    limit = depth or None
    asked_tokens = 0
    # The grammar's hints, and the errors of the checks that start no program (Python's compile()).
    judged = checks.verdict(call, real, outline, in_process_only=True).diagnostics
    diags = sorted([*outline.diagnostics, *judged], key=sort_key)
    for step in DEGRADE[DEGRADE.index(mode) :]:
        # A view the caller did not ask for keeps their depth, except compact: top level only.
        step_depth = 1 if step == "compact" and step != mode else limit
        text = f"{_header(call, real, outline, step)}\n{_render_mode(outline, diags, step, step_depth)}"
        tokens = approx_tokens(text)
        asked_tokens = asked_tokens or tokens
        if tokens <= call.budget:
            if step != mode:
                data["mode"] = step
                data["degraded_from"] = mode
                note = (
                    f"[{mode} view is ~{asked_tokens:,} tokens, over the {call.budget:,}-token budget: showing "
                    f"{step}{' at depth 1' if step == 'compact' else ''}. Open a symbol with expand_at, or raise "
                    "the budget.]"
                )
                return ToolResult([note, text], data)
            return ToolResult([text], data)
    counts = _kind_counts(outline.symbols)
    data["mode"] = "counts"
    data["degraded_from"] = mode
    return ToolResult(
        [
            f"[{mode} view is ~{asked_tokens:,} tokens, over the {call.budget:,}-token budget even folded: showing "
            f"counts. Use {hints.command('simple_read', shown, mode='symbols', depth=1)}, "
            f"{hints.command('search', '…')}, or {hints.command('expand_at', shown, 'line:N')}.]",
            f"{_header(call, real, outline, 'counts')}\n{counts}",
        ],
        data,
    )


def _kind_counts(symbols: list[Symbol]) -> str:
    counts: dict[str, int] = {}
    for sym, _ in walk_with_parent(symbols):
        counts[sym.kind.name] = counts.get(sym.kind.name, 0) + 1
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items(), key=lambda kv: -kv[1])) or "no symbols"


def _within_budget(call: Call, blocks: list[str], data: dict[str, Any], hint: str) -> ToolResult:
    """Keep whole blocks while they fit (a first block too big alone is cut at a line); the
    first line then says how much was left out and how to get it."""
    kept, blocks_left, lines_left = fit_blocks(blocks, call.budget, hint)
    if blocks_left or lines_left:
        data["truncated"] = blocks_left or 1
    if lines_left:
        data["truncated_lines"] = lines_left
    return ToolResult(kept, data)


def qualified_names(symbols: list[Symbol]) -> list[tuple[Symbol, str]]:
    """Each symbol with its dotted path (`User.greet`, a Go method's `Terminal.Loop`), by start."""
    return [(sym, qual) for sym, qual, _ in qualified(symbols)]


_HASHES = re.compile(r"^#{1,6}(?:\s+|$)|\s+#+\s*$")


def heading_text(name: str) -> str:
    """A Markdown heading's text without its `#`s, spaces collapsed: `## Usage` → `Usage`."""
    return " ".join(_HASHES.sub("", name.strip()).split())


def _heading_paths(symbols: list[Symbol]) -> dict[int, list[str]]:
    """Each heading's texts from the top section down to it, by id (`["Title", "Usage"]`)."""
    out: dict[int, list[str]] = {}
    stack: list[tuple[list[Symbol], list[str]]] = [(symbols, [])]
    while stack:
        items, above = stack.pop()
        for sym in items:
            if sym.kind != SymbolKind.String:
                continue
            path = [*above, heading_text(sym.name)]
            out[id(sym)] = path
            if sym.children:
                stack.append((sym.children, path))
    return out


def _heading_matches(symbols: list[Symbol], named: list[tuple[Symbol, str]], sel: str) -> list[Symbol]:
    """Markdown headings a selector names: the heading text with or without `#`s
    (`Usage`, `## Usage`), or a path of them from any level down (`Title > Usage`, then
    `Title.Usage`); exact case first, then any case."""
    paths = _heading_paths(symbols)
    if not paths:
        return []
    by_id = {id(s): s for s, _ in named}

    def find(parts: list[str], fold: bool) -> list[Symbol]:
        want = [p.casefold() for p in parts] if fold else parts
        hits = []
        for key, path in paths.items():
            tail = path[-len(want) :]
            if len(path) >= len(want) and ([p.casefold() for p in tail] if fold else tail) == want:
                hits.append(by_id[key])
        return hits

    whole = [heading_text(sel)]
    split = [heading_text(p) for p in sel.split(">")] if ">" in sel else None
    dotted = [heading_text(p) for p in sel.split(".")] if "." in sel else None
    for fold in (False, True):
        for parts in (whole, split, dotted):
            if parts and all(parts) and (hits := find(parts, fold)):
                return sorted(hits, key=lambda s: s.range.start)
    return []


def _heading_path(symbols: list[Symbol], sym: Symbol) -> str:
    return " > ".join(_heading_paths(symbols).get(id(sym), [sym.name]))


def find_symbol(outline: Outline, selector: str, shown: str) -> Symbol:
    """The symbol a selector names: `name`, `Class.method`, or `line:N` (the innermost there).

    A Markdown heading is named by its text with or without `#`s (`Usage`, `## Usage`)
    or by a path of heading texts (`Title > Usage`, or `Title.Usage` when no heading
    text holds that dot).

    Raises:
        UserError: nothing there, or an ambiguous name (the candidates are listed).
    """
    return find_symbol_in(outline.symbols, selector, shown)


def find_symbol_in(symbols: list[Symbol], selector: str, shown: str) -> Symbol:
    """`find_symbol` over a forest of symbols (the outline's, or an editor's language server's)."""
    sel = selector.strip()
    named = qualified_names(symbols)
    if sel.lower().startswith("line:"):
        try:
            line = int(sel[5:]) - 1
        except ValueError:
            raise UserError(f"{name_of(selector)} is not a line selector; write line:N with N a line number.") from None
        inside = [s for s, _ in named if s.range.contains_line(line)]
        if not inside:
            starts = ", ".join(f"line:{s.selection_range.start.line + 1}" for s in symbols[:8])
            raise UserError(f"no definition contains line {line + 1} of {shown}; definitions are at {starts}.")
        return max(inside, key=lambda s: (s.range.start, -s.range.end.line))
    # A full name wins: `run` is the top-level run even when Job.run exists.
    exact = [s for s, q in named if q == sel] or [s for s, q in named if s.name == sel]
    if not exact:
        exact = _heading_matches(symbols, named, sel)
    if not exact:
        exact = [s for s, q in named if q.endswith("." + sel) or s.name.lower() == sel.lower()]
    if len(exact) == 1:
        return exact[0]
    if len(exact) > 1:
        blocks = [s for s in exact if s.is_block]
        if len(blocks) == 1:
            return blocks[0]
        qual = dict((id(s), q) for s, q in named)
        shown_names = [_heading_path(symbols, s) if s.kind == SymbolKind.String else qual[id(s)] for s in exact[:10]]
        options = "; ".join(
            f"{n} (line:{s.selection_range.start.line + 1})" for n, s in zip(shown_names, exact, strict=False)
        )
        raise UserError(f"{name_of(sel)} names {len(exact)} symbols in {shown}: {options}; ask for one of those.")
    headings = _heading_paths(symbols)
    names = sorted(
        {" > ".join(headings[id(s)][-2:]) if id(s) in headings else q for s, q in named}
        | {heading_text(s.name) if id(s) in headings else s.name for s, _ in named}
    )
    # A name is short: a long selector has no near names worth the fuzzy matcher's time.
    near = [m[0] for m in process.extract(sel, names, limit=5, score_cutoff=50)] if len(sel) <= 200 else []
    hint = f"nearby names: {', '.join(near)}" if near else f"{hints.command('simple_read', shown)} shows its symbols"
    raise UserError(f"no symbol {name_of(sel)} in {shown}; {hint}.")


@tool(
    "expand_at",
    "read",
    "One symbol's source. USE FOR: a function or class from an outline or search. DON'T USE FOR: whole "
    "files (simple_read).",
)
def expand_at(
    call: Call,
    path: ReadPath,
    selector: Annotated[
        str,
        Doc("Name, Class.method, line:N or a Markdown heading (Title > Usage)."),
    ],
    what: Annotated[
        Literal["all", "body", "signature"],
        Doc("signature: mark line and doc."),
    ] = "all",
    filetype: Filetype = None,
    context: Annotated[bool, Doc("Also its class headers, fields, nearby signatures, imports used.")] = False,
) -> ToolResult:
    """One symbol's signature, body or source (with its surroundings when asked)."""
    real, outline = call.workspace.outline(path, filetype)
    shown = call.workspace.display(real)
    sym = find_symbol(outline, selector, shown)
    if context:
        return surroundings.with_surroundings(call, shown, outline, sym)
    text = blockmarks.render_expanded(outline, sym, what)
    diags = [d for d in outline.diagnostics if sym.range.contains_line(d.range.start.line)]
    if diags and what != "signature":
        text += "\n" + "\n".join(blockmarks.diag_line(d) for d in diags)
    data = {
        "path": shown,
        "name": sym.name,
        "kind": int(sym.kind),
        "range": sym.range.to_lsp(),
        "signature": sym.signature,
    }
    result = _within_budget(call, [text], data, "")
    if approx_tokens(text) > call.budget:
        kids = ", ".join(f"{c.name} (line:{c.selection_range.start.line + 1})" for c in sym.children[:20])
        note = (
            f"[{sym.name} is ~{approx_tokens(text):,} tokens, over the {call.budget:,}-token budget: showing its "
            f"signature. Open a part with {hints.command('expand_at', shown, 'line:N')}"
            + (f"; its members: {kids}" if kids else "")
            + ".]"
        )
        result = ToolResult([note, blockmarks.render_expanded(outline, sym, "signature")], data)
    return result


@tool(
    "document_symbols",
    "read",
    "A file's symbols as a table or LSP JSON. USE FOR: exact ranges. DON'T USE FOR: reading code (simple_read).",
)
def document_symbols(
    call: Call,
    path: ReadPath,
    format: Annotated[Literal["table", "standard"], Doc("standard: LSP JSON, 0-based.")] = "table",
    return_children: Annotated[
        Literal["yes", "no", "auto"],
        Doc("no: top level; auto: two levels if large."),
    ] = "auto",
    include_hover: Annotated[bool, Doc("Add each symbol's signature and doc.")] = True,
    filetype: Filetype = None,
    under: Annotated[str | None, Doc("Only this symbol's members.")] = None,
    offset: Annotated[int | None, Doc("Rows to skip.")] = None,
) -> ToolResult:
    """The seed 003 table or LSP JSON of a file's symbols, within the budget (symbol_pages)."""
    if offset is not None and offset < 0:
        raise UserError("parameter `offset` must be 0 (the first row) or more.")
    real, outline = call.workspace.outline(path, filetype)
    shown = call.workspace.display(real)
    rc: table.ReturnChildren = return_children
    # The editor's language servers know more (types, locals) when one is attached.
    symbols = call.editor.symbols(real) or outline.symbols
    if under is not None:
        holder = find_symbol_in(symbols, under, shown)
        rows: list[tuple[Symbol, Symbol | None]] = [
            (s, p if p is not None else holder) for s, p in table.select_rows(holder.children, rc)
        ]
    else:
        rows = table.select_rows(symbols, rc)
    if offset is not None and offset >= max(len(rows), 1):
        raise UserError(f"offset={offset} is past the last of the {len(rows):,} rows; ask for a smaller offset.")
    head = f"{shown} symbols (positions 1-based line:col; {table.RANGE_NOTE})" + (f" under {under}" if under else "")
    listing = symbol_pages.Listing(
        rows, offset or 0, offset is not None, shown, format, include_hover, return_children, under, head
    )
    blocks, fitted = symbol_pages.fit(listing, call.budget)
    return ToolResult(blocks, {"path": shown, "format": format, **fitted})


@tool(
    "search",
    "read",
    "Symbols by name across the workspace (substring, camelCase, snake_case, fuzzy). USE FOR: where X is "
    "defined. DON'T USE FOR: text in bodies (grep).",
)
def search(
    call: Call,
    query: Annotated[str, Doc("Name or part: `findUser`, `find_user`, `User.greet`.")],
    path: Annotated[str | None, Doc("Only this folder or file.")] = None,
    limit: Annotated[int, Doc("Most matches shown.")] = 50,
) -> ToolResult:
    """Ranked symbol matches, files by best match, symbols by line."""
    if not query.strip():
        raise UserError("the search query is empty; give a name or part of one.")
    if limit < 1:
        raise UserError("parameter `limit` must be at least 1.")
    from simple_brief.index.answer import find_symbols, skip_note  # (SQLite and workers: not for an outline)

    found = find_symbols(
        call.workspace, query, path=path, limit=limit, progress=call.report, check=call.check_cancelled
    )
    blocks = render_search(query, found.matches, found.total, found.files)
    note = skip_note(found.skipped)
    if note:
        first, sep, rest = blocks[0].partition("\n")
        blocks[0] = first + note + sep + rest
    data: dict[str, Any] = {
        "query": query,
        "total": found.total,
        "matches": [m.to_json() for m in found.matches],
    }
    if found.skipped:
        data["skipped"] = found.skipped
    return _within_budget(call, blocks, data, "narrow the query, pass path=, or lower limit")


@tool(
    "diagnostics",
    "read",
    "Problems by file; for one file also its checker's and language servers' with fix-its. "
    "USE FOR: what is broken after an edit. DON'T USE FOR: code.",
)
def diagnostics(
    call: Call,
    path: Annotated[str | None, Doc("File or folder; default: all.")] = None,
    fixits: Annotated[bool | None, Doc("Fetch fix-its; default: for one file.")] = None,
    only: Annotated[
        Literal["parse", "types", "lint"] | None,
        Doc("One file's parse report, type errors or lint findings."),
    ] = None,
    explain: Annotated[str | None, Doc("A simple-brief code (H003): its cause and fix.")] = None,
) -> ToolResult:
    """Syntax and reading findings per file, with the editor's and (one file) the servers';
    `only` gives one file's parse report or its type-checker or linter findings; `explain`
    a code's entry in the catalogue (`render.explain`)."""
    if explain is not None:
        from simple_brief.render import explain as catalogue

        entry = catalogue.explain(explain)
        return ToolResult([catalogue.render_explanation(entry)], catalogue.explanation_data(entry))
    if only is not None:
        from simple_brief.tools.file_reports import only_report

        return only_report(call, path, only, fixits)
    ws = call.workspace
    found: dict[Path, list[tuple[Diagnostic, dict[str, Any] | None]]] = {}
    shown: dict[Path, str] = {}
    # Workspace-wide: the findings stored by the symbol index for files it has current.
    from simple_brief.index.answer import fresh_index

    index = fresh_index(ws, path, call.report)
    for file in ws.files(path):
        call.check_cancelled()
        shown[file] = ws.display(file)
        stored = index.stored_diagnostics(file) if index is not None else None
        if stored is not None:
            found[file] = [(d, None) for d in stored]
            continue
        try:
            _, outline = ws.outline(file)
        except UserError as err:
            found[file] = [(_read_error(str(err)), None)]
            continue
        found[file] = [(d, None) for d in outline.diagnostics]
    scope = ws.resolve(path) if path is not None else ws.root
    single = path is not None and len(shown) == 1 and scope in shown
    notes: list[str] = []
    judged: list[Diagnostic] = []
    judged_by = ""
    if single:
        # One file: its checker's verdict, and the editor's findings in Neovim, else the
        # configured servers' (one sync each).
        verdict = _file_verdict(call, scope)
        judged = verdict.diagnostics if verdict is not None else []
        served, errors, asked = server_diagnostics(call, scope)
        found[scope].extend(served)
        notes.extend(errors)
        if not asked and call.session.untrusted:
            notes.append(f"[no language server checked it: {call.session.untrusted}]")
        if verdict is not None:
            judged_by = checks.judged_note(verdict, asked)
    else:
        # The editor's own findings (every vim.diagnostic source), for files under `path`.
        for real, diags in call.editor.diagnostics().items():
            if real == scope or scope in real.parents:
                shown.setdefault(real, ws.display(real))
                found.setdefault(real, []).extend((d, None) for d in diags)
    want = fixits if fixits is not None else single
    by_file: dict[str, list[Diagnostic]] = {}
    for real, pairs in found.items():
        if want and any(d.source != OWN_SOURCE for d, _ in pairs):
            full = [(d, raw if raw is not None else diagnostic_to_lsp(d)) for d, raw in pairs]
            diags, note = add_fixits(call, real, full)
            notes.extend([note] if note else [])
        else:
            diags = [d for d, _ in pairs]
        by_file[shown[real]] = sorted([*diags, *(judged if real == scope else [])], key=sort_key)
    blocks = render_diagnostics(by_file)
    if single and judged_by:
        blocks[0] += f"; {judged_by}"
    elif not single:
        notes.append(f"[syntax is judged one file at a time: {hints.command('diagnostics', path='FILE')}]")
    blocks.extend(notes)
    data = {"files": {p: [diagnostic_json(d) for d in diags] for p, diags in by_file.items() if diags}}
    return _within_budget(call, blocks, data, "pass path= for one folder or file")


def _file_verdict(call: Call, real: Path) -> Verdict | None:
    """The file's checkers' verdict; None when it cannot be read (its W002 says why)."""
    try:
        _, outline = call.workspace.outline(real)
    except UserError:
        return None
    return checks.verdict(call, real, outline)


def _read_error(message: str) -> Diagnostic:
    return Diagnostic(Range(Position(0, 0), Position(0, 0)), message, Severity.Warning, "W002")
