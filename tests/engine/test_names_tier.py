"""`simple_read mode=names`: every top-level definition with its span and its members with
their first line, on the standard library's http/server.py — every name the outline has at
those two levels, in far fewer tokens than the outline."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

from simple_brief.render.budget import approx_tokens
from simple_brief.tools import Call, invoke
from simple_brief.workspace import Workspace

SERVER = Path(sysconfig.get_paths()["stdlib"]) / "http" / "server.py"


def test_names_lists_every_definition_of_two_levels_with_its_line(tmp_path: Path) -> None:
    shutil.copy(SERVER, tmp_path / "server.py")
    call = Call(workspace=Workspace.at(tmp_path))
    names = invoke("simple_read", {"path": "server.py", "mode": "names"}, call).text
    _, outline = call.workspace.outline("server.py")
    lines = names.splitlines()
    assert lines[0].startswith("server.py (python, ") and lines[0].endswith(" names")
    for sym in outline.symbols:
        row = next(line for line in lines[1:] if line.startswith(f"{sym.name} {sym.range.line_span()}"))
        for kid in sym.children:
            assert f"{kid.name} L{kid.range.start.line + 1}" in row
    assert "SimpleHTTPRequestHandler L" in names and "translate_path L833" in names
    folded = invoke("simple_read", {"path": "server.py", "mode": "outline"}, call).text
    assert approx_tokens(names) * 2 < approx_tokens(folded)  # (530 vs 1,447 here)


def test_depth_one_leaves_the_members_out(tmp_path: Path) -> None:
    shutil.copy(SERVER, tmp_path / "server.py")
    call = Call(workspace=Workspace.at(tmp_path))
    top = invoke("simple_read", {"path": "server.py", "mode": "names", "depth": 1}, call).text
    assert "SimpleHTTPRequestHandler L646-902" in top.splitlines()
    assert "translate_path" not in top
