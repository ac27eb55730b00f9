"""`simple_read mode=names`: every top-level definition as `name:line` and its members that
are definitions (not data) in parentheses after it, to any depth, on the standard library's
http/server.py, contextlib.py and ast.py — every class, function and method Python's own
`ast` finds there, nested as it nests them, in far fewer tokens than the outline; fields and
attributes are left to the outline; a depth counts what it leaves out."""

from __future__ import annotations

import ast
import re
import shutil
import sysconfig
from pathlib import Path

from simple_brief.files.workspace import Workspace
from simple_brief.render.budget import approx_tokens
from simple_brief.tools import Call, invoke

SERVER = Path(sysconfig.get_paths()["stdlib"]) / "http" / "server.py"


def test_names_lists_every_definition_of_two_levels_with_its_line(tmp_path: Path) -> None:
    shutil.copy(SERVER, tmp_path / "server.py")
    call = Call(workspace=Workspace.at(tmp_path))
    names = invoke("simple_read", {"path": "server.py", "mode": "names"}, call).text
    lines = names.splitlines()
    assert lines[0].startswith("server.py (python, ") and lines[0].endswith(" names")
    # The oracle: Python's ast, classes and functions at the top and the methods of classes.
    for node in ast.parse(SERVER.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.ClassDef | ast.FunctionDef):
            continue
        row = next(line for line in lines[1:] if line.startswith(f"{node.name}:{node.lineno}"))
        if isinstance(node, ast.ClassDef):
            for kid in node.body:
                if isinstance(kid, ast.FunctionDef):
                    assert re.search(rf"[( ]{kid.name}:{kid.lineno}\b", row), (kid.name, row)
    assert "SimpleHTTPRequestHandler:646(" in names and " translate_path:833" in names
    folded = invoke("simple_read", {"path": "server.py", "mode": "outline"}, call).text
    assert approx_tokens(names) * 2 < approx_tokens(folded)


def test_data_members_are_left_to_the_outline(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(
        "class Point:\n    def __init__(self, x):\n        self.x = x\n\n    def norm(self):\n        return self.x\n",
        encoding="utf-8",
    )
    call = Call(workspace=Workspace.at(tmp_path))
    names = invoke("simple_read", {"path": "shapes.py", "mode": "names"}, call).text
    assert names.splitlines()[1:] == ["Point:1(__init__:2 norm:5)"]
    assert "self.x" in invoke("simple_read", {"path": "shapes.py", "mode": "outline"}, call).text


def test_depth_one_leaves_the_members_out(tmp_path: Path) -> None:
    shutil.copy(SERVER, tmp_path / "server.py")
    call = Call(workspace=Workspace.at(tmp_path))
    top = invoke("simple_read", {"path": "server.py", "mode": "names", "depth": 1}, call).text
    assert "SimpleHTTPRequestHandler:646" in top.splitlines()
    assert "translate_path" not in top
    # What the depth left out is counted (ast: every def and class below the top level).
    nested = sum(1 for parent in _ast_parents(ast.parse(SERVER.read_text(encoding="utf-8"))).values() if parent)
    assert top.splitlines()[-1] == f"+{nested} nested definitions below depth=1 not named: depth=0 names them all"


def _is_def(node: ast.AST) -> bool:
    return isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)


def _ast_parents(tree: ast.Module) -> dict[tuple[str, int], tuple[str, int] | None]:
    """Every class and function at any depth -> the nearest class or function around it."""
    found: dict[tuple[str, int], tuple[str, int] | None] = {}

    def visit(node: ast.AST, parent: tuple[str, int] | None) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_def(child):
                key = (child.name, child.lineno)  # type: ignore[attr-defined]
                found[key] = parent
                visit(child, key)
            else:
                visit(child, parent)

    visit(tree, None)
    return found


_ITEM = re.compile(r"([^\s()]+):(\d+)|[()]")


def _names_parents(text: str) -> dict[tuple[str, int], tuple[str, int] | None]:
    """The names tier read back: each `name:line` -> the `name:line` whose parentheses hold it."""
    found: dict[tuple[str, int], tuple[str, int] | None] = {}
    for line in text.splitlines()[1:]:
        stack: list[tuple[str, int] | None] = [None]
        last: tuple[str, int] | None = None
        for match in _ITEM.finditer(line):
            if match.group(0) == "(":
                stack.append(last)
            elif match.group(0) == ")":
                stack.pop()
            else:
                last = (match.group(1), int(match.group(2)))
                found[last] = stack[-1]
    return found


def test_names_reaches_definitions_nested_three_levels_deep_as_ast_nests_them(tmp_path: Path) -> None:
    """contextlib.py and ast.py hold functions inside methods (a decorator's wrapper, a
    visitor's helper): each is named at its line inside its method's parentheses."""
    call = Call(workspace=Workspace.at(tmp_path))
    deep = 0
    for name in ("contextlib.py", "ast.py"):
        source = SERVER.parent.parent / name
        shutil.copy(source, tmp_path / name)
        expected = _ast_parents(ast.parse(source.read_text(encoding="utf-8")))
        got = _names_parents(invoke("simple_read", {"path": name, "mode": "names"}, call).text)
        missing = {key: parent for key, parent in expected.items() if got.get(key, "absent") != parent}
        assert not missing, (name, missing)
        deep += sum(1 for parent in expected.values() if parent is not None and expected[parent] is not None)
    assert deep >= 10  # definitions three levels deep (or more) were there to find
