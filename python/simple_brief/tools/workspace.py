"""The workspace toolset: overlays kept for the agent, and opened workspaces (seed 004).

`files_apply_overlay` / `files_remove_overlay` keep a file's text in memory
(`Workspace.set_overlay`): every tool reads it instead of the disk, nothing is ever
written, and in Neovim mode the person's buffers are not changed. They are marked
`read_only=False` in the registry (MCP `readOnlyHint: false`) because they change what
every later call sees, although no file changes.

`workspace_open` opens a folder inside the server's root under an id (`ws1`, `ws2`, …,
kept in `call.opened`) with its own parse cache and the server's overlays;
`workspace_files` and `workspace_symbols` list and search it (or the whole root when no
id is given); `workspace_close` frees it. These only read, so they are `read_only`.

Paths in every answer are relative to the server's root, as every other tool's, so an
agent can pass them straight to `simple_read` or `expand_at`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pathspec

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.files.beneath import shown_path
from simple_brief.files.path_escapes import escape_path
from simple_brief.files.workspace import Workspace
from simple_brief.index.answer import find_symbols, skip_note
from simple_brief.model import Diagnostic, Position, Range, Severity, SymbolKind
from simple_brief.render.budget import CHARS_PER_TOKEN, approx_tokens, fit_blocks
from simple_brief.render.diagnostics import diagnostic_line, render_diagnostics
from simple_brief.render.search import render_search
from simple_brief.tools import Call, Doc, ToolResult, checks, clobber, hints, tool

#: Workspaces one session may hold open at once (each keeps a parse cache).
MAX_OPEN = 8
#: Files `workspace_open` checks for its initial diagnostics; the rest are left to `diagnostics`.
OPEN_CHECK_MAX = 2000
#: Diagnostic lines shown inside a `files_apply_overlay` answer.
OVERLAY_DIAG_LINES = 10

WorkspaceId = Annotated[
    str | None, Doc("A workspace id from workspace_open (ws1, ...); default: the server's whole root.")
]


def _fit(call: Call, blocks: list[str], data: dict[str, Any], hint: str) -> ToolResult:
    """Whole blocks while they fit the budget; the first line then says how many were left and how to get them."""
    kept, blocks_left, lines_left = fit_blocks(blocks, call.budget, hint)
    if blocks_left or lines_left:
        data["truncated"] = blocks_left or 1
    return ToolResult(kept, data)


# --- overlays ----------------------------------------------------------------------------


def _lines(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


@tool(
    "files_apply_overlay",
    "workspace",
    "Keep new text for a file in simple-brief's memory: every tool (simple_read, search, expand_at, "
    "document_symbols, diagnostics, ...) then reads it instead of the disk; the file on disk and the "
    "editor's buffers are never changed. USE FOR: checking a planned edit (outline, syntax errors, "
    "symbols) before writing it, or a new file that does not exist yet. DON'T USE FOR: saving a file "
    "(write it yourself); undo with files_remove_overlay.",
    read_only=False,
    destructive=False,
)
def files_apply_overlay(
    call: Call,
    path: Annotated[str, Doc("File the text stands for, relative to the workspace root (it need not exist).")],
    content: Annotated[str, Doc("The whole new text of the file.")],
) -> ToolResult:
    """Set an agent overlay and report its size, its checker's verdict and the grammar's hints."""
    ws = call.workspace
    content, rebased = clobber.merged_overlay(call, ws.resolve(path), content)
    real = ws.set_overlay(path, content)
    shown = ws.display(real)
    on_disk = real.is_file()
    disk = f"disk file unchanged, {real.stat().st_size:,} bytes" if on_disk else "not on disk: a new file for the tools"
    size = len(content.encode("utf-8", "surrogatepass"))
    head = (
        f"Overlay on {shown}: {_lines(content)} lines, {size:,} bytes in memory ({disk}). "
        f"Every tool now reads this text; files_remove_overlay path={shown} goes back to the "
        + ("editor's buffer." if real in ws.overlays.editor else "disk.")
    )
    if call.editor.name != "disk":
        head += " The editor's buffers are not changed."
    if rebased:
        head += (
            f" Your changes were merged with the person's edits since you read it (lines "
            f"{', '.join(f'{a}-{b}' if b > a else str(a) for a, b in rebased)})."
        )
    diags: list[Diagnostic] = []
    judged = ""
    if languages.for_path(real) is not languages.PLAIN:
        outline = ws.outline(real)[1]
        verdict = checks.verdict(call, real, outline)
        diags = [*verdict.diagnostics, *outline.diagnostics]
        judged = f" (judged by {verdict.judged_by})" if verdict.judged_by else f" (not judged: {verdict.note})"
    data: dict[str, Any] = {
        "path": shown,
        "lines": _lines(content),
        "bytes": size,
        "on_disk": on_disk,
        "diagnostics": [{"code": d.code, "message": d.message, "range": d.range.to_lsp()} for d in diags],
    }
    if not diags:
        return ToolResult([head + f"\nsyntax{judged}: no errors found"], data)
    ordered = sorted(diags, key=lambda d: (d.range.start, int(d.severity)))
    shown_diags = ["  " + diagnostic_line(d) for d in ordered[:OVERLAY_DIAG_LINES]]
    more = len(diags) - len(shown_diags)
    tail = f"\n  [{more} more: {hints.command('diagnostics', path=shown)}]" if more > 0 else ""
    noun = "problem" if len(diags) == 1 else "problems"
    return ToolResult([head, f"syntax{judged}: {len(diags)} {noun}\n" + "\n".join(shown_diags) + tail], data)


@tool(
    "files_remove_overlay",
    "workspace",
    "Drop an overlay set with files_apply_overlay: tools read the disk (or the editor's unsaved "
    "buffer) again. USE FOR: undoing files_apply_overlay. DON'T USE FOR: discarding the editor's own "
    "unsaved changes (simple-brief never changes those).",
    read_only=False,
    destructive=False,
)
def files_remove_overlay(
    call: Call, path: Annotated[str, Doc("File whose overlay to drop, relative to the workspace root.")]
) -> ToolResult:
    """Remove an agent overlay, or say there was none (and list those there are)."""
    ws = call.workspace
    real = ws.resolve(path)
    shown = ws.display(real)
    if not ws.remove_overlay(real):
        others = ", ".join(ws.display(p) for p in sorted(ws.overlays.agent)) or "none"
        text = f"No overlay on {shown}; nothing changed (overlays set with files_apply_overlay: {others})."
        return ToolResult([text], {"path": shown, "removed": False})
    if real in ws.overlays.editor:
        now = "tools read the editor's unsaved buffer again"
    elif real.is_file():
        now = "tools read the disk again"
    else:
        now = "the file is not on disk, so tools no longer find it"
    return ToolResult([f"Removed the overlay on {shown}; {now}."], {"path": shown, "removed": True})


# --- workspaces --------------------------------------------------------------------------


def _opened(call: Call, ws_id: str | None) -> tuple[str | None, Workspace]:
    """The workspace an id names (None: the server's root).

    Raises:
        UserError: no open workspace has that id (the open ones are listed).
    """
    if ws_id is None or not ws_id.strip():
        return None, call.workspace
    key = ws_id.strip()
    with call.opened.lock:
        found = call.opened.by_id.get(key)
    if found is None:
        opened = _describe_open(call)
        raise UserError(f"there is no open workspace `{shown_path(key)}`; {opened}.")
    return key, _seen_by(call, found)


def _seen_by(call: Call, opened: Workspace) -> Workspace:
    """An opened workspace as this call sees it: with the call's editor buffers."""
    return opened.for_call(call.workspace.overlays.editor, call.workspace.max_bytes)


def _describe_open(call: Call) -> str:
    listed = _open_list(call)
    return f"open ones: {listed}" if listed else f"none is open: open one with {hints.command('workspace_open')}"


def _open_list(call: Call) -> str:
    with call.opened.lock:
        opened = list(call.opened.by_id.items())
    return ", ".join(f"{k} ({call.workspace.display(w.root)})" for k, w in opened)


def _next_id(call: Call) -> str:
    # Ids are never reused within a session, so an id an agent kept cannot name another folder.
    issued = call.opened.issued + 1
    while f"ws{issued}" in call.opened.by_id:
        issued += 1
    call.opened.issued = issued
    return f"ws{issued}"


def _quoted(name: str) -> str:
    """A file name in a listing line: escaped (`escape_path`), quoted when it holds a space or a quote."""
    name = escape_path(name)
    return f'"{name}"' if " " in name or '"' in name else name


def _folder_order(path: Path) -> tuple[tuple[str, ...], str]:
    """A folder's own files together, before its subfolders' (`bench/run.py` before `bench/results/x`)."""
    return path.parent.parts, path.name


def _folder(call: Call, path: Path) -> str:
    """`pkg/sub/` (relative to the server root; `./` for the root itself)."""
    folder = call.workspace.display(path.parent)
    return "./" if folder == "." else folder + "/"


def _listing(call: Call, paths: list[Path], tokens: int) -> tuple[list[str], int]:
    """One line per folder (`pkg/sub/: a.py b.py`), name by name within `tokens` so one huge
    folder is cut too (at least one name is always listed); the lines and how many names fit."""
    room = tokens * CHARS_PER_TOKEN
    lines: list[str] = []
    folder = None
    listed = 0
    for path in paths:
        here = _folder(call, path)
        piece = (f"{here}: " if here != folder else " ") + _quoted(path.name)
        if listed and len(piece) + 1 > room:
            break
        if here != folder:
            lines.append(piece)
            folder = here
        else:
            lines[-1] += piece
        room -= len(piece) + 1
        listed += 1
    return lines, listed


def _language_counts(paths: list[Path]) -> str:
    counts: dict[str, int] = {}
    for path in paths:
        name = languages.for_path(path).name
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def _read_error(message: str) -> Diagnostic:
    return Diagnostic(Range(Position(0, 0), Position(0, 0)), message, Severity.Warning, "W002")


def _check(call: Call, ws: Workspace, files: list[Path]) -> dict[str, list[Diagnostic]]:
    """simple-brief's own findings (grammar hints, decoding) per file, plus the editor's for files in `ws`."""
    by_file: dict[str, list[Diagnostic]] = {}
    total = len(files)
    for i, path in enumerate(files):
        if i % 50 == 0:
            call.report(i, total, f"checking {call.workspace.display(path)}")
        try:
            by_file[call.workspace.display(path)] = list(ws.outline(path)[1].diagnostics)
        except UserError as err:
            by_file[call.workspace.display(path)] = [_read_error(str(err))]
    for real, diags in call.editor.diagnostics().items():
        if ws.root in real.parents:
            by_file.setdefault(call.workspace.display(real), []).extend(diags)
    return by_file


@tool(
    "workspace_open",
    "workspace",
    "Open a project folder inside the server's root: returns an id (ws1, ...), its source files "
    "(.gitignore applied) and simple-brief's initial diagnostics for them. USE FOR: starting "
    "work on one package of a big repository, then workspace_files / workspace_symbols with id=. "
    "DON'T USE FOR: reading files (simple_read) or folders outside the root (refused).",
)
def workspace_open(
    call: Call,
    path: Annotated[str, Doc("Folder to open, relative to the server's root (`.` = the whole root).")] = ".",
    limit: Annotated[int, Doc("Most file names listed in the answer (all are counted).")] = 50,
) -> ToolResult:
    """Open (or find already open) a folder; list its files and their diagnostics (grammar hints)."""
    if limit < 0:
        raise UserError("parameter `limit` must be 0 or more.")
    try:
        # Kept from the workspace itself, not this call's view: another call sees its own buffers.
        ws = (call.workspace.base or call.workspace).sub(path)
    except UserError as err:
        if "outside the workspace" in str(err):
            raise UserError(
                f"workspace_open only opens folders inside the server's root {call.workspace.root}, and "
                f"{shown_path(path)} is not one; pass a folder inside it (or start simple-brief with another --root)."
            ) from None
        raise
    shown = call.workspace.display(ws.root)
    with call.opened.lock:
        opened = call.opened.by_id
        again = next((k for k, w in opened.items() if w.root == ws.root), None)
        if again is not None:
            ws_id, ws = again, opened[again]
        elif len(opened) < MAX_OPEN:
            ws_id = _next_id(call)
            opened[ws_id] = ws
        else:
            ws_id = ""
    if not ws_id:
        raise UserError(f"{MAX_OPEN} workspaces are open ({_open_list(call)}); close one with workspace_close.")
    ws = _seen_by(call, ws)
    files = sorted(ws.files(), key=_folder_order)
    checked = files[:OPEN_CHECK_MAX]
    by_file = _check(call, ws, checked)
    state = "already open" if again is not None else "opened"
    kinds = _language_counts(files) or "none"
    head = f"{ws_id} {state}: {shown} — {len(files)} source files ({kinds}), .gitignore applied"
    # The listing takes at most half the budget: the diagnostics need the rest.
    listing, listed = _listing(call, files[:limit], call.budget // 2)
    if len(files) > listed:
        listing.append(f"[{len(files) - listed} more: workspace_files id={ws_id}]")
    diag_blocks = render_diagnostics(by_file)
    check_note = f"grammar hints of {len(checked)} files; syntax is judged one file at a time"
    if len(checked) < len(files):
        check_note += f" (the first {len(checked)}; {hints.command('diagnostics', path='…')} for the rest)"
    diag_blocks[0] = f"Diagnostics ({check_note}): {diag_blocks[0]}"
    data: dict[str, Any] = {
        "id": ws_id,
        "root": shown,
        "already_open": again is not None,
        "file_count": len(files),
        "files": [call.workspace.display(p) for p in files[:listed]],
        "diagnostics": {
            p: [
                {"code": d.code, "severity": int(d.severity), "message": d.message, "range": d.range.to_lsp()}
                for d in diags
            ]
            for p, diags in by_file.items()
            if diags
        },
    }
    blocks = ["\n".join([head, *listing]), *diag_blocks]
    return _fit(call, blocks, data, f"use {hints.command('diagnostics', path=shown)} for every finding")


@tool(
    "workspace_close",
    "workspace",
    "Close a workspace opened with workspace_open and free its parse cache. USE FOR: done with a "
    "package. DON'T USE FOR: dropping overlays (files_remove_overlay).",
)
def workspace_close(call: Call, id: Annotated[str, Doc("The id workspace_open returned (ws1, ...).")]) -> ToolResult:
    """Forget an opened workspace."""
    ws_id, ws = _opened(call, id)
    if ws_id is None:
        raise UserError("parameter `id` is empty; give the id workspace_open returned (ws1, ...).")
    with call.opened.lock:
        call.opened.by_id.pop(ws_id, None)
    shown = call.workspace.display(ws.root)
    return ToolResult([f"Closed {ws_id} ({shown}); {_describe_open(call)}."], {"id": ws_id, "root": shown})


def _matcher(pattern: str) -> pathspec.GitIgnoreSpec:
    try:
        return pathspec.GitIgnoreSpec.from_lines([pattern])
    except (ValueError, TypeError) as err:
        raise UserError(
            f"pattern `{shown_path(pattern)}` is not a valid glob ({err}); try `*.py` or `src/**/*.ts`."
        ) from None


@tool(
    "workspace_files",
    "workspace",
    "List the workspace's files, .gitignore applied, one line per folder (`pkg/sub/: a.py b.py`). "
    "USE FOR: what files exist, where a kind of file lives (pattern=`*.toml`, `src/**/test_*.py`). "
    "DON'T USE FOR: finding a definition (workspace_symbols, search) or reading a file (simple_read).",
)
def workspace_files(
    call: Call,
    id: WorkspaceId = None,
    under: Annotated[
        str | None, Doc("Only this folder (relative to the server's root); default: the whole workspace.")
    ] = None,
    pattern: Annotated[
        str | None,
        Doc(
            "A .gitignore-style glob the relative path must match (`*.py` at any depth, `/docs/*.md`, "
            "`src/**/x.ts`); with a pattern every file kind is listed, not only source."
        ),
    ] = None,
    all_files: Annotated[bool, Doc("Also list files of no known language (text, config, data).")] = False,
    offset: Annotated[int, Doc("Skip this many files (to page through a long list).")] = 0,
    limit: Annotated[int, Doc("Most files listed.")] = 500,
) -> ToolResult:
    """Files by folder, paged and within the budget."""
    if offset < 0 or limit < 1:
        raise UserError("parameters `offset` must be 0 or more and `limit` at least 1.")
    ws_id, ws = _opened(call, id)
    start = call.workspace.resolve(under) if under else None
    matcher = _matcher(pattern) if pattern else None
    files = sorted(
        (
            p
            for p in ws.files(start, known_only=not (all_files or matcher is not None))
            if matcher is None or matcher.match_file(call.workspace.display(p))
        ),
        key=_folder_order,
    )
    page = files[offset : offset + limit]
    scope = call.workspace.display(start) if start is not None else call.workspace.display(ws.root)
    where = f"in {ws_id} under {scope}" if ws_id else f"under {scope}"
    filters = f" matching {pattern}" if pattern else "" if all_files else " (source only)"
    noun = "file" if len(files) == 1 else "files"
    head = f"{len(files)} {noun} {where}{filters}, .gitignore applied"
    body, listed = _listing(call, page, call.budget - approx_tokens(head) - 40)  # ~40 tokens for the notes
    if files and (offset or listed < len(files)):
        head += f"; showing {offset + 1}-{offset + listed}"
    lines = [head, *body]
    rest = len(files) - offset - listed
    if rest > 0:
        lines.append(f"[{rest} more files: offset={offset + listed}, or narrow with under= or pattern=]")
    data: dict[str, Any] = {
        "id": ws_id,
        "root": call.workspace.display(ws.root),
        "total": len(files),
        "offset": offset,
        "files": [call.workspace.display(p) for p in page[:listed]],
    }
    if not files:
        lines = [f"No files {where}{filters}; .gitignore applied (all_files=true lists every kind)."]
    return ToolResult(["\n".join(lines)], data)


_KIND_NAMES = {k.name.lower(): k for k in SymbolKind}


def _kinds(kind: str | None) -> set[SymbolKind] | None:
    """`class,function` or `5,12` -> those SymbolKinds; None = any."""
    if kind is None or not kind.strip():
        return None
    chosen: set[SymbolKind] = set()
    for part in kind.replace(" ", ",").split(","):
        word = part.strip().lower()
        if not word:
            continue
        if word.isdigit() and int(word) in SymbolKind._value2member_map_:
            chosen.add(SymbolKind(int(word)))
        elif word in _KIND_NAMES:
            chosen.add(_KIND_NAMES[word])
        elif word.rstrip("s") in _KIND_NAMES:  # `classes`, `functions`
            chosen.add(_KIND_NAMES[word.rstrip("s")])
        elif word.endswith("es") and word[:-2] in _KIND_NAMES:
            chosen.add(_KIND_NAMES[word[:-2]])
        else:
            names = "class, function, method, struct, enum, interface, variable, constant, field, module"
            raise UserError(
                f"`{shown_path(part.strip())}` is not a symbol kind; use one of {names} (or an LSP number)."
            )
    return chosen


@tool(
    "workspace_symbols",
    "workspace",
    "Find definitions across a workspace by name, optionally of one kind (class, function, method, ...), "
    "grouped by file with signature previews. USE FOR: every class in a package (kind=class, query empty), "
    "where X is defined inside an opened workspace. DON'T USE FOR: uses of a name (analyze what=references) or "
    "text in bodies (grep).",
)
def workspace_symbols(
    call: Call,
    query: Annotated[
        str, Doc("Name or part of one (`user`, `findUser`, `User.greet`); empty = every symbol of `kind`.")
    ],
    id: WorkspaceId = None,
    kind: Annotated[
        str | None, Doc("Only these kinds, comma-separated: class, function, method, struct, enum, ...")
    ] = None,
    limit: Annotated[int, Doc("Most matches shown.")] = 50,
) -> ToolResult:
    """Ranked definitions, files by best match, symbols by line (the `search` layout)."""
    kinds = _kinds(kind)
    if not query.strip() and kinds is None:
        raise UserError("the query is empty; give a name or part of one, or a kind (kind=class) to list them all.")
    if limit < 1:
        raise UserError("parameter `limit` must be at least 1.")
    ws_id, ws = _opened(call, id)
    root = call.workspace
    if ws is not root and root.listed_folder(ws.root):
        found = find_symbols(
            root,
            query,
            path=root.display(ws.root),
            kinds=kinds,
            limit=limit,
            progress=call.report,
            check=call.check_cancelled,
        )
    else:
        found = find_symbols(
            ws,
            query,
            kinds=kinds,
            limit=limit,
            display=root.display,
            progress=call.report,
            check=call.check_cancelled,
        )
    blocks = render_search(query, found.matches, found.total, found.files)
    first, _, rest = blocks[0].partition("\n")
    if not query.strip():
        first = first.replace('for query ""', "for any name")
    scope = [f"kind {', '.join(sorted(k.name for k in kinds))}" if kinds else "", f"in {ws_id}" if ws_id else ""]
    if any(scope):
        first += f" ({'; '.join(s for s in scope if s)})"
    first += skip_note(found.skipped)
    blocks[0] = f"{first}\n{rest}" if rest else first
    data: dict[str, Any] = {
        "query": query,
        "id": ws_id,
        "total": found.total,
        "matches": [m.to_json(with_score=False) for m in found.matches],
    }
    if found.skipped:
        data["skipped"] = found.skipped
    return _fit(call, blocks, data, "narrow the query, give kind=, or lower limit")
