"""Editor context (seed 001 AC1-AC10): the JSON object built from a snapshot and symbols.

Pure engine: snapshots are built by hand, symbols come from the engine's scanner or are
written out as a language server would send them.
"""

from __future__ import annotations

import json
from pathlib import Path

from simple_brief.editor import Selection, Snapshot
from simple_brief.editor.context import NO_SYMBOL_PROVIDER, build_context, context_line
from simple_brief.model import Position, Range, Symbol, SymbolKind

from conftest import outline_of

ROOT = Path("/work/ws")


def sym(name: str, kind: SymbolKind, first: int, last: int, *children: Symbol, start_col: int = 0) -> Symbol:
    """A symbol over 1-based lines first..last (as written in the seed), ending at column 1."""
    rng = Range(Position(first - 1, start_col), Position(last - 1, 1))
    return Symbol(name, kind, rng, rng, children=list(children))


def snapshot(
    cursor: tuple[int, int],
    *,
    filetype: str = "typescript",
    line_count: int = 300,
    path: Path = ROOT / "src" / "user_service.ts",
    modified: bool = False,
    text: str | None = None,
    selection: Selection | None = None,
) -> Snapshot:
    return Snapshot(
        path=path,
        filetype=filetype,
        line_count=line_count,
        modified=modified,
        cursor=cursor,
        text=text,
        selection=selection,
    )


USER_SERVICE = [
    sym(
        "UserService",
        SymbolKind.Class,
        10,
        200,
        sym("constructor", SymbolKind.Constructor, 12, 20),
        sym(
            "findUser",
            SymbolKind.Method,
            45,
            75,
            sym("query", SymbolKind.Variable, 50, 55),
            sym("cached", SymbolKind.Variable, 57, 57),
        ),
        sym("count", SymbolKind.Property, 80, 80),
    ),
    sym("helper", SymbolKind.Function, 210, 230),
]


# --- AC1: the fields, exactly ------------------------------------------------------------------


def test_ac1_field_names_and_values() -> None:
    ctx = build_context(snapshot((46, 9), modified=True), USER_SERVICE)
    assert set(ctx) == {"file", "cursor", "selection", "symbols"}
    assert ctx["file"] == {
        "path": str(ROOT / "src" / "user_service.ts"),
        "languageId": "typescript",
        "lineCount": 300,
        "isDirty": True,
    }
    assert ctx["cursor"] == {"line": 46, "character": 9}
    assert ctx["selection"] == {"isEmpty": True, "text": None}
    assert set(ctx["symbols"]) == {"totalInDocument", "containingScopes", "immediateScope", "scopeHierarchy"}
    assert ctx["symbols"]["totalInDocument"] == 7
    json.dumps(ctx)  # JSON-ready as it is


# --- AC5, AC6: nested scopes in code ------------------------------------------------------------


def test_ac5_class_and_method_with_exact_ranges() -> None:
    symbols = build_context(snapshot((46, 9)), USER_SERVICE)["symbols"]
    cls = {"name": "UserService", "kind": "Class", "range": {"start": 10, "end": 200, "length": 191}}
    method = {"name": "findUser", "kind": "Method", "range": {"start": 45, "end": 75, "length": 31}}
    assert symbols["containingScopes"] == [cls, method]
    assert symbols["immediateScope"] == method
    assert symbols["scopeHierarchy"] == "Class:UserService > Method:findUser"


def test_ac6_class_method_variable() -> None:
    symbols = build_context(snapshot((52, 13)), USER_SERVICE)["symbols"]
    assert [s["kind"] for s in symbols["containingScopes"]] == ["Class", "Method", "Variable"]
    assert symbols["immediateScope"] == {
        "name": "query",
        "kind": "Variable",
        "range": {"start": 50, "end": 55, "length": 6},
    }
    assert symbols["scopeHierarchy"] == "Class:UserService > Method:findUser > Variable:query"


def test_one_line_members_are_not_scopes() -> None:
    # A one-line variable or property is a statement, not a scope the cursor is inside.
    assert build_context(snapshot((57, 5)), USER_SERVICE)["symbols"]["scopeHierarchy"] == (
        "Class:UserService > Method:findUser"
    )
    assert build_context(snapshot((80, 5)), USER_SERVICE)["symbols"]["scopeHierarchy"] == "Class:UserService"


def test_scopes_from_the_engine_scanner_python() -> None:
    source = (
        "import os\n"  # 1
        "\n"
        "\n"
        "class UserService:\n"  # 4
        '    """Users."""\n'
        "\n"
        "    def find_user(self, user_id):\n"  # 7
        "        query = {'id': user_id}\n"  # 8
        "        return self.db.get(query)\n"  # 9
        "\n"
        "\n"
        "def main():\n"  # 12
        "    return UserService()\n"  # 13
    )
    symbols = outline_of(source, "python").symbols
    snap = snapshot((8, 9), filetype="python", line_count=13, text=source)
    info = build_context(snap, symbols)["symbols"]
    assert info["containingScopes"] == [
        {"name": "UserService", "kind": "Class", "range": {"start": 4, "end": 9, "length": 6}},
        {"name": "find_user", "kind": "Method", "range": {"start": 7, "end": 9, "length": 3}},
    ]
    assert info["totalInDocument"] == 3
    # In the def line's indentation: still the method (nothing else stands before it).
    snap = snapshot((7, 2), filetype="python", line_count=13, text=source)
    assert build_context(snap, symbols)["symbols"]["scopeHierarchy"] == "Class:UserService > Method:find_user"
    snap = snapshot((13, 5), filetype="python", line_count=13, text=source)
    assert build_context(snap, symbols)["symbols"]["scopeHierarchy"] == "Function:main"


def test_columns_matter_where_two_symbols_share_a_line() -> None:
    # `run(); const handler = () => {` ... `}; after();`: the function starts mid-line.
    text = "run(); const handler = () => {\n  work();\n}; after();\n"
    handler = Symbol(
        "handler",
        SymbolKind.Function,
        Range(Position(0, 13), Position(2, 1)),
        Range(Position(0, 13), Position(0, 20)),
    )

    def at(line: int, character: int) -> str:
        snap = snapshot((line, character), filetype="javascript", line_count=3, text=text)
        return str(build_context(snap, [handler])["symbols"]["scopeHierarchy"])

    assert at(1, 2) == ""  # on `run()`, before the function
    assert at(1, 14) == "Function:handler"
    assert at(2, 3) == "Function:handler"
    assert at(3, 1) == "Function:handler"  # on its closing brace
    assert at(3, 6) == ""  # on `after()`


def test_flat_symbol_lists_are_ordered_outermost_first() -> None:
    # SymbolInformation-style answers are flat: containment decides the order.
    flat = [
        sym("findUser", SymbolKind.Method, 45, 75),
        sym("UserService", SymbolKind.Class, 10, 200),
    ]
    info = build_context(snapshot((46, 1)), flat)["symbols"]
    assert info["scopeHierarchy"] == "Class:UserService > Method:findUser"


def test_half_open_ends_at_column_zero_end_on_the_previous_line() -> None:
    block = Symbol(
        "Block", SymbolKind.Class, Range(Position(0, 0), Position(5, 0)), Range(Position(0, 0), Position(0, 5))
    )
    info = build_context(snapshot((5, 1), line_count=10), [block])["symbols"]
    assert info["containingScopes"] == [
        {"name": "Block", "kind": "Class", "range": {"start": 1, "end": 5, "length": 5}}
    ]
    assert build_context(snapshot((6, 1), line_count=10), [block])["symbols"]["containingScopes"] == []


# --- AC7: Markdown headings -----------------------------------------------------------------------

MARKDOWN = (
    "# 📘 Document Title\n"  # 1
    "\n"
    "Intro.\n"
    "\n"
    "## 🚀 Getting Started\n"  # 5
    "\n"
    "### Section *one*\n"  # 7
    "\n"
    "#### Subsection `code`\n"  # 9
    "\n"
    "Body text.\n"  # 11
    "More text.\n"  # 12
    "\n"
    "### Section two\n"  # 14
    "\n"
    "## Chapter ✨ two\n"  # 16
    "Last line.\n"  # 17
)


def test_ac7_markdown_headings_nest_h1_to_h4() -> None:
    symbols = outline_of(MARKDOWN, "markdown").symbols
    snap = snapshot((11, 3), filetype="markdown", line_count=17, path=ROOT / "README.md", text=MARKDOWN)
    info = build_context(snap, symbols)["symbols"]
    assert info["containingScopes"] == [
        {"name": "# 📘 Document Title", "kind": "String", "range": {"start": 1, "end": 17, "length": 17}},
        {"name": "## 🚀 Getting Started", "kind": "String", "range": {"start": 5, "end": 15, "length": 11}},
        {"name": "### Section *one*", "kind": "String", "range": {"start": 7, "end": 13, "length": 7}},
        {"name": "#### Subsection `code`", "kind": "String", "range": {"start": 9, "end": 13, "length": 5}},
    ]
    assert info["immediateScope"]["name"] == "#### Subsection `code`"
    assert info["scopeHierarchy"] == (
        "String:# 📘 Document Title > String:## 🚀 Getting Started > String:### Section *one* "
        "> String:#### Subsection `code`"
    )
    assert info["totalInDocument"] == 6


def test_markdown_blank_line_before_the_next_heading_is_in_the_section() -> None:
    symbols = outline_of(MARKDOWN, "markdown").symbols
    snap = snapshot((13, 1), filetype="markdown", line_count=17, text=MARKDOWN)
    info = build_context(snap, symbols)["symbols"]
    assert info["immediateScope"]["name"] == "#### Subsection `code`"
    snap = snapshot((14, 1), filetype="markdown", line_count=17, text=MARKDOWN)
    assert build_context(snap, symbols)["symbols"]["immediateScope"]["range"] == {"start": 14, "end": 15, "length": 2}
    snap = snapshot((17, 1), filetype="markdown", line_count=17, text=MARKDOWN)
    assert build_context(snap, symbols)["symbols"]["scopeHierarchy"] == (
        "String:# 📘 Document Title > String:## Chapter ✨ two"
    )
    snap = snapshot((3, 1), filetype="markdown", line_count=17, text=MARKDOWN)
    assert build_context(snap, symbols)["symbols"]["scopeHierarchy"] == "String:# 📘 Document Title"


# --- AC8, AC10: top level and no symbol provider --------------------------------------------------


def test_ac8_top_level_has_no_scopes() -> None:
    ctx = build_context(snapshot((3, 1)), USER_SERVICE)
    assert ctx["symbols"]["containingScopes"] == []
    assert ctx["symbols"]["immediateScope"] is None
    assert ctx["symbols"]["scopeHierarchy"] == ""
    assert "warning" not in ctx["symbols"]
    assert ctx["file"]["lineCount"] == 300
    assert ctx["cursor"] == {"line": 3, "character": 1}


def test_ac8_one_line_import_at_module_level_is_top_level() -> None:
    # jedi reports `import os` as a Module symbol on that one line.
    imported = Symbol(
        "os", SymbolKind.Module, Range(Position(0, 0), Position(0, 9)), Range(Position(0, 7), Position(0, 9))
    )
    info = build_context(snapshot((1, 3), filetype="python", line_count=5), [imported])["symbols"]
    assert info["containingScopes"] == []
    assert info["totalInDocument"] == 1


def test_ac10_no_symbol_provider_warns() -> None:
    ctx = build_context(snapshot((2, 4), filetype="text", path=ROOT / "notes.txt"), None)
    assert ctx["symbols"] == {
        "totalInDocument": 0,
        "containingScopes": [],
        "immediateScope": None,
        "scopeHierarchy": "",
        "warning": NO_SYMBOL_PROVIDER,
    }
    assert NO_SYMBOL_PROVIDER == "No symbol provider registered for this language"
    assert ctx["file"]["languageId"] == "text"
    assert ctx["cursor"] == {"line": 2, "character": 4}


def test_a_given_warning_is_kept() -> None:
    ctx = build_context(snapshot((46, 1)), USER_SERVICE, warning="jedi timed out; symbols from simple-brief")
    assert ctx["symbols"]["warning"] == "jedi timed out; symbols from simple-brief"
    assert ctx["symbols"]["scopeHierarchy"] == "Class:UserService > Method:findUser"
    assert build_context(snapshot((1, 1)), None, warning="provider crashed")["symbols"]["warning"] == "provider crashed"


def test_empty_filetype_is_plaintext() -> None:
    assert build_context(snapshot((1, 1), filetype=""), None)["file"]["languageId"] == "plaintext"


# --- selection --------------------------------------------------------------------------------------


def test_selection_non_empty() -> None:
    selection = Selection(mode="v", start=(46, 9), end=(48, 3), text="user = db\n  .find(id)\n  ret")
    ctx = build_context(snapshot((48, 3), selection=selection), USER_SERVICE)
    assert ctx["selection"] == {
        "isEmpty": False,
        "text": "user = db\n  .find(id)\n  ret",
        "range": {"start": {"line": 46, "character": 9}, "end": {"line": 48, "character": 3}},
    }


def test_selection_empty() -> None:
    assert build_context(snapshot((1, 1)), None)["selection"] == {"isEmpty": True, "text": None}


# --- the text line ------------------------------------------------------------------------------------


def test_context_line() -> None:
    ctx = build_context(snapshot((46, 9), modified=True), USER_SERVICE)
    assert context_line(ctx, ROOT) == (
        "editor: src/user_service.ts:46:9 typescript modified · Class:UserService > Method:findUser"
    )
    assert context_line(ctx).startswith(f"editor: {ROOT / 'src' / 'user_service.ts'}:46:9 ")
    assert context_line(ctx, "/elsewhere").startswith(f"editor: {ROOT / 'src' / 'user_service.ts'}:46:9 ")


def test_context_line_top_level_selection_and_terminal() -> None:
    selection = Selection(mode="V", start=(2, 1), end=(4, 7), text="a\nb\nc")
    ctx = build_context(snapshot((4, 7), selection=selection), USER_SERVICE)
    assert context_line(ctx, ROOT, terminal_fallback=True) == (
        "editor: src/user_service.ts:4:7 typescript · selection 3 lines · from last code window"
    )
    one = Selection(mode="v", start=(2, 1), end=(2, 4), text="abcd")
    ctx = build_context(snapshot((2, 4), selection=one), USER_SERVICE)
    assert context_line(ctx, ROOT).endswith(" · selection 1 line")


def test_context_line_no_provider() -> None:
    ctx = build_context(snapshot((2, 4), filetype="text", path=ROOT / "notes.txt"), None)
    assert context_line(ctx, ROOT) == f"editor: notes.txt:2:4 text · {NO_SYMBOL_PROVIDER}"


# --- size ---------------------------------------------------------------------------------------------


def test_a_thousand_lines_with_500_symbols() -> None:
    """The size of seed 001 AC9 (its speed is measured in bench/, not here)."""
    lines: list[str] = []
    for c in range(100):
        lines.append(f"class C{c}:")
        for m in range(4):
            lines += [f"    def m{m}(self, x):", f"        return x + {m}"]
        lines.append("")
    text = "\n".join(lines) + "\n"
    symbols = outline_of(text, "python").symbols
    snap = snapshot((503, 9), filetype="python", line_count=len(lines), text=text)
    ctx = build_context(snap, symbols)
    assert ctx["symbols"]["totalInDocument"] == 500
    assert ctx["symbols"]["scopeHierarchy"] == "Class:C50 > Method:m0"
    assert ctx["symbols"]["immediateScope"]["range"] == {"start": 502, "end": 503, "length": 2}
