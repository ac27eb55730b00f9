"""analyze what=references against a real jedi-language-server (named in a trusted
`.simple-brief.toml`): totals and per-file counts first, each site naming the definition it
sits in from the engine's outline (a method, a nested function, module level), paging with
`offset`/`limit` and `next_offset`, a hub symbol with thousands of references, and bad
paging input refused with one sentence.

One workspace and one session (one start of the server) serve the module.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, ToolResult, invoke

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
CONFIG = f"""
[servers.jedi]
command = ["{BIN / "jedi-language-server"}"]
filetypes = ["python"]
"""
SHAPES = """def area(w, h):
    return w * h


class Box:
    def size(self):
        return area(1, 2)

    def nested(self):
        def inner():
            return area(3, 4)

        return inner()


TOTAL = area(5, 6)
"""
USE = "from shapes import area\n\nprint(area(7, 8))\n"
#: The hub: `Base` used by HUB_FILES files of HUB_CLASSES subclasses, each also calling it.
HUB_FILES, HUB_CLASSES = 20, 50


def hub_module(i: int) -> str:
    classes = "".join(
        f"\n\nclass C{i}_{j}(Base):\n    def make(self):\n        return Base()\n" for j in range(HUB_CLASSES)
    )
    return "from hub.base import Base\n" + classes


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Call]:
    root = tmp_path_factory.mktemp("refs-project")
    write_trusted_config(root, CONFIG)
    (root / "shapes.py").write_text(SHAPES)
    (root / "use.py").write_text(USE)
    hub = root / "hub"
    hub.mkdir()
    (hub / "__init__.py").write_text("")
    (hub / "base.py").write_text('class Base:\n    """The hub."""\n')
    for i in range(HUB_FILES):
        (hub / f"m{i:02}.py").write_text(hub_module(i))
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    try:
        yield call
    finally:
        call.session.close()


def refs(call: Call, **args: Any) -> ToolResult:
    return invoke("analyze", {"what": "references", "path": "shapes.py", "line": 1, "col": 5, **args}, call)


def test_each_site_names_its_enclosing_definition(project: Call) -> None:
    result = refs(project)
    assert result.blocks == [
        "6 references to `area` in 2 files (declaration included; from shapes.py:1:5): shapes.py 4, use.py 2",
        "shapes.py (4)\n"
        "  1:5 in area: def area(w, h):\n"
        "  7:16 in Box.size: return area(1, 2)\n"
        "  11:20 in Box.nested.inner: return area(3, 4)\n"
        "  16:9 in <module>: TOTAL = area(5, 6)",
        "use.py (2)\n  1:20 in <module>: from shapes import area\n  3:7 in <module>: print(area(7, 8))",
    ]
    data = result.data
    assert (data["total"], data["files"], data["offset"], data["limit"], data["next_offset"]) == (
        6,
        {"shapes.py": 4, "use.py": 2},
        0,
        50,
        None,
    )
    assert [site["symbol"] for site in data["references"]["shapes.py"]] == [
        "area",
        "Box.size",
        "Box.nested.inner",
        "<module>",
    ]
    assert data["references"]["use.py"][1] == {
        "range": {"start": {"line": 2, "character": 6}, "end": {"line": 2, "character": 10}},
        "symbol": "<module>",
    }


def test_pages_keep_the_totals_and_say_the_next_offset(project: Call) -> None:
    pages = [refs(project, offset=offset, limit=4) for offset in (0, 4)]
    first, last = pages
    assert first.blocks[0].splitlines() == [
        "6 references to `area` in 2 files (declaration included; from shapes.py:1:5): shapes.py 4, use.py 2",
        "showing 1-4; next page: offset=4",
    ]
    assert last.blocks[0].splitlines()[1] == "showing 5-6; the last page"
    assert last.blocks[1:] == [
        "use.py (2)\n  1:20 in <module>: from shapes import area\n  3:7 in <module>: print(area(7, 8))"
    ]
    assert [(p.data["offset"], p.data["next_offset"], p.data["total"]) for p in pages] == [(0, 4, 6), (4, None, 6)]
    # A page that cuts a file says how many of the file's references it shows.
    middle = refs(project, offset=2, limit=3)
    assert middle.blocks[1:] == [
        "shapes.py (2 of 4)\n  11:20 in Box.nested.inner: return area(3, 4)\n  16:9 in <module>: TOTAL = area(5, 6)",
        "use.py (1 of 2)\n  1:20 in <module>: from shapes import area",
    ]
    assert middle.data["next_offset"] == 5


def test_a_hub_symbol_gives_counts_and_the_first_page(project: Call) -> None:
    result = invoke("analyze", {"what": "references", "path": "hub/base.py", "line": 1, "col": 7}, project)
    per_file = 1 + 2 * HUB_CLASSES  # the import, then each class's base and its call
    total = 1 + HUB_FILES * per_file
    head = result.blocks[0].splitlines()
    assert head[0] == (
        f"{total:,} references to `Base` in {HUB_FILES + 1} files (declaration included; from hub/base.py:1:7): "
        + ", ".join(f"hub/m{i:02}.py {per_file}" for i in range(10))
        + f", … {HUB_FILES + 1 - 10} more files"
    )
    assert head[1] == "showing 1-50; next page: offset=50"
    assert result.data["total"] == total and len(result.data["files"]) == HUB_FILES + 1
    assert result.blocks[1] == "hub/base.py (1)\n  1:7 in Base: class Base:"
    lines = result.blocks[2].splitlines()
    assert lines[0] == f"hub/m00.py (49 of {per_file})"
    assert lines[1:4] == [
        "  1:22 in <module>: from hub.base import Base",
        "  4:12 in C0_0: class C0_0(Base):",  # the header belongs to the class
        "  6:16 in C0_0.make: return Base()",
    ]
    # The last page, far into the list, names its callers too.
    last = invoke(
        "analyze", {"what": "references", "path": "hub/base.py", "line": 1, "col": 7, "offset": total - 2}, project
    )
    name = f"C{HUB_FILES - 1}_{HUB_CLASSES - 1}"
    assert last.blocks[1:] == [
        f"hub/m{HUB_FILES - 1:02}.py (2 of {per_file})\n"
        f"  {5 * HUB_CLASSES - 1}:{len(name) + 8} in {name}: class {name}(Base):\n"
        f"  {5 * HUB_CLASSES + 1}:16 in {name}.make: return Base()"
    ]
    assert last.data["next_offset"] is None


def test_only_the_pages_files_are_outlined(project: Call) -> None:
    workspace = Workspace.at(project.workspace.root)
    fresh = Call(workspace=workspace, session=project.session)
    invoke("analyze", {"what": "references", "path": "hub/base.py", "line": 1, "col": 7, "limit": 10}, fresh)
    assert set(workspace._cache) <= {workspace.root / "hub" / "base.py", workspace.root / "hub" / "m00.py"}


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        ({"limit": 0}, "parameter `limit` must be at least 1."),
        ({"offset": -1}, "parameter `offset` must be 0 or more."),
        ({"offset": 6}, "offset 6 is past the end: there are 6 references to `area`; give an offset from 0 to 5."),
    ],
)
def test_bad_paging_is_refused_with_one_sentence(project: Call, args: dict[str, int], sentence: str) -> None:
    with pytest.raises(UserError) as caught:
        refs(project, **args)
    assert str(caught.value) == sentence
