"""`refactor_extract`: a range of code pulled out into a new function or variable by the
language server's `refactor.extract` code actions (jedi-language-server offers both; other
servers offer what they have). Previewed like a rename; applied only on request, to
Neovim's buffers or the overlays, never to disk.

Servers name the new function or variable with a placeholder (`jls_extract_def`) and say
it in the action's title (`Extract expression into function 'jls_extract_def'`); with
`new_name`, the placeholder is replaced as a whole word in the edited text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from simple_brief.errors import UserError
from simple_brief.model import TextEdit
from simple_brief.render import lsp as view
from simple_brief.tools import Call, Param, ToolResult, tool
from simple_brief.tools.lsp import APPLY, PATH, _apply, _edits_data, _new_texts, _target, ask, error_notes

KINDS = ("function", "variable")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
_PLACEHOLDER = re.compile(r"'([^\W\d]\w*)'")
#: Title words of each kind (`Extract expression into function`, `Extract method`, `Extract constant`).
_KIND_WORDS = {"function": ("function", "method"), "variable": ("variable", "constant", "local")}


@tool(
    "refactor_extract",
    "lsp",
    "Extract a range of code into a new function or variable with the language server's refactoring "
    "(it works out the parameters and the return). Preview by default: per-file edits with each line "
    "before (-) and after (+). USE FOR: pulling an expression or block out into a named function or variable. "
    "DON'T USE FOR: renaming (refactor_rename) or moving code between files. apply=true edits Neovim's "
    "buffers or the overlays.",
    (
        PATH,
        Param("start_line", int, "1-based first line of the code to extract."),
        Param("start_col", int, "1-based column of its first character (characters, not bytes)."),
        Param("end_line", int, "1-based last line of the code to extract."),
        Param("end_col", int, "1-based column just after its last character (exclusive)."),
        Param("kind", str, "What to extract into.", "function", KINDS),
        Param("new_name", str, "Name of the new function or variable (default: the server's placeholder).", ""),
        APPLY,
    ),
    read_only=False,
)
def refactor_extract(
    call: Call,
    path: str,
    start_line: int,
    start_col: int,
    end_line: int,
    end_col: int,
    kind: str,
    new_name: str,
    apply: bool,
) -> ToolResult:
    """The extraction's edits, previewed or applied."""
    if new_name and not _IDENTIFIER.fullmatch(new_name):
        raise UserError(f"`{new_name}` is not a name; give an identifier such as total_price.")
    real, shown, _, start = _target(call, path, start_line, start_col)
    _, _, _, end = _target(call, path, end_line, end_col)
    if (end["line"], end["character"]) <= (start["line"], start["character"]):
        raise UserError(
            f"the range {start_line}:{start_col}-{end_line}:{end_col} is empty or backwards; "
            "give the end after the start (end_col is just after the last character)."
        )
    where = f"{shown}:{start_line}:{start_col}-{end_line}:{end_col}"
    params = {"range": {"start": start, "end": end}, "context": {"diagnostics": [], "only": ["refactor.extract"]}}
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
    edits, notes = view.workspace_edit(action.get("edit") or {})
    changed, outside = _new_texts(call, edits)
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
    data["edits"] = _edits_data(call, changed)
    if apply:
        data["applied"] = True
        return ToolResult([f"{head}; {_apply(call, changed, False)}"], data)
    blocks = [head + " (preview: nothing changed; apply=true applies it)", *notes, *outside]
    blocks.extend(
        view.render_file_edits(call.workspace.display(p), old, e) for p, (old, _, e) in sorted(changed.items())
    )
    kept, left = view.fit(blocks, call.budget, "the data holds every edit; apply=true applies them all")
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)


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
                "extract without new_name and rename it with refactor_rename."
            )
        renamed = word.sub(new_name, new)
        out[path] = (old, renamed, view.minimal_edits(old, renamed))
    return out
