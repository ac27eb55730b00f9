"""The lsp toolset through the registry in disk mode, against real language servers named in
the workspace's `.simple-brief.toml` (jedi-language-server first, pylsp with ruff for
formatting and lint), and one MCP-level check through the SDK's in-memory Client.

One workspace and one session (so one start of each server) serve the module; tests that
apply edits use files of their own and remove their overlays.
"""

from __future__ import annotations

import dataclasses
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief import tools
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.intel.text_edits import apply_text_edits, minimal_edits
from simple_brief.lsp.pool import ServerPool
from simple_brief.model import Position, Range, TextEdit
from simple_brief.servers.mcp import build_server
from simple_brief.tools import Call, Session, ToolResult, invoke

from conftest import write_trusted_config
from nvim_session import nvim

BIN = Path(sys.executable).parent
CONFIG = f"""
[servers.jedi]
command = ["{BIN / "jedi-language-server"}"]
filetypes = ["python"]

[servers.pylsp]
command = ["{BIN / "pylsp"}"]
filetypes = ["python"]
"""
APP = '''import os
from helpers import greet


def compute_total(items: list[int]) -> int:
    """Add the items."""
    return sum(items)


class Cart:
    def total(self) -> int:
        # compute_total is used here
        return compute_total([1, 2])


print(greet("compute_total"), compute_total([3]))
'''
HELPERS = '''def greet(name: str) -> str:
    """Say hello."""
    return "hi " + name
'''
USE = "from app import Cart\n\nCart().to\n"
MESSY = "def tidy(a,b):\n    return a+b\nx=1\n"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Call]:
    root = tmp_path_factory.mktemp("lsp-project")
    write_trusted_config(root, CONFIG)
    for name, text in {"app.py": APP, "helpers.py": HELPERS, "use.py": USE, "messy.py": MESSY}.items():
        (root / name).write_text(text)
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    try:
        yield call
    finally:
        call.session.close()


def run(call: Call, name: str, **args: Any) -> ToolResult:
    return invoke(name, args, call)


def test_hover_shows_the_signature_and_doc(project: Call) -> None:
    result = run(project, "analyze", what="hover", path="app.py", line=13, col=16)
    first = result.blocks[0].splitlines()
    assert first[0] == "app.py:13:16 `compute_total` (jedi)"
    assert first[1] == "def compute_total(items: list[int]) -> int"
    assert "Add the items." in first
    assert {h["server"] for h in result.data["hovers"]} == {"jedi", "pylsp"}
    # pylsp's hover words the same signature and doc a little differently: shown once.
    assert result.blocks[1:] == ["[pylsp: the same hover; each server's text is in the data]"]
    assert result.data["position"] == {"line": 12, "character": 15}


def test_definition_gives_the_location_and_its_line(project: Call) -> None:
    result = run(project, "analyze", what="definition", path="app.py", line=16, col=8)
    assert result.text.splitlines() == [
        "1 definition of `greet` (from app.py:16:8)",
        "helpers.py:1:5 def greet(name: str) -> str:  [expand_at helpers.py line:1]",
    ]
    assert result.data["definitions"] == [
        {"path": "helpers.py", "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 9}}}
    ]


def test_references_are_grouped_by_file_with_each_line(project: Call) -> None:
    result = run(project, "analyze", what="references", path="helpers.py", line=1, col=6, include_declaration=True)
    assert result.blocks[0].startswith("3 references to `greet` in 2 files (declaration included")
    assert result.blocks[1:] == [
        "app.py (2)\n"
        "  2:21 in <module>: from helpers import greet\n"
        '  16:7 in <module>: print(greet("compute_total"), compute_total([3]))',
        "helpers.py (1)\n  1:5 in greet: def greet(name: str) -> str:",
    ]
    without = run(project, "analyze", what="references", path="helpers.py", line=1, col=6, include_declaration=False)
    assert "helpers.py (1)" not in without.text and without.blocks[0].startswith("2 references")


def test_completion_lists_the_members(project: Call) -> None:
    result = run(project, "analyze", what="completion", path="use.py", line=3, col=10, limit=5)
    lines = result.text.splitlines()
    assert lines[0].startswith("1 completion at use.py:3:10 (after `to`)")
    assert lines[1] == "  total Function"
    assert result.data["items"][0]["label"] == "total"


def test_rename_preview_has_exactly_the_right_edits(project: Call) -> None:
    result = run(project, "refactor", action="rename", path="app.py", line=5, col=6, new_name="add_up")
    assert result.blocks[0] == (
        "rename `compute_total` -> `add_up` (jedi): 3 edits in 1 file (preview: nothing changed; apply=true applies it)"
    )
    assert result.blocks[1].splitlines() == [
        "app.py (3 edits)",
        "  5:5 - def compute_total(items: list[int]) -> int:",
        "      + def add_up(items: list[int]) -> int:",
        "  13:16 -         return compute_total([1, 2])",
        "        +         return add_up([1, 2])",
        '  16:31 - print(greet("compute_total"), compute_total([3]))',
        '        + print(greet("compute_total"), add_up([3]))',
    ]

    def edit(line: int, start: int, end: int) -> dict[str, Any]:
        rng = {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}
        return {"range": rng, "newText": "add_up"}

    # The string "compute_total" (line 16) and the comment (line 12) are not touched.
    assert result.data["edits"] == {"app.py": [edit(4, 4, 17), edit(12, 15, 28), edit(15, 30, 43)]}
    assert project.workspace.overlays.get(project.workspace.root / "app.py") is None


def test_rename_apply_changes_the_overlay_not_the_disk(project: Call) -> None:
    ws = project.workspace
    (ws.root / "shop.py").write_text("def price(n):\n    return n * 2\n\n\ntotal = price(3)\n")
    try:
        result = run(project, "refactor", action="rename", path="shop.py", line=1, col=5, new_name="cost", apply=True)
        assert "applied to the in-memory overlays of shop.py; the files on disk are unchanged" in result.text
        assert ws.overlays.get(ws.root / "shop.py") == "def cost(n):\n    return n * 2\n\n\ntotal = cost(3)\n"
        assert (ws.root / "shop.py").read_text().startswith("def price(n):")
        # The servers see the overlay: the renamed function is found where it now is.
        defn = run(project, "analyze", what="definition", path="shop.py", line=5, col=9)
        assert "shop.py:1:5 def cost(n):" in defn.text
        with pytest.raises(UserError, match="write=true needs apply=true"):
            run(project, "refactor", action="rename", path="shop.py", line=1, col=5, new_name="x", write=True)
    finally:
        ws.remove_overlay("shop.py")


def test_rename_write_saves_to_disk(project: Call) -> None:
    ws = project.workspace
    (ws.root / "saved.py").write_text("def old_name():\n    pass\n\n\nold_name()\n")
    result = run(
        project,
        "refactor",
        action="rename",
        path="saved.py",
        line=1,
        col=5,
        new_name="new_name",
        apply=True,
        write=True,
    )
    assert "applied and written to disk: saved.py." in result.text
    assert (ws.root / "saved.py").read_text() == "def new_name():\n    pass\n\n\nnew_name()\n"
    assert ws.overlays.get(ws.root / "saved.py") is None


def test_format_previews_a_diff_and_applying_twice_changes_nothing(project: Call) -> None:
    ws = project.workspace
    try:
        preview = run(project, "refactor", action="format", path="messy.py")
        assert preview.blocks == [
            "messy.py: 1 change by pylsp (preview: nothing changed; apply=true applies it)",
            "@@ -1,3 +1,5 @@\n-def tidy(a,b):\n-    return a+b\n-x=1\n"
            "+def tidy(a, b):\n+    return a + b\n+\n+\n+x = 1",
        ]
        applied = run(project, "refactor", action="format", path="messy.py", apply=True)
        assert "applied to the in-memory overlays of messy.py" in applied.text
        formatted = ws.overlays.get(ws.root / "messy.py")
        assert formatted == "def tidy(a, b):\n    return a + b\n\n\nx = 1\n"
        again = run(project, "refactor", action="format", path="messy.py", apply=True)
        assert again.text == "messy.py is already formatted (pylsp); nothing to change."
        assert ws.overlays.get(ws.root / "messy.py") == formatted
        assert (ws.root / "messy.py").read_text() == MESSY
    finally:
        ws.remove_overlay("messy.py")


def test_an_unsaved_overlay_function_is_hovered(project: Call) -> None:
    ws = project.workspace
    ws.set_overlay("draft.py", "def brand_new(a: int) -> str:\n    '''Fresh.'''\n    return str(a)\n\n\nbrand_new(1)\n")
    try:
        result = run(project, "analyze", what="hover", path="draft.py", line=6, col=2)
        assert result.blocks[0].splitlines()[:2] == ["draft.py:6:2 `brand_new` (jedi)", "def brand_new(a: int) -> str"]
        assert not (ws.root / "draft.py").exists()
    finally:
        ws.remove_overlay("draft.py")


def test_parse_summarises_functions_types_imports_and_syntax_errors(project: Call) -> None:
    ok = run(project, "diagnostics", path="app.py", only="parse")
    assert ok.text.splitlines() == [
        "app.py (python, 16 lines): no syntax errors (python-compile)",
        "functions (2)",
        "  5:5 compute_total  def compute_total(items: list[int]) -> int",
        "  11:9 Cart.total  def total(self) -> int",
        "types (1)",
        "  10:7 Cart  class Cart",
        "imports (2)",
        "  1:1 import os",
        "  2:1 from helpers import greet",
    ]
    assert ok.data["success"] is True
    assert [f["name"] for f in ok.data["ast_summary"]["functions"]] == ["compute_total", "Cart.total"]
    (project.workspace.root / "broken.py").write_text("def f(:\n    pass\n")
    bad = run(project, "diagnostics", path="broken.py", only="parse")
    assert bad.data["success"] is False and bad.data["judged_by"] == "python-compile"
    assert bad.text.splitlines()[:3] == [
        "broken.py (python, 2 lines): 1 syntax error (python-compile); "
        "the grammar could not read 1 region (H003 hints)",
        "  1:7 E python invalid syntax",
        "  1:7 H H003 the grammar could not read line 1 (it expected `)`)",
    ]


def test_only_checks_one_file_and_parse_takes_no_fixits(project: Call) -> None:
    with pytest.raises(UserError, match=r"^diagnostics path=FILE only=types checks one file; no path was given\.$"):
        run(project, "diagnostics", only="types")
    (project.workspace.root / "pkg").mkdir(exist_ok=True)
    with pytest.raises(UserError, match=r"checks one file; pkg is a folder\.$"):
        run(project, "diagnostics", path="pkg", only="lint")
    with pytest.raises(UserError, match=r"^fixits= does not apply to only=parse"):
        run(project, "diagnostics", path="app.py", only="parse", fixits=True)


def test_lint_and_typecheck_keep_source_and_code_with_fixits(project: Call) -> None:
    lint = run(project, "diagnostics", path="app.py", only="lint")
    assert lint.blocks[0] == "lint app.py: 1 finding"
    assert lint.blocks[1].splitlines()[1].startswith("  1:1 W ruff I001 Import block is un-sorted or un-formatted")
    check = run(project, "diagnostics", path="app.py", only="types")
    assert check.blocks[0] == "typecheck app.py: failed (1 error), 1 finding"
    line = check.blocks[1].splitlines()[1]
    # pylsp-ruff reports F401 as an error, so it counts as typecheck (errors always do).
    assert line.startswith(
        "  1:8 E ruff F401 `os` imported but unused  fix: Ruff (F401): Remove unused import: `os` (0.8)"
    )
    assert check.data["success"] is False
    fixits = check.data["diagnostics"][0]["fixits"]
    assert fixits[0]["kind"] == "quickfix" and fixits[0]["confidence"] == 0.8
    assert fixits[0]["edits"] == [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "newText": ""}
    ]
    assert any(f["confidence"] == 0.3 and "Disable" in f["title"] for f in fixits)


def test_a_small_budget_cuts_and_says_how_to_get_the_rest(project: Call) -> None:
    small = dataclasses.replace(project, budget=100)
    result = run(small, "analyze", what="references", path="helpers.py", line=1, col=6, include_declaration=True)
    shown = sum(len(sites) for sites in result.data["references"].values())
    first = result.text.split("\n", 1)[0]
    assert first == (
        f"[{3 - shown} more reference{'s' if shown == 1 else ''} of this page left out to stay within the 100-token "
        f"budget; the next ones: analyze what=references path=helpers.py line=1 col=6 offset={shown} limit={shown}.]"
    ), result.text
    # At a budget this small the note is most of it: the first line says the page was cut all the same
    # (tests/lsp/test_budget_lsp_tools.py holds the budget on real files).
    assert result.data["truncated"] == 3 - shown and result.data["next_offset"] == shown
    rest = run(small, "analyze", what="references", path="helpers.py", line=1, col=6, offset=shown, limit=shown)
    assert rest.data["offset"] == shown and rest.data["references"]


def test_a_whole_file_replacement_becomes_the_occurrence_edits() -> None:
    # pylsp answers a rename with one edit replacing the whole file: the preview and the
    # applied edits are still one per occurrence, strings and comments untouched.
    new = APP.replace("def compute_total", "def add_up").replace("compute_total([", "add_up([")
    whole = TextEdit(Range(Position(0, 0), Position(16, 0)), new)
    assert apply_text_edits(APP, [whole]) == new
    edits = minimal_edits(APP, new)
    assert [(e.range.start.line, e.range.start.character, e.range.end.character, e.new_text) for e in edits] == [
        (4, 4, 17, "add_up"),
        (12, 15, 28, "add_up"),
        (15, 30, 43, "add_up"),
    ]
    assert apply_text_edits(APP, edits) == new


def test_edits_apply_by_characters_and_keep_crlf() -> None:
    text = "héllo 😀 x\r\nsecond\r\n"
    edits = [
        TextEdit(Range(Position(0, 8), Position(0, 9)), "y"),
        TextEdit(Range(Position(1, 0), Position(1, 6)), "2nd"),
        TextEdit(Range(Position(0, 99), Position(0, 99)), "!"),  # past the end: the line's end
    ]
    assert apply_text_edits(text, edits) == "héllo 😀 y!\r\n2nd\r\n"
    assert minimal_edits(text, apply_text_edits(text, edits))[0].range.start == Position(0, 8)


def test_positions_outside_the_file_are_refused(project: Call) -> None:
    with pytest.raises(UserError, match=r"line 99 is outside app\.py, which has 16 lines"):
        run(project, "analyze", what="hover", path="app.py", line=99, col=1)
    with pytest.raises(UserError, match=r"column 50 is outside line 1 of app\.py"):
        run(project, "analyze", what="hover", path="app.py", line=1, col=50)


def test_without_a_server_the_sentence_says_how_to_get_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "x.py").write_text("x = 1\n")
    monkeypatch.setenv("PATH", str(tmp_path / "no-servers"))  # none installed (tests/lsp/test_discovery.py)
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        with pytest.raises(UserError) as err:
            run(call, "analyze", what="hover", path="x.py", line=1, col=1)
        assert str(err.value) == (
            "no language server answers textDocument/hover for x.py; none of basedpyright, pyright, "
            "jedi-language-server, pylsp was found on PATH or in the workspace's .venv/bin or venv/bin; install one, "
            "attach one in Neovim or name one in .simple-brief.toml ([servers.NAME] command = [...])."
        )
        lint = run(call, "diagnostics", path="x.py", only="lint")
        assert "[no language server checks x.py: no checker judged its syntax; " in lint.text
        types = run(call, "diagnostics", path="x.py", only="types")
        assert "[no language server checks x.py: only python-compile judged its syntax; " in types.text
    finally:
        call.session.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_mcp_lists_the_lsp_tools_and_answers_a_hover(tmp_path: Path) -> None:
    write_trusted_config(tmp_path, CONFIG)
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "helpers.py").write_text(HELPERS)
    state = Served.over(Workspace.at(tmp_path))
    lsp_tools = {"analyze", "refactor", "diagnostics"}
    try:
        async with Client(build_server(state), raise_exceptions=True) as client:
            with anyio.fail_after(60):
                tools = {t.name: t for t in (await client.list_tools()).tools}
                result = await client.call_tool("analyze", {"what": "hover", "path": "app.py", "line": 13, "col": 16})
    finally:
        state.session.close()
    assert lsp_tools <= set(tools)
    for name in lsp_tools:
        tool = tools[name]
        assert "USE FOR" in (tool.description or "") and "DON'T USE FOR" in (tool.description or ""), name
        for param, prop in tool.input_schema.get("properties", {}).items():
            assert prop.get("description"), f"{name}.{param} has no description"
        writes = name == "refactor"
        assert tool.annotations is not None and tool.annotations.read_only_hint is (not writes), name
    assert tools["analyze"].input_schema["required"] == ["what", "path", "line", "col"]
    assert not result.is_error
    text = "\n".join(block.text for block in result.content)  # type: ignore[union-attr]
    assert "app.py:13:16 `compute_total` (jedi)\ndef compute_total(items: list[int]) -> int" in text


# --- Neovim mode: the LSP clients attached in a live headless Neovim answer -----------------

UNSAVED = [
    "def greet_person(name):",
    '    """Say hello (unsaved)."""',
    '    return "greet_person " + name  # greet_person in a comment',
    "",
    "",
    'result = greet_person("ada")',
]


def test_neovim_clients_answer_on_the_unsaved_buffer_and_rename_edits_it(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    path = root / "app.py"
    path.write_text('"""Saved module."""\n')
    sockets = Path(tempfile.mkdtemp(prefix="sb-lsptools-"))
    address = str(sockets / "nvim.sock")
    try:
        with nvim(tmp_path / "nvim", "--listen", address, str(path)) as nv:
            nv.current.buffer[:] = UNSAVED
            attached = nv.exec_lua(
                """
                local cmd, root = ...
                local buf = vim.api.nvim_get_current_buf()
                local id = vim.lsp.start({ name = 'jedi', cmd = cmd, root_dir = root }, { bufnr = buf })
                return vim.wait(20000, function()
                  local c = vim.lsp.get_client_by_id(id)
                  return c ~= nil and c.initialized and vim.lsp.buf_is_attached(buf, id)
                end, 20)
                """,
                [str(BIN / "jedi-language-server")],
                str(root),
            )
            assert attached
            backend = NvimBackend.connect(address, lsp_timeout_ms=30_000, retry_interval=0)
            state = Served.over(Workspace.at(root), editor=backend)
            try:

                def ask(name: str, **args: Any) -> str:
                    reply = state.call(tools.get(name), args)
                    assert not reply.is_error, reply.blocks
                    return "\n\n".join(reply.blocks)

                hover = ask("analyze", what="hover", path="app.py", line=6, col=12)
                assert "app.py:6:12 `greet_person` (jedi)\ndef greet_person(name)" in hover
                assert "Say hello (unsaved)." in hover
                refs = ask("analyze", what="references", path="app.py", line=1, col=6, include_declaration=True)
                assert "app.py (2)\n  1:5 in greet_person: def greet_person(name):\n" in refs
                assert '\n  6:10 in <module>: result = greet_person("ada")' in refs
                preview = ask("refactor", action="rename", path="app.py", line=1, col=6, new_name="hail")
                assert "rename `greet_person` -> `hail` (jedi): 2 edits in 1 file (preview" in preview
                assert nv.current.buffer[:] == UNSAVED
                applied = ask("refactor", action="rename", path="app.py", line=1, col=6, new_name="hail", apply=True)
                assert "applied to the Neovim buffers of app.py." in applied
                assert nv.current.buffer[:] == [
                    "def hail(name):",
                    UNSAVED[1],
                    UNSAVED[2],
                    "",
                    "",
                    'result = hail("ada")',
                ]
                assert path.read_text() == '"""Saved module."""\n'
                # The editor's diagnostics are the servers' findings in Neovim mode.
                nv.exec_lua(
                    """
                    local ns = vim.api.nvim_create_namespace('lint-test')
                    vim.diagnostic.set(ns, 0, { { lnum = 2, col = 4, message = 'line too long', source = 'pycodestyle',
                      code = 'E501', severity = vim.diagnostic.severity.WARN } })
                    """
                )
                lint = ask("diagnostics", path="app.py", only="lint")
                assert "lint app.py: 1 finding" in lint
                assert "  3:5 W pycodestyle E501 line too long" in lint.splitlines()  # jedi: no quickfix
                assert "no language server checks" not in lint
            finally:
                backend.close()
                state.session.close()
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
