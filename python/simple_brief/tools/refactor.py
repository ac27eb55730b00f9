"""The lsp tool that edits: `refactor`, whose `action` renames, extracts or formats (three
tools before issue 30). Each previews its edits by default (per file, every changed line before and after, or a
diff); `apply=true` applies them to Neovim's buffers or, without Neovim, to the overlays;
only `refactor action=rename write=true` writes files, in disk mode.

An applied edit answers with its consequences: the diagnostics of the files it touched
(the engine's own findings on the new text, and the language servers' — in Neovim, what its
clients publish), so the agent need not ask again.

`refactor action=extract_function|extract_variable` uses the server's `refactor.extract` code
actions (jedi-language-server offers function and variable).

Servers name the new function or variable with a placeholder (`jls_extract_def`) and say
it in the action's title (`Extract expression into function 'jls_extract_def'`); with
`new_name`, the placeholder is replaced as a whole word in the edited text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from simple_brief import languages
from simple_brief.errors import UserError
from simple_brief.intel import protocol, text_edits
from simple_brief.intel.protocol import path_to_uri
from simple_brief.model import Diagnostic, TextEdit
from simple_brief.render import lsp as view
from simple_brief.render.diagnostics import diagnostic_json, render_diagnostics
from simple_brief.scan import scan
from simple_brief.tools import Call, Doc, ToolResult, checks, clobber, hints, tool
from simple_brief.tools.lsp import FilePath
from simple_brief.tools.servers import ask, error_notes, incomplete_notice, locate, server_diagnostics

#: Files an applied edit checks for diagnostics (the others are counted, not checked).
CHECKED_AFTER_EDIT = 5

Apply = Annotated[bool, Doc("Apply: to Neovim's buffers, else to overlays.")]
Review = Annotated[bool, Doc("Send to review in Neovim.")]


def new_texts(
    call: Call, edits: dict[Path, list[TextEdit]]
) -> tuple[dict[Path, tuple[str, str, list[TextEdit]]], list[str]]:
    """Per workspace file: (old text, new text, the smallest edits between them); notes for
    files outside the workspace, which are never edited."""
    out: dict[Path, tuple[str, str, list[TextEdit]]] = {}
    notes = []
    for path, items in edits.items():
        try:
            real, source = call.workspace.read(path)
        except UserError:
            notes.append(f"[edits to {path} left out: it is outside the workspace or unreadable]")
            continue
        new = view.apply_text_edits(source.text, items)
        if new != source.text:
            out[real] = (source.text, new, text_edits.minimal_edits(source.text, new))
    return out, notes


def apply_changes(call: Call, changed: dict[Path, tuple[str, str, list[TextEdit]]], write: bool) -> str:
    """Apply new texts to the editor's buffers or the workspace overlays (and the disk with
    `write`); one sentence saying what changed."""
    ws = call.workspace
    names = ", ".join(ws.display(p) for p in changed)
    if call.editor.name != "disk":
        done = call.editor.apply_edits({p: edits for p, (_, _, edits) in changed.items()})
        note = f"applied to the Neovim buffers of {', '.join(ws.display(p) for p in done) or names}"
        if write:
            note += "; not written (in Neovim the buffers are the truth: save them there with :wa)"
        return note + "."
    for path, (_, new, _) in changed.items():
        ws.set_overlay(path, new)
    if not write:
        return f"applied to the in-memory overlays of {names}; the files on disk are unchanged (write=true saves)."
    for path, (_, new, _) in changed.items():
        try:
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(new)
        except OSError as exc:
            raise UserError(f"{ws.display(path)} cannot be written ({exc.strerror}); check its permissions.") from None
        ws.remove_overlay(path)
    return f"applied and written to disk: {names}."


def consequences(call: Call, changed: dict[Path, tuple[str, str, list[TextEdit]]]) -> tuple[list[str], dict[str, Any]]:
    """The diagnostics of the files an applied edit touched: their checker's and the grammar's
    findings on their new text and the language servers' (one sync and publish each, at most
    `CHECKED_AFTER_EDIT` files)."""
    by_file: dict[str, list[Diagnostic]] = {}
    notes: list[str] = []
    paths = sorted(changed)
    for path in paths[:CHECKED_AFTER_EDIT]:
        call.check_cancelled()
        new_text = changed[path][1]
        outline = scan(new_text, languages.detect(path, None))
        found = [*checks.verdict(call, path, outline).diagnostics, *outline.diagnostics]
        served, errors, _ = server_diagnostics(call, path)
        found.extend(d for d, _ in served if d not in found)
        notes.extend(errors)
        by_file[call.workspace.display(path)] = found
    blocks = render_diagnostics(by_file)
    blocks[0] = "after the edit: " + blocks[0][0].lower() + blocks[0][1:]
    if len(paths) > CHECKED_AFTER_EDIT:
        blocks.append(
            f"[{len(paths) - CHECKED_AFTER_EDIT} more changed files not checked: "
            f"{hints.command('diagnostics', path='…')} checks one]"
        )
    if call.editor.name != "disk":
        notes.append("[in Neovim: its clients' findings as published so far; they may still be re-checking]")
    data = {p: [diagnostic_json(d) for d in diags] for p, diags in by_file.items()}
    return [*blocks, *notes], data


def applied(
    call: Call, head: str, changed: dict[Path, tuple[str, str, list[TextEdit]]], data: dict[str, Any], write: bool
) -> ToolResult:
    """The answer of an applied edit: what changed, then the diagnostics it leaves."""
    for path, (old, _, edits) in changed.items():
        clobber.refuse_edits_over_changes(call, path, old, edits)
    data["applied"] = True
    sentence = f"{head}; {apply_changes(call, changed, write)}"
    blocks, after = consequences(call, changed)
    data["diagnostics_after"] = after
    return ToolResult([sentence, *blocks], data)


def previewed_or_applied(
    call: Call,
    head: str,
    changed: dict[Path, tuple[str, str, list[TextEdit]]],
    notes: list[str],
    data: dict[str, Any],
    apply: bool,
    write: bool,
    lead: str | None = None,
    review: bool = False,
) -> ToolResult:
    """The answer of an edit: applied (one sentence), or a preview of every file's edits
    within the budget, opened by `lead` (a server still loading); `data` gets the edits either way."""
    data["edits"] = edits_data(call, changed)
    if review:
        return _reviewed(call, head, changed, apply)
    if apply:
        return applied(call, head, changed, data, write)
    blocks = [head + " (preview: nothing changed; apply=true applies it)", *notes]
    blocks.extend(
        view.render_file_edits(call.workspace.display(p), old, e) for p, (old, _, e) in sorted(changed.items())
    )
    kept, left = view.fit(blocks, call.budget, "the data holds every edit; apply=true applies them all", lead)
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


def edits_data(call: Call, changed: dict[Path, tuple[str, str, list[TextEdit]]]) -> dict[str, Any]:
    return {
        call.workspace.display(p): [{"range": e.range.to_lsp(), "newText": e.new_text} for e in edits]
        for p, (_, _, edits) in changed.items()
    }


def _reviewed(call: Call, head: str, changed: dict[Path, tuple[str, str, list[TextEdit]]], apply: bool) -> ToolResult:
    """The edits sent to the person's review (`tools.edit`), or a refusal when also applied."""
    if apply:
        raise UserError("review=true sends the edits to the person instead of applying them; drop apply=true.")
    from simple_brief.tools.edit import sent_to_review  # the edit toolset, imported when asked for

    return sent_to_review(call, head, changed)


def _rename(
    call: Call, path: str, line: int, col: int, new_name: str, apply: bool, write: bool, review: bool = False
) -> ToolResult:
    """The rename's edits, previewed or applied."""
    if not new_name.strip():
        raise UserError("parameter `new_name` is empty; give the new name.")
    if write and not apply:
        raise UserError("write=true needs apply=true; preview first, then pass apply=true write=true.")
    real, shown, source, pos = locate(call, path, line, col)
    _, replies = ask(call, real, shown, "textDocument/rename", {"position": pos, "newName": new_name})
    chosen = next((r for r in replies if r.error is None and r.result), None)
    old_name = view.word_at(source, pos)
    if chosen is None:
        return ToolResult([f"Nothing to rename at {shown}:{line}:{col} (`{old_name}`).", *error_notes(replies)], {})
    edits, notes = protocol.workspace_edit(chosen.result)
    changed, outside = new_texts(call, edits)
    if apply and (outside or notes):
        raise UserError(
            f"the rename of `{old_name}` also asks for {'; '.join(outside + notes)}; apply it in an editor instead."
        )
    count = sum(len(e) for _, _, e in changed.values())
    head = (
        f"rename `{old_name}` -> `{new_name}` ({chosen.server}): {view.plural(count, 'edit')} in "
        f"{view.plural(len(changed), 'file')}"
    )
    data: dict[str, Any] = {"server": chosen.server, "old_name": old_name, "new_name": new_name}
    lead = incomplete_notice(replies)
    if lead:
        data["incomplete"] = lead
    if (apply or review) and lead:
        raise UserError(f"{lead[1:-2]}: the rename was not applied; preview it again in a few seconds.")
    return previewed_or_applied(call, head, changed, [*notes, *outside], data, apply, write, lead, review)


def _format(call: Call, path: str, apply: bool, review: bool = False) -> ToolResult:
    """The formatter's edits as a diff, previewed or applied."""
    real, source = call.workspace.read(path)
    shown = call.workspace.display(real)
    tabs = any(ln.startswith("\t") for ln in source.lines)
    options = {"options": {"tabSize": 4, "insertSpaces": not tabs}}
    _, replies = ask(call, real, shown, "textDocument/formatting", options)
    # A formatter with nothing to change may answer null (pylsp) or [].
    chosen = next((r for r in replies if r.error is None and isinstance(r.result, list | None)), None)
    if chosen is None:
        return ToolResult([f"{shown}: no formatter answered.", *error_notes(replies)], {"path": shown})
    edits, _ = protocol.workspace_edit({"changes": {path_to_uri(real): chosen.result or []}})
    changed, _ = new_texts(call, edits)
    data: dict[str, Any] = {"path": shown, "server": chosen.server, "edits": edits_data(call, changed)}
    if not changed:
        return ToolResult([f"{shown} is already formatted ({chosen.server}); nothing to change."], data)
    old, new, _ = changed[real]
    hunks = view.unified_diff(old, new)
    n_hunks = sum(1 for h in hunks if h.startswith("@@"))
    head = f"{shown}: {view.plural(n_hunks, 'change')} by {chosen.server}"
    if review:
        return _reviewed(call, head, {real: changed[real]}, apply)
    if apply:
        return applied(call, head, {real: changed[real]}, data, False)
    blocks: list[str] = [head + " (preview: nothing changed; apply=true applies it)"]
    for h in hunks:
        if h.startswith("@@") or not blocks[1:]:
            blocks.append(h)
        else:
            blocks[-1] += "\n" + h
    kept, left = view.fit(blocks, call.budget, "apply=true applies every change")
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_PLACEHOLDER = re.compile(r"'([^\W\d]\w*)'")
#: Title words of each kind (`Extract expression into function`, `Extract method`, `Extract constant`).
_KIND_WORDS = {"function": ("function", "method"), "variable": ("variable", "constant", "local")}


def _extract(
    call: Call,
    path: str,
    start: tuple[int, int],
    end: tuple[int, int],
    kind: str,
    new_name: str,
    apply: bool,
    review: bool = False,
) -> ToolResult:
    """The extraction's edits, previewed or applied."""
    if new_name and not _IDENTIFIER.fullmatch(new_name):
        raise UserError(f"`{new_name}` is not a name; give an identifier such as total_price.")
    (start_line, start_col), (end_line, end_col) = start, end
    real, shown, _, first = locate(call, path, start_line, start_col)
    _, _, _, after = locate(call, path, end_line, end_col)
    if (after["line"], after["character"]) <= (first["line"], first["character"]):
        raise UserError(
            f"the range {start_line}:{start_col}-{end_line}:{end_col} is empty or backwards; "
            "give the end after the start (end_col is just after the last character)."
        )
    where = f"{shown}:{start_line}:{start_col}-{end_line}:{end_col}"
    params = {"range": {"start": first, "end": after}, "context": {"diagnostics": [], "only": ["refactor.extract"]}}
    _, replies = ask(call, real, shown, "textDocument/codeAction", params)
    offered = [(r.server, action) for r in replies if r.error is None for action in (r.result or [])]
    chosen = next(((server, a) for server, a in offered if _is_kind(a, kind)), None)
    if chosen is None:
        titles = "; ".join(str(a.get("title", "?")) for _, a in offered if isinstance(a, dict))
        offer = f" (the server offers: {titles})" if titles else ""
        return ToolResult(
            [
                f"No extract-{kind} refactoring for {where}{offer}; select a whole expression or statements.",
                *error_notes(replies),
            ],
            {"path": shown, "kind": kind},
        )
    server, action = chosen
    edits, notes = protocol.workspace_edit(action.get("edit") or {})
    changed, outside = new_texts(call, edits)
    if not changed:
        return ToolResult([f"The {server} extraction at {where} changes nothing.", *notes, *outside], {"path": shown})
    placeholder = _placeholder(str(action.get("title", "")))
    name = new_name or placeholder or "(unnamed)"
    if new_name and placeholder and new_name != placeholder:
        changed = _renamed(changed, placeholder, new_name)
    if apply and (outside or notes):
        raise UserError(f"the extraction also asks for {'; '.join(outside + notes)}; apply it in an editor instead.")
    count = sum(len(e) for _, _, e in changed.values())
    head = f"extract {kind} `{name}` from {where} ({server}): {view.plural(count, 'edit')}"
    data: dict[str, Any] = {"server": server, "kind": kind, "name": name, "title": action.get("title")}
    return previewed_or_applied(call, head, changed, [*notes, *outside], data, apply, False, review=review)


def _is_kind(action: Any, kind: str) -> bool:
    """An extract code action (not a bare command) whose title says it makes a `kind`."""
    if not isinstance(action, dict) or not isinstance(action.get("edit"), dict):
        return False
    if not str(action.get("kind", "refactor.extract")).startswith("refactor.extract"):
        return False
    title = str(action.get("title", "")).lower()
    return any(word in title for word in _KIND_WORDS[kind])


def _placeholder(title: str) -> str:
    found = _PLACEHOLDER.search(title)
    return found.group(1) if found else ""


def _renamed(
    changed: dict[Path, tuple[str, str, list[TextEdit]]], placeholder: str, new_name: str
) -> dict[Path, tuple[str, str, list[TextEdit]]]:
    """The new texts with the server's placeholder name replaced (whole words the edit added)."""
    word = re.compile(rf"\b{re.escape(placeholder)}\b")
    out = {}
    for path, (old, new, _) in changed.items():
        if word.search(old):
            raise UserError(
                f"`{placeholder}` already appears in the file, so it cannot be told apart from the new name; "
                "extract without new_name and rename it with refactor action=rename."
            )
        renamed = word.sub(new_name, new)
        out[path] = (old, renamed, text_edits.minimal_edits(old, renamed))
    return out


@tool(
    "refactor",
    "lsp",
    "Rename the symbol at line:col, extract line:col-end_line:end_col, or format a file, with its language "
    "server; a preview unless apply=true. USE FOR: safe renames, pulling code out. DON'T USE FOR: text "
    "replacement.",
    read_only=False,
)
def refactor(
    call: Call,
    action: Annotated[Literal["rename", "extract_function", "extract_variable", "format"], Doc("What to do.")],
    path: FilePath,
    line: Annotated[int | None, Doc("1-based.")] = None,
    col: Annotated[int | None, Doc("1-based, characters.")] = None,
    end_line: Annotated[int | None, Doc("extract: inclusive.")] = None,
    end_col: Annotated[int | None, Doc("extract: after the last character.")] = None,
    new_name: Annotated[str | None, Doc("rename: needed; extract: optional.")] = None,
    apply: Apply = False,
    write: Annotated[bool, Doc("rename without Neovim: also write files.")] = False,
    review: Review = False,
) -> ToolResult:
    """The action's edits, previewed or applied (each action was a tool before issue 30)."""
    if action == "format":
        return _format(call, path, apply, review)
    if action == "rename":
        if line is None or col is None or new_name is None:
            raise _missing(action, line=line, col=col, new_name=new_name)
        return _rename(call, path, line, col, new_name, apply, write, review)
    if line is None or col is None or end_line is None or end_col is None:
        raise _missing(action, line=line, col=col, end_line=end_line, end_col=end_col)
    if write:
        raise UserError("write=true is for action=rename; an extraction is applied with apply=true.")
    kind = action.removeprefix("extract_")
    return _extract(call, path, (line, col), (end_line, end_col), kind, new_name or "", apply, review)


def _missing(action: str, **given: object) -> UserError:
    """The sentence naming the parameters `refactor action=...` needs and was not given."""
    names = ", ".join(f"`{name}`" for name, value in given.items() if value is None)
    return UserError(f"`refactor action={action}` needs {names}.")
