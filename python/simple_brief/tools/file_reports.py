"""The reports behind `diagnostics only=parse|types|lint` for one file.

parse: the file's checker's verdict (`tools.checks`), the regions its grammar could not
read (H003 hints), its functions, types and imports. types vs lint: `only=types` shows the
checker's errors, a file's findings of severity error and those whose source is a type
checker or compiler (`TYPE_CHECKERS`: pyright, mypy, jedi, tsserver, rustc ...), and the
declared `check` task's findings in the file (`tools.checks`);
`only=lint` shows all the others (ruff, pyflakes, pycodestyle, eslint ...). (These were the
tools `analyze_typecheck`, `analyze_lint` and `analyze_parse`; folded into `diagnostics`
to keep the tool list short, issue 18.)
"""

from __future__ import annotations

from typing import Any

from simple_brief.errors import UserError
from simple_brief.intel import protocol
from simple_brief.intel.checkers import Verdict
from simple_brief.model import Diagnostic, Severity, Symbol, qualified
from simple_brief.model import SymbolKind as K
from simple_brief.render import lsp as view
from simple_brief.render.budget import approx_tokens
from simple_brief.render.diagnostics import OWN_SOURCE, diagnostic_json, diagnostic_line, render_diagnostics
from simple_brief.tools import Call, ToolResult, checks, hints
from simple_brief.tools.servers import add_fixits, no_server_hint, server_diagnostics

#: Sources whose findings count as type checking (lower case; see the module docstring).
TYPE_CHECKERS = frozenset(
    {"pyright", "basedpyright", "pylance", "mypy", "dmypy", "pyre", "pytype", "jedi", "ty", "tsserver"}
    | {"typescript", "ts", "rustc", "rust-analyzer", "compiler", "gopls", "go", "clang", "javac"}
)
_FUNCTIONS = frozenset({K.Function, K.Method, K.Constructor})
_TYPES = frozenset({K.Class, K.Struct, K.Enum, K.Interface, K.TypeParameter})


def only_report(call: Call, path: str | None, only: str, fixits: bool | None) -> ToolResult:
    """`diagnostics only=parse|types|lint`: one file's parse report (`parse_report`) or its
    type-checker or linter findings (`checked_report`).

    Raises:
        UserError: no path, a folder, or `fixits` with only=parse (one sentence each); a
            file that cannot be read (the workspace's own sentence).
    """
    if path is None or call.workspace.resolve(path).is_dir():
        where = (
            "no path was given"
            if path is None
            else f"{call.workspace.display(call.workspace.resolve(path))} is a folder"
        )
        raise UserError(f"{hints.command('diagnostics', path='FILE', only=only)} checks one file; {where}.")
    if only == "parse":
        if fixits is not None:
            raise UserError("fixits= does not apply to only=parse (its checkers offer no fix-its).")
        return parse_report(call, path)
    return checked_report(call, path, only == "types", fixits is not False)


def parse_report(call: Call, path: str) -> ToolResult:
    """Syntax check and AST summary from the engine's scan (`diagnostics only=parse`)."""
    real, outline = call.workspace.outline(path)
    shown = call.workspace.display(real)
    verdict = checks.verdict(call, real, outline, task=False)  # (syntax only: the check task is only=types')
    errors = verdict.diagnostics
    unread = [d for d in outline.diagnostics if d.code == "H003"]
    named = [(sym, name) for sym, name, _ in qualified(outline.symbols)]
    functions = [(sym, name) for sym, name in named if sym.kind in _FUNCTIONS]
    types = [(sym, name) for sym, name in named if sym.kind in _TYPES]
    imports = view.import_lines(outline.source.lines, outline.import_lines)
    head = f"{shown} ({outline.language.name}, {outline.source.line_count} lines): {_parse_state(verdict, unread)}"
    error_lines = [diagnostic_line(d) for d in sorted([*errors, *unread], key=lambda d: d.range.start)]
    text = view.render_parse(head, error_lines, functions, types, imports)
    left_out = 0
    if approx_tokens(text) > call.budget:
        left_out = len(functions) + len(types) + len(imports)
        listed = f"{len(functions)} functions, {len(types)} types and {len(imports)} imports"
        depth_one = hints.command("simple_read", shown, mode="symbols", depth=1)
        note = view.cut_note(listed, call.budget, f"the data lists them, or {depth_one}")
        text = "\n".join([note, head, *("  " + e for e in error_lines)])

    def entry(sym: Symbol, name: str) -> dict[str, Any]:
        return {"name": name, "kind": int(sym.kind), "range": sym.range.to_lsp(), "signature": sym.signature}

    summary = {
        "functions": [entry(*pair) for pair in functions],
        "types": [entry(*pair) for pair in types],
        "imports": [{"line": n, "text": t} for n, t in imports],
    }
    diags = [diagnostic_json(d) for d in [*errors, *outline.diagnostics]]
    data = {
        "path": shown,
        "success": not errors if verdict.judged_by else None,
        "judged_by": verdict.judged_by,
        "ast_summary": summary,
        "diagnostics": diags,
    }
    if verdict.note:
        data["not_judged"] = verdict.note
    return ToolResult([text], {**data, "truncated": left_out} if left_out else data)


def _parse_state(verdict: Verdict, unread: list[Diagnostic]) -> str:
    """`no syntax errors (python-compile)`, `2 syntax errors (gofmt)`, or why nothing judged
    it; then how many regions the grammar could not read (H003, hints)."""
    if verdict.judged_by is None:
        state = f"syntax not judged: {verdict.note}"
    else:
        found = view.plural(len(verdict.diagnostics), "syntax error") if verdict.diagnostics else "no syntax errors"
        state = f"{found} ({verdict.judged_by})"
    if unread:
        state += f"; the grammar could not read {view.plural(len(unread), 'region')} (H003 hints)"
    return state


def is_typecheck(diag: Diagnostic) -> bool:
    """Errors, and findings of type checkers (TYPE_CHECKERS); the rest are lint."""
    return diag.severity == Severity.Error or diag.source.lower() in TYPE_CHECKERS


def checked_report(call: Call, path: str, typecheck: bool, fixits: bool = True) -> ToolResult:
    """One file's errors and type-checker findings (`typecheck`; `diagnostics only=types`)
    or the rest (`only=lint`), with fix-its unless `fixits` is false."""
    real, outline = call.workspace.outline(path)
    shown = call.workspace.display(real)
    found = [(d, protocol.diagnostic_to_lsp(d)) for d in outline.diagnostics]
    verdict = checks.verdict(call, real, outline) if typecheck else Verdict()
    served, notes, asked = server_diagnostics(call, real)
    found.extend(served)
    keep = [pair for pair in found if is_typecheck(pair[0]) == typecheck]
    diags, fix_note = add_fixits(call, real, keep) if fixits else ([d for d, _ in keep], None)
    diags = [*verdict.diagnostics, *diags]  # (a checker offers no code actions)
    errors = sum(1 for d in diags if d.severity == Severity.Error)
    sources = sorted({OWN_SOURCE, *asked, *([verdict.judged_by] if verdict.judged_by else [])})
    what = "typecheck" if typecheck else "lint"
    passed = ("passed" if not errors else f"failed ({view.plural(errors, 'error')})") if typecheck else ""
    head = f"{what} {shown}: {passed + ', ' if passed else ''}{view.plural(len(diags), 'finding')}"
    head += f"; {verdict.task}" if verdict.task else ""
    if not asked:
        ran = f"only {verdict.judged_by} judged its syntax" if verdict.judged_by else "no checker judged its syntax"
        notes.append(f"[no language server checks {shown}: {ran}; {no_server_hint(call)}]")
    blocks = [head, *render_diagnostics({shown: diags})[1:], *notes]
    if fix_note:
        blocks.append(fix_note)
    data = {
        "path": shown,
        "success": errors == 0,
        "sources": sources,
        "diagnostics": [diagnostic_json(d) for d in diags],
    }
    other = hints.command("diagnostics", shown, only="lint" if typecheck else "types")
    kept, left = view.fit(blocks, call.budget, f"the data lists every finding; {other} shows the others")
    if left:
        data["truncated"] = left
    return ToolResult(kept, data)
