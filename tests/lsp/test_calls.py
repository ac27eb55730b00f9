"""analyze what=callers|callees through real language servers named in a trusted `.simple-brief.toml`:
basedpyright (from PyPI, a dev dependency) offers `callHierarchyProvider`, so incoming and
outgoing calls come back as `path:line name (kind)` rows with their call lines, names
qualified by the engine's outline, paged like references; jedi-language-server 0.47 and
pylsp 1.15 do not offer call hierarchy, which the tool says in one sentence.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_lsp_tools import CONFIG as LSP_TOOLS_CONFIG
from test_references_paging import SHAPES, USE

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, ToolResult, invoke

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
BASEDPYRIGHT = f"""
[servers.basedpyright]
command = ["{BIN / "basedpyright-langserver"}", "--stdio"]
filetypes = ["python"]
"""
#: A method called through `self` (basedpyright sends that call site twice).
WRAPPED = """class Decoder:
    def decode(self, s):
        return self.raw_decode(s)

    def raw_decode(self, s):
        return s
"""
#: jedi-language-server and pylsp: neither offers call hierarchy.
WITHOUT = LSP_TOOLS_CONFIG


def workspace(root: Path, config: str) -> Call:
    write_trusted_config(root, config)
    (root / "shapes.py").write_text(SHAPES)
    (root / "use.py").write_text(USE)
    (root / "wrapped.py").write_text(WRAPPED)
    return Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Call]:
    call = workspace(tmp_path_factory.mktemp("calls-project"), BASEDPYRIGHT)
    try:
        yield call
    finally:
        call.session.close()


def calls(call: Call, line: int, col: int, **args: Any) -> ToolResult:
    return invoke("analyze", {"what": "callers", "path": "shapes.py", "line": line, "col": col, **args}, call)


def test_incoming_calls_name_each_caller_with_its_call_lines(project: Call) -> None:
    result = calls(project, 1, 5)
    assert result.blocks == [
        "4 callers of `area` (incoming calls, basedpyright; from shapes.py:1:5)",
        "shapes.py:1 <module>\n  16:9 TOTAL = area(5, 6)",
        "shapes.py:6 Box.size (Function)\n  7:16 return area(1, 2)",
        "shapes.py:10 Box.nested.inner (Function)\n  11:20 return area(3, 4)",
        "use.py:1 <module>\n  3:7 print(area(7, 8))",
    ]
    data = result.data
    assert (data["total"], data["offset"], data["next_offset"], data["item"]["name"]) == (4, 0, None, "area")
    assert data["calls"][1]["calls"] == [
        {"path": "shapes.py", "range": {"start": {"line": 6, "character": 15}, "end": {"line": 6, "character": 19}}}
    ]


def test_a_call_site_is_listed_once(project: Call) -> None:
    result = invoke("analyze", {"what": "callers", "path": "wrapped.py", "line": 5, "col": 9}, project)
    assert result.blocks == [
        "1 caller of `raw_decode` (incoming calls, basedpyright; from wrapped.py:5:9)",
        "wrapped.py:2 Decoder.decode (Function)\n  3:21 return self.raw_decode(s)",
    ]
    assert len(result.data["calls"][0]["calls"]) == 1


def test_outgoing_calls_list_the_callees(project: Call) -> None:
    result = calls(project, 6, 9, what="callees")
    assert result.blocks == [
        "1 callee of `size` (outgoing calls, basedpyright; from shapes.py:6:9)\ncall lines in shapes.py",
        "shapes.py:1 area (Function)\n  7:16 return area(1, 2)",
    ]


def test_calls_page_like_references(project: Call) -> None:
    first = calls(project, 1, 5, limit=3)
    assert first.blocks[0].splitlines()[1] == "showing 1-3; next page: offset=3"
    assert first.data["next_offset"] == 3 and len(first.blocks) == 4
    last = calls(project, 1, 5, offset=3, limit=3)
    assert last.blocks[1:] == ["use.py:1 <module>\n  3:7 print(area(7, 8))"]
    assert last.data["next_offset"] is None
    with pytest.raises(UserError) as caught:
        calls(project, 1, 5, offset=4)
    assert str(caught.value) == "offset 4 is past the end: there are 4 callers of `area`; give an offset from 0 to 3."
    with pytest.raises(UserError, match=r"^parameter `limit` must be at least 1\.$"):
        calls(project, 1, 5, limit=0)


def test_a_position_on_no_function_says_so(project: Call) -> None:
    result = calls(project, 16, 2)
    assert result.blocks == [
        "No function or method at shapes.py:16:2 (`TOTAL`); point at a function's name or a call of it."
    ]


def test_servers_without_call_hierarchy_are_named_in_one_sentence(tmp_path: Path) -> None:
    call = workspace(tmp_path, WITHOUT)
    try:
        with pytest.raises(UserError) as caught:
            calls(call, 1, 5)
    finally:
        call.session.close()
    assert str(caught.value) == (
        "jedi, pylsp (serving shapes.py) do not offer call hierarchy; use analyze what=references for the uses, "
        "or name a server that does (basedpyright) in .simple-brief.toml."
    )
