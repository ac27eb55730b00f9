"""Every position an agent is shown for a definition is its name's (LSP's selectionRange),
not the start of the doc comment or decorators above it (issue 26, section 5): `search` and
`workspace_symbols` (`@line:col` and their JSON), the symbols view, the names tier,
`expand_at`'s list of candidates, the symbol table's SELECTION. The range used for folding
and `expand_at` keeps the doc comment, and the table says so.

Checked on real files nobody here wrote, against oracles that share no code with the
scanner: TypeScript's own parser (`typescript.d.ts`, JSDoc above nearly every
declaration; both from npm `typescript`, installed by `make test`) and Python's `ast`
(the standard library's decorated definitions). Rust, Go and C doc comments are checked
on the outline fixtures against the grammar's own name nodes, and on the real corpus
(`make conformance`) against universal-ctags when both are installed.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.render.table import RANGE_NOTE
from simple_brief.tools import Call, invoke

from conftest import FIXTURES

ROOT = Path(__file__).resolve().parents[2]
TYPESCRIPT = ROOT / "node_modules" / "typescript"
TS_DTS = TYPESCRIPT / "lib" / "typescript.d.ts"
#: Where TypeScript's parser puts the names of the JSDoc-documented functions, interfaces
#: and classes of a file: [name, 1-based line, 1-based column, 1-based line of the JSDoc].
TS_ORACLE = """
const ts = require(process.argv[1]);
const fs = require('fs');
const file = process.argv[2];
const sf = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const out = [];
function visit(node) {
  if ((ts.isFunctionDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node))
      && node.name && node.jsDoc && node.jsDoc.length) {
    const name = sf.getLineAndCharacterOfPosition(node.name.getStart(sf));
    const doc = sf.getLineAndCharacterOfPosition(node.jsDoc[0].getStart(sf));
    out.push([node.name.text, name.line + 1, name.character + 1, doc.line + 1]);
  }
  ts.forEachChild(node, visit);
}
visit(sf);
process.stdout.write(JSON.stringify(out));
"""


def _typescript_names() -> list[tuple[str, int, int, int]]:
    if not TS_DTS.is_file() or shutil.which("node") is None:
        pytest.fail("node_modules/typescript and node are installed by `make test`; run it first")
    out = subprocess.run(
        ["node", "-e", TS_ORACLE, str(TYPESCRIPT), str(TS_DTS)], capture_output=True, text=True, check=True
    ).stdout
    return [(str(n), int(line), int(col), int(doc)) for n, line, col, doc in json.loads(out)]


@pytest.fixture(scope="module")
def ts_workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Call, list[tuple[str, int, int, int]]]:
    root = tmp_path_factory.mktemp("ts-real")
    shutil.copyfile(TS_DTS, root / "typescript.d.ts")
    return Call(Workspace.at(root)), _typescript_names()


def _shown(text: str, kind: str, name: str) -> set[tuple[int, int]]:
    """The `@line:col` positions `text` gives for `Kind - name` (`[Parent, Kind]` may follow)."""
    return {
        (int(m[1]), int(m[2]))
        for m in re.finditer(rf"^\s*@(\d+):(\d+) {kind} - {re.escape(name)}(?: \[.*\])?$", text, flags=re.MULTILINE)
    }


def test_search_gives_the_jsdoc_declarations_name_position(
    ts_workspace: tuple[Call, list[tuple[str, int, int, int]]],
) -> None:
    call, names = ts_workspace
    counts: dict[str, int] = {}
    for name, *_ in names:
        counts[name] = counts.get(name, 0) + 1
    # Declarations whose JSDoc starts on another line than the name, one name each.
    chosen = [item for item in names if counts[item[0]] == 1 and item[3] < item[1]]
    assert len(chosen) > 100, "the oracle found too few documented declarations"
    for name, line, col, doc_line in chosen[:: len(chosen) // 12][:12]:
        result = invoke("search", {"query": name, "limit": 200}, call)
        at = {(m["line"], m["character"]) for m in result.data["matches"] if m["name"] == name}
        assert (line, col) in at and doc_line not in {row for row, _ in at}, (name, doc_line, at)
        assert any((line, col) in _shown(result.text, kind, name) for kind in ("Function", "Interface", "Class")), (
            name,
            result.text[:600],
        )


def test_workspace_symbols_give_the_name_position(ts_workspace: tuple[Call, list[tuple[str, int, int, int]]]) -> None:
    call, names = ts_workspace
    functions = {(n, line, col) for n, line, col, doc in names if doc < line}
    result = invoke("workspace_symbols", {"query": "", "kind": "function", "limit": 5000}, call)
    shown = {(m["name"], m["line"], m["character"]) for m in result.data["matches"]}
    documented_functions = {item for item in functions if any(item[0] == m["name"] for m in result.data["matches"])}
    assert len(documented_functions) > 50
    assert documented_functions <= shown


def test_an_ambiguous_name_lists_each_candidate_at_its_name_line(
    ts_workspace: tuple[Call, list[tuple[str, int, int, int]]],
) -> None:
    call, names = ts_workspace
    lines: dict[str, list[tuple[int, int]]] = {}
    for name, line, _, doc in names:
        lines.setdefault(name, []).append((line, doc))
    # Overloads, each with its own JSDoc: `getParseTreeNode`, `visitNode`, ...
    overloads = {n: ls for n, ls in lines.items() if len(ls) >= 2 and all(doc < line for line, doc in ls)}
    assert overloads
    name, found = sorted(overloads.items())[0]
    with pytest.raises(UserError) as err:
        invoke("expand_at", {"path": "typescript.d.ts", "selector": name}, call)
    listed = [int(n) for n in re.findall(r"\(line:(\d+)\)", str(err.value))]
    assert set(listed) >= {line for line, _ in found}, str(err.value)
    assert not {doc for _, doc in found} & set(listed), str(err.value)


#: Decorated: name, 1-based line and column of the name, and of the first decorator.
Decorated = tuple[str, int, int, int, int]


def _decorated(tree: ast.Module) -> list[Decorated]:
    """Every decorated function and class of a module."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.decorator_list:
            keyword = {ast.FunctionDef: "def ", ast.AsyncFunctionDef: "async def ", ast.ClassDef: "class "}[type(node)]
            first = node.decorator_list[0]
            # `first` is the expression after `@`: the decorator's line starts one column before.
            out.append((node.name, node.lineno, node.col_offset + len(keyword) + 1, first.lineno, first.col_offset))
    return out


@pytest.fixture(scope="module")
def py_workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Call, str, list[Decorated]]:
    """The standard library's `enum.py` (`@property`, `@classmethod`, `@_simple_enum`,
    `@bltns.property` …) in a workspace of its own."""
    source = Path(sysconfig.get_paths()["stdlib"]) / "enum.py"
    root = tmp_path_factory.mktemp("py-real")
    shutil.copyfile(source, root / "enum.py")
    text = source.read_text(encoding="utf-8")
    decorated = _decorated(ast.parse(text))
    assert len(decorated) >= 10
    return Call(Workspace.at(root)), text, decorated


def test_python_positions_are_after_the_decorators(py_workspace: tuple[Call, str, list[Decorated]]) -> None:
    call, text, decorated = py_workspace
    rows = text.splitlines()
    for name, line, col, deco_line, _ in decorated:
        assert rows[line - 1][col - 1 :].startswith(name)  # the oracle's own sanity
        assert deco_line < line and rows[deco_line - 1].lstrip().startswith("@")
        found = invoke("search", {"query": name, "limit": 200}, call).data["matches"]
        at = {(m["line"], m["character"]) for m in found if m["name"] == name}
        assert (line, col) in at, (name, at)


def test_symbols_view_names_tier_and_table_give_the_name(py_workspace: tuple[Call, str, list[Decorated]]) -> None:
    """Each view shows only some definitions (the symbols view no locals, the names tier
    top-level definitions and their members): each decorated one it shows is at its name."""
    call, _, decorated = py_workspace
    view = invoke("simple_read", {"path": "enum.py", "mode": "symbols"}, call).text
    names = invoke("simple_read", {"path": "enum.py", "mode": "names"}, call).text
    symbols = invoke("document_symbols", {"path": "enum.py", "include_hover": False}, call).text
    assert symbols.splitlines()[0] == f"enum.py symbols (positions 1-based line:col; {RANGE_NOTE})"
    selections = {
        (cells[0], cells[3].split("-")[0]) for cells in (row.split(" | ") for row in symbols.splitlines()[2:])
    }
    shown_names = set(re.findall(r"(\w+):(\d+)", names))
    kinds = ("Function", "Method", "Class", "Constructor", "Property", "Field")
    in_view = in_names = 0
    for name, line, col, deco_line, deco_col in decorated:
        at = {pos for kind in kinds for pos in _shown(view, kind, name)}
        if {(line, col), (deco_line, deco_col)} & at:
            in_view += 1
            assert (line, col) in at and (deco_line, deco_col) not in at, (name, at)
        if {(name, str(line)), (name, str(deco_line))} & shown_names:
            in_names += 1
            assert (name, str(line)) in shown_names and (name, str(deco_line)) not in shown_names, name
        assert (name, f"{line}:{col}") in selections, name
    assert in_view >= 10 and in_names >= 5


def _name_nodes(path: Path, filetype: str, types: dict[str, str]) -> list[tuple[str, int, int]]:
    """The grammar's own name of each definition node of `types` (node type -> name field)
    with a comment right above: name, 1-based line and column (ASCII fixtures)."""
    from tree_sitter import Parser

    from simple_brief import languages

    spec = languages.by_name(filetype)
    assert spec is not None
    tree = Parser(languages.grammar(spec)).parse(path.read_bytes())
    out = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        field = types.get(node.type)
        prev = node.prev_sibling
        if field is None or prev is None or "comment" not in prev.type:
            continue
        name = node.child_by_field_name(field)
        while name is not None and name.child_by_field_name("declarator") is not None:  # C: `*f(...)` → `f`
            name = name.child_by_field_name("declarator")
        if name is not None and name.text:
            out.append((name.text.decode(), name.start_point[0] + 1, name.start_point[1] + 1))
    return out


@pytest.mark.parametrize(
    ("fixture", "filetype", "types"),
    [
        ("rust.rs", "rust", {"function_item": "name", "struct_item": "name", "enum_item": "name"}),
        ("go.go", "go", {"function_declaration": "name", "method_declaration": "name"}),
        ("c.c", "c", {"function_definition": "declarator"}),
    ],
)
def test_doc_commented_definitions_are_found_at_their_names(
    tmp_path: Path, fixture: str, filetype: str, types: dict[str, str]
) -> None:
    source = FIXTURES / "outline" / fixture
    shutil.copyfile(source, tmp_path / fixture)
    oracle = _name_nodes(source, filetype, types)
    assert oracle, f"no doc-commented definition in {fixture}"
    call = Call(Workspace.at(tmp_path))
    for name, line, col in oracle:
        found = invoke("search", {"query": name, "limit": 200}, call).data["matches"]
        assert (line, col) in {(m["line"], m["character"]) for m in found if m["name"] == name}, (fixture, name)


#: Real doc-commented code of the conformance corpus (`make conformance`), with ctags' line.
_CORPUS = [
    ("/usr/src/rustc-*/library/core/src/option.rs", "rust"),
    ("/usr/share/go-*/src/net/http/client.go", "go"),
    ("/usr/include/lzma/container.h", "c"),
]


@pytest.mark.parametrize(("pattern", "filetype"), _CORPUS)
def test_real_corpus_names_match_ctags(tmp_path: Path, pattern: str, filetype: str) -> None:
    found = sorted(Path("/").glob(pattern.lstrip("/")))
    if not found or shutil.which("ctags") is None:
        pytest.skip(f"{pattern} or universal-ctags is absent (installed by `make conformance` / `make bench`)")
    source = found[-1]
    shutil.copyfile(source, tmp_path / source.name)
    tags = subprocess.run(
        ["ctags", "--fields=+n", "-o", "-", "--output-format=json", str(source)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines: dict[str, set[int]] = {}
    for row in tags.splitlines():
        tag: dict[str, Any] = json.loads(row)
        if tag.get("_type") == "tag" and "line" in tag:
            lines.setdefault(tag["name"], set()).add(int(tag["line"]))
    call = Call(Workspace.at(tmp_path))
    kinds = "function,method,struct,enum,interface,field,constant"
    result = invoke("workspace_symbols", {"query": "", "kind": kinds, "limit": 5000}, call)
    matches = [m for m in result.data["matches"] if m["name"] in lines]
    assert len(matches) > 20
    on_tag_line = [m for m in matches if m["line"] in lines[m["name"]]]
    # ctags names one line per name (one branch of an #if, one overload): nearly all agree.
    assert len(on_tag_line) >= 0.95 * len(matches), [m for m in matches if m not in on_tag_line][:10]
