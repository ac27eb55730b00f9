"""The workspace toolset: overlays an agent keeps (seen by every tool, never written to
disk, surviving the editor's per-call buffers), and opened workspaces (open, close,
files, symbols), through the registry, the host, the MCP in-memory Client and a
real headless Neovim.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief import tools as registry
from simple_brief.editor import Snapshot
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.intel import LanguageIntel
from simple_brief.model import Diagnostic, Symbol, TextEdit
from simple_brief.servers.mcp import build_server
from simple_brief.tools import Call, invoke
from simple_brief.tools.workspace import MAX_OPEN

from nvim_session import nvim

APP = '''class UserService:
    """Finds users."""

    def find_user(self, name: str) -> str:
        return name.upper()


def main() -> None:
    print(UserService().find_user("x"))
'''

OVERLAID = '''class AccountService:
    """Finds accounts."""

    def find_account(self, key: str) -> str:
        return key


def planned_helper(x: int) -> int:
    return x * 2
'''


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    (folder / "pkg" / "sub").mkdir(parents=True)
    (folder / "app.py").write_text(APP)
    (folder / "pkg" / "__init__.py").write_text("")
    (folder / "pkg" / "models.py").write_text("class User:\n    pass\n\n\nclass Group:\n    pass\n")
    (folder / "pkg" / "sub" / "util.py").write_text("def helper():\n    return 1\n")
    (folder / "pkg" / "broken.py").write_text("def broken(:\n    pass\n")
    (folder / "lib").mkdir()
    (folder / "lib" / "vendor.py").write_text("class Vendor:\n    pass\n")
    (folder / "README.md").write_text("# Project\n")
    (folder / "setup.cfg").write_text("[metadata]\n")
    (folder / ".gitignore").write_text("build/\n*_gen.py\n")
    (folder / "build").mkdir()
    (folder / "build" / "out.py").write_text("class Built:\n    pass\n")
    (folder / "pkg" / "api_gen.py").write_text("class Generated:\n    pass\n")
    return folder


@pytest.fixture
def ws(root: Path) -> Workspace:
    return Workspace.at(root)


def run(ws: Workspace, name: str, **args: Any) -> registry.ToolResult:
    return invoke(name, args, Call(ws))


def disk_state(path: Path) -> tuple[bytes, int]:
    return path.read_bytes(), path.stat().st_mtime_ns


# --- overlays through the tools ----------------------------------------------------------------


def test_overlay_is_read_by_every_tool_and_never_written(ws: Workspace, root: Path) -> None:
    before = disk_state(root / "app.py")
    call = Call(ws)
    applied = invoke("files_apply_overlay", {"path": "app.py", "content": OVERLAID}, call)
    assert applied.text.startswith("Overlay on app.py: 9 lines, ")
    assert (
        "disk file unchanged" in applied.text and "syntax (judged by python-compile): no errors found" in applied.text
    )
    assert applied.data["on_disk"] is True and applied.data["diagnostics"] == []

    full = invoke("simple_read", {"path": "app.py"}, call).text
    assert "class AccountService" in full and "UserService" not in full
    outline = invoke("simple_read", {"path": "app.py", "mode": "outline"}, call).text
    assert "F> def planned_helper(x: int) -> int { ... } L8-9" in outline
    found = invoke("search", {"query": "planned_helper"}, call).data["matches"]
    assert [(m["path"], m["name"], m["line"]) for m in found] == [("app.py", "planned_helper", 8)]
    assert invoke("search", {"query": "find_user"}, call).data["total"] == 0
    expanded = invoke("expand_at", {"path": "app.py", "selector": "AccountService.find_account"}, call).text
    assert "return key" in expanded
    table = invoke("document_symbols", {"path": "app.py"}, call).data["symbols"]
    assert [s["name"] for s in table] == ["AccountService", "planned_helper"]
    assert disk_state(root / "app.py") == before

    removed = invoke("files_remove_overlay", {"path": "app.py"}, call)
    assert removed.text == "Removed the overlay on app.py; tools read the disk again."
    assert removed.data == {"path": "app.py", "removed": True}
    assert "class UserService" in invoke("simple_read", {"path": "app.py"}, call).text
    assert invoke("search", {"query": "planned_helper"}, call).data["total"] == 0
    assert disk_state(root / "app.py") == before


def test_overlay_reports_its_syntax_errors(ws: Workspace, root: Path) -> None:
    result = run(ws, "files_apply_overlay", path="app.py", content="def half(:\n    pass\n")
    assert result.blocks[1].startswith("syntax (judged by python-compile): 2 problems\n  1:10 E python ")
    assert [d["code"] for d in result.data["diagnostics"]] == ["", "H003"]
    diags = run(ws, "diagnostics", path="app.py").data["files"]
    assert [(d["source"], d["code"]) for d in diags["app.py"]] == [("python", ""), ("simple-brief", "H003")]
    assert (root / "app.py").read_text() == APP


def test_overlay_of_a_new_file_is_listed_and_searched_but_never_created(ws: Workspace, root: Path) -> None:
    before = sorted(p.name for p in (root / "pkg").iterdir())
    call = Call(ws)
    result = invoke("files_apply_overlay", {"path": "pkg/planned.py", "content": OVERLAID}, call)
    assert "not on disk: a new file for the tools" in result.text
    assert "pkg/planned.py" in invoke("workspace_files", {"under": "pkg"}, call).data["files"]
    assert invoke("search", {"query": "planned_helper"}, call).data["matches"][0]["path"] == "pkg/planned.py"
    assert sorted(p.name for p in (root / "pkg").iterdir()) == before
    gone = invoke("files_remove_overlay", {"path": "pkg/planned.py"}, call).text
    assert gone == "Removed the overlay on pkg/planned.py; the file is not on disk, so tools no longer find it."
    assert "pkg/planned.py" not in invoke("workspace_files", {"under": "pkg"}, call).data["files"]
    with pytest.raises(UserError, match="does not exist"):
        invoke("simple_read", {"path": "pkg/planned.py"}, call)


def test_removing_an_overlay_that_is_not_there_changes_nothing(ws: Workspace) -> None:
    run(ws, "files_apply_overlay", path="pkg/models.py", content="class Other:\n    pass\n")
    result = run(ws, "files_remove_overlay", path="app.py")
    assert result.text == (
        "No overlay on app.py; nothing changed (overlays set with files_apply_overlay: pkg/models.py)."
    )
    assert result.data["removed"] is False


def test_overlay_paths_are_confined_and_checked(ws: Workspace) -> None:
    with pytest.raises(UserError, match="outside the workspace"):
        run(ws, "files_apply_overlay", path="../elsewhere.py", content="x = 1\n")
    with pytest.raises(UserError, match=r"^pkg is a directory; an overlay replaces the text of one file\.$"):
        run(ws, "files_apply_overlay", path="pkg", content="x = 1\n")
    with pytest.raises(UserError, match="outside the workspace"):
        run(ws, "files_remove_overlay", path="/etc/passwd")


def test_parse_cache_follows_overlay_changes(ws: Workspace) -> None:
    """Same-length texts, re-applied texts and removal each give the outline of the text in force."""
    one = "def aaa():\n    pass\n"
    two = "def bbb():\n    pass\n"
    names = lambda: [s.name for s in ws.outline("app.py")[1].symbols]  # noqa: E731
    disk = names()
    ws.set_overlay("app.py", one)
    assert names() == ["aaa"]
    ws.set_overlay("app.py", two)
    assert names() == ["bbb"]
    ws.set_overlay("app.py", one)
    assert names() == ["aaa"]
    cached = ws.outline("app.py")[1]
    assert ws.outline("app.py")[1] is cached
    assert ws.remove_overlay("app.py") is True
    assert names() == disk
    assert ws.remove_overlay("app.py") is False


# --- agent overlays and the editor's buffers -----------------------------------------------------


class ScriptedEditor:
    """A stand-in for Neovim (a real EditorBackend implementation, not a mock): its unsaved
    buffers and cursor are whatever the test sets before each call, as a person's editing would."""

    name = "scripted"

    def __init__(self) -> None:
        self.buffers: dict[Path, str] = {}
        self.snap: Snapshot | None = None

    def snapshot(self) -> Snapshot | None:
        return self.snap

    def overlays(self) -> dict[Path, str]:
        return dict(self.buffers)

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        return {}

    def symbols(self, path: Path) -> list[Symbol] | None:
        return None

    def status(self) -> dict[str, Any]:
        return {"backend": self.name}

    def intel(self) -> LanguageIntel | None:
        return None

    def apply_edits(self, edits: dict[Path, list[TextEdit]]) -> list[Path]:
        raise UserError("the scripted editor takes no edits.")


def call_tool(state: Served, name: str, **args: Any) -> Any:
    return state.call(registry.get(name), args)


def test_agent_overlay_survives_the_editors_buffers_changing_between_calls(ws: Workspace, root: Path) -> None:
    editor = ScriptedEditor()
    state = Served.over(ws, editor=editor, toolsets=("read", "workspace"))
    app, util = (root / "app.py").resolve(), (root / "pkg" / "sub" / "util.py").resolve()
    editor.buffers = {util: "def from_editor_one():\n    pass\n", app: "def editor_app():\n    pass\n"}
    applied = call_tool(state, "files_apply_overlay", path="app.py", content=OVERLAID)
    assert not applied.is_error
    assert "The editor's buffers are not changed." in applied.blocks[0]
    assert "goes back to the editor's buffer." in applied.blocks[0]

    editor.buffers = {util: "def from_editor_two():\n    pass\n", app: "def editor_app_2():\n    pass\n"}
    read = call_tool(state, "simple_read", path="app.py", mode="outline")
    assert "planned_helper" in "\n".join(read.blocks) and "editor_app" not in "\n".join(read.blocks)
    util_read = "\n".join(call_tool(state, "simple_read", path="pkg/sub/util.py").blocks)
    assert "from_editor_two" in util_read and "from_editor_one" not in util_read

    removed = call_tool(state, "files_remove_overlay", path="app.py")
    assert removed.blocks == ["Removed the overlay on app.py; tools read the editor's unsaved buffer again."]
    after = "\n".join(call_tool(state, "simple_read", path="app.py").blocks)
    assert "editor_app_2" in after and "planned_helper" not in after

    editor.buffers = {}
    assert "class UserService" in "\n".join(call_tool(state, "simple_read", path="app.py").blocks)
    assert (root / "app.py").read_text() == APP


def test_editor_context_describes_the_persons_buffer_not_the_agents_overlay(ws: Workspace, root: Path) -> None:
    editor = ScriptedEditor()
    state = Served.over(ws, editor=editor, toolsets=("read", "workspace"))
    app = (root / "app.py").resolve()
    editor.snap = Snapshot(path=app, filetype="python", line_count=9, modified=False, cursor=(5, 9), text=APP)
    call_tool(state, "files_apply_overlay", path="app.py", content=OVERLAID)
    result = call_tool(state, "simple_read", path="app.py", mode="outline")
    scopes = result.data["editorContext"]["symbols"]["scopeHierarchy"]
    assert scopes == "Class:UserService > Method:find_user"
    assert "AccountService" in "\n".join(result.blocks[1:])


def test_overlay_in_neovim_mode_stays_in_memory_and_leaves_the_buffer_alone(root: Path, tmp_path: Path) -> None:
    """A real headless Neovim with an unsaved buffer: the agent's overlay wins in simple-brief
    only; the person's buffer, its modified flag and the disk stay as they were."""
    sockets = Path(tempfile.mkdtemp(prefix="sb-ws-"))
    address = str(sockets / "nvim.sock")
    before = disk_state(root / "app.py")
    with nvim(tmp_path / "nvim", "--listen", address, str(root / "app.py")) as nv:
        nv.current.buffer[0:0] = ["import os  # unsaved"]
        backend = NvimBackend.connect(address, retry_interval=0)
        try:
            state = Served.over(Workspace.at(root), editor=backend, toolsets=("read", "workspace"))
            first = "\n".join(call_tool(state, "simple_read", path="app.py").blocks)
            assert "import os  # unsaved" in first
            applied = call_tool(state, "files_apply_overlay", path="app.py", content=OVERLAID)
            assert not applied.is_error and "The editor's buffers are not changed." in "\n".join(applied.blocks)
            seen = "\n".join(call_tool(state, "simple_read", path="app.py").blocks)
            assert "class AccountService" in seen and "import os" not in seen
            assert nv.current.buffer[0] == "import os  # unsaved"
            assert nv.current.buffer[1] == "class UserService:"
            assert nv.eval("&modified") == 1
            call_tool(state, "files_remove_overlay", path="app.py")
            assert "import os  # unsaved" in "\n".join(call_tool(state, "simple_read", path="app.py").blocks)
        finally:
            backend.close()
    assert disk_state(root / "app.py") == before


# --- workspaces ----------------------------------------------------------------------------------


def test_workspace_open_lists_files_and_initial_diagnostics(ws: Workspace) -> None:
    call = Call(ws)
    result = invoke("workspace_open", {"path": "pkg"}, call)
    head = result.blocks[0].splitlines()
    assert head[0] == "ws1 opened: pkg — 4 source files (python 4), .gitignore applied"
    assert head[1:] == ["pkg/: __init__.py broken.py models.py", "pkg/sub/: util.py"]
    assert result.blocks[1].startswith(
        "Diagnostics (grammar hints of 4 files; syntax is judged one file at a time): 1 diagnostic in 1 file"
    )
    assert result.blocks[2].startswith("pkg/broken.py (1)\n  1:12 H H003")
    assert result.data["id"] == "ws1" and result.data["file_count"] == 4
    assert list(result.data["diagnostics"]) == ["pkg/broken.py"]
    assert call.session.opened.by_id["ws1"].root == ws.root / "pkg"
    short = invoke("workspace_open", {"path": "pkg", "limit": 2}, call)
    assert short.blocks[0].splitlines()[1:] == ["pkg/: __init__.py broken.py", "[2 more: workspace_files id=ws1]"]
    assert short.data["files"] == ["pkg/__init__.py", "pkg/broken.py"] and short.data["already_open"] is True


def test_workspace_ids_are_reused_only_for_the_same_folder(ws: Workspace) -> None:
    call = Call(ws)
    assert invoke("workspace_open", {"path": "pkg"}, call).data["id"] == "ws1"
    again = invoke("workspace_open", {"path": "pkg/sub/.."}, call)
    assert again.data["id"] == "ws1" and again.blocks[0].startswith("ws1 already open: pkg")
    assert invoke("workspace_open", {"path": "lib"}, call).data["id"] == "ws2"
    closed = invoke("workspace_close", {"id": "ws1"}, call)
    assert closed.text == "Closed ws1 (pkg); open ones: ws2 (lib)."
    assert invoke("workspace_open", {"path": "pkg"}, call).data["id"] == "ws3"
    with pytest.raises(UserError, match=r"^there is no open workspace `ws1`; open ones: ws2 \(lib\), ws3 \(pkg\)\.$"):
        invoke("workspace_files", {"id": "ws1"}, call)


def test_workspace_open_is_refused_outside_the_root_and_for_files(ws: Workspace, root: Path) -> None:
    call = Call(ws)
    for outside in ("/", "..", str(root.parent)):
        with pytest.raises(UserError) as info:
            invoke("workspace_open", {"path": outside}, call)
        assert str(info.value).startswith(f"workspace_open only opens folders inside the server's root {root}, and ")
    with pytest.raises(UserError, match=r"^app\.py is not a folder; name a folder inside "):
        invoke("workspace_open", {"path": "app.py"}, call)
    with pytest.raises(UserError, match=r"^nowhere does not exist; "):
        invoke("workspace_open", {"path": "nowhere"}, call)
    assert call.session.opened.by_id == {}


def test_workspace_open_has_a_limit(ws: Workspace, root: Path) -> None:
    call = Call(ws)
    for i in range(MAX_OPEN):
        (root / f"d{i}").mkdir()
        invoke("workspace_open", {"path": f"d{i}"}, call)
    (root / "one_more").mkdir()
    with pytest.raises(UserError, match=f"^{MAX_OPEN} workspaces are open .*; close one with workspace_close.$"):
        invoke("workspace_open", {"path": "one_more"}, call)


def test_workspace_files_respects_gitignore_and_filters(ws: Workspace, root: Path) -> None:
    call = Call(ws)
    everything = invoke("workspace_files", {}, call)
    assert everything.text.splitlines() == [
        "8 files under . (source only), .gitignore applied",
        "./: README.md app.py setup.cfg",  # setup.cfg is INI (dosini), which simple-brief outlines
        "lib/: vendor.py",
        "pkg/: __init__.py broken.py models.py",
        "pkg/sub/: util.py",
    ]
    assert "build/out.py" not in everything.data["files"] and "pkg/api_gen.py" not in everything.data["files"]
    with_config = invoke("workspace_files", {"all_files": True}, call).data["files"]
    assert "setup.cfg" in with_config and ".gitignore" in with_config and "build/out.py" not in with_config
    assert invoke("workspace_files", {"pattern": "*.cfg"}, call).data["files"] == ["setup.cfg"]
    assert invoke("workspace_files", {"pattern": "pkg/**/*.py"}, call).data["files"] == [
        "pkg/__init__.py",
        "pkg/broken.py",
        "pkg/models.py",
        "pkg/sub/util.py",
    ]
    assert invoke("workspace_files", {"under": "pkg/sub"}, call).data["files"] == ["pkg/sub/util.py"]
    invoke("workspace_open", {"path": "pkg"}, call)
    assert invoke("workspace_files", {"id": "ws1"}, call).text.splitlines()[0] == (
        "4 files in ws1 under pkg (source only), .gitignore applied"
    )
    with pytest.raises(UserError, match="outside the workspace"):
        invoke("workspace_files", {"id": "ws1", "under": "lib"}, call)
    empty = invoke("workspace_files", {"pattern": "*.rs"}, call)
    assert empty.text == "No files under . matching *.rs; .gitignore applied (all_files=true lists every kind)."


def test_workspace_files_pages_and_stays_within_the_budget(ws: Workspace, root: Path) -> None:
    many = root / "many"
    many.mkdir()
    for i in range(300):
        (many / f"module_{i:03d}.py").write_text("x = 1\n")
    call = Call(ws)
    page = invoke("workspace_files", {"under": "many", "limit": 100, "offset": 100}, call)
    assert page.text.splitlines()[0] == "300 files under many (source only), .gitignore applied; showing 101-200"
    assert page.data["files"][0] == "many/module_100.py" and len(page.data["files"]) == 100
    assert page.text.splitlines()[-1] == "[100 more files: offset=200, or narrow with under= or pattern=]"
    tight = invoke("workspace_files", {"under": "many"}, Call(ws, budget=200))
    shown = len(tight.data["files"])
    assert 0 < shown < 300
    assert len(tight.text) / 2.8 <= 200
    assert (
        tight.text.splitlines()[-1] == f"[{300 - shown} more files: offset={shown}, or narrow with under= or pattern=]"
    )


def test_workspace_symbols_by_name_kind_and_workspace(ws: Workspace) -> None:
    call = Call(ws)
    users = invoke("workspace_symbols", {"query": "user"}, call)
    names = [(m["path"], m["name"]) for m in users.data["matches"]]
    assert ("pkg/models.py", "User") in names and ("app.py", "UserService") in names
    assert all(path not in ("build/out.py", "pkg/api_gen.py") for path, _ in names)
    classes = invoke("workspace_symbols", {"query": "", "kind": "class"}, call)
    assert sorted(m["name"] for m in classes.data["matches"]) == ["Group", "User", "UserService", "Vendor"]
    assert classes.blocks[0].startswith("Found 4 matches for any name across 3 files (kind Class)")
    invoke("workspace_open", {"path": "pkg"}, call)
    scoped = invoke("workspace_symbols", {"query": "", "kind": "classes", "id": "ws1"}, call)
    assert sorted(m["name"] for m in scoped.data["matches"]) == ["Group", "User"]
    assert "(kind Class; in ws1)" in scoped.blocks[0]
    assert "pkg/models.py (2 results)\n  @1:7 Class - User" in scoped.text
    methods = invoke("workspace_symbols", {"query": "find", "kind": "method,6"}, call)
    assert [m["name"] for m in methods.data["matches"]] == ["find_user"]
    with pytest.raises(UserError, match=r"^`klass` is not a symbol kind; use one of class, function"):
        invoke("workspace_symbols", {"query": "x", "kind": "klass"}, call)
    with pytest.raises(UserError, match=r"^the query is empty"):
        invoke("workspace_symbols", {"query": " "}, call)


def test_workspace_symbols_sees_overlays(ws: Workspace) -> None:
    call = Call(ws)
    invoke("workspace_open", {"path": "pkg"}, call)
    invoke("files_apply_overlay", {"path": "pkg/models.py", "content": "class Renamed:\n    pass\n"}, call)
    found = invoke("workspace_symbols", {"query": "", "kind": "class", "id": "ws1"}, call).data["matches"]
    assert [m["name"] for m in found] == ["Renamed"]


# --- through MCP ---------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_the_workspace_toolset_over_mcp(ws: Workspace, root: Path) -> None:
    state = Served.over(ws, toolsets=("read", "workspace"))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(20):
            listed = {t.name: t for t in (await client.list_tools()).tools}
            applied = await client.call_tool("files_apply_overlay", {"path": "app.py", "content": OVERLAID})
            outline = await client.call_tool("simple_read", {"path": "app.py", "mode": "outline"})
            opened = await client.call_tool("workspace_open", {"path": "pkg"})
            refused = await client.call_tool("workspace_open", {"path": "/"})
    workspace_tools = {n for n, t in listed.items() if n.startswith(("workspace_", "files_"))}
    assert workspace_tools == {
        "workspace_open",
        "workspace_close",
        "workspace_files",
        "workspace_symbols",
        "files_apply_overlay",
        "files_remove_overlay",
    }
    for name in workspace_tools:
        tool = listed[name]
        assert "USE FOR" in (tool.description or "") and "DON'T USE FOR" in (tool.description or "")
        assert tool.annotations is not None
        assert tool.annotations.read_only_hint is (not name.startswith("files_"))
    assert not applied.is_error and applied.structured_content["path"] == "app.py"
    assert "planned_helper" in outline.content[0].text  # type: ignore[union-attr]
    assert opened.structured_content["id"] == "ws1"
    assert refused.is_error
    assert refused.content[0].text.startswith("workspace_open only opens folders inside the server's root")  # type: ignore[union-attr]
    assert (root / "app.py").read_text() == APP
