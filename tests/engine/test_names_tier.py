"""`simple_read mode=names`: every top-level definition as `name:line` and its members that
are definitions (not data) the same way, on the standard library's http/server.py — every
class, function and method Python's own `ast` finds there, in far fewer tokens than the
outline; fields and attributes are left to the outline."""

from __future__ import annotations

import ast
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
                    assert f" {kid.name}:{kid.lineno}" in row, (kid.name, row)
    assert "SimpleHTTPRequestHandler:646: " in names and " translate_path:833" in names
    folded = invoke("simple_read", {"path": "server.py", "mode": "outline"}, call).text
    assert approx_tokens(names) * 2 < approx_tokens(folded)


def test_data_members_are_left_to_the_outline(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(
        "class Point:\n    def __init__(self, x):\n        self.x = x\n\n    def norm(self):\n        return self.x\n",
        encoding="utf-8",
    )
    call = Call(workspace=Workspace.at(tmp_path))
    names = invoke("simple_read", {"path": "shapes.py", "mode": "names"}, call).text
    assert names.splitlines()[1:] == ["Point:1: __init__:2 norm:5"]
    assert "self.x" in invoke("simple_read", {"path": "shapes.py", "mode": "outline"}, call).text


def test_depth_one_leaves_the_members_out(tmp_path: Path) -> None:
    shutil.copy(SERVER, tmp_path / "server.py")
    call = Call(workspace=Workspace.at(tmp_path))
    top = invoke("simple_read", {"path": "server.py", "mode": "names", "depth": 1}, call).text
    assert "SimpleHTTPRequestHandler:646" in top.splitlines()
    assert "translate_path" not in top
