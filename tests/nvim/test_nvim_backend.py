"""The Neovim editor backend against real headless Neovims (tests/nvim_session.py).

Each Neovim listens on a Unix socket (`--listen`) that `NvimBackend` connects to, as
`simple-brief mcp` does; the test drives the same Neovim over the harness's own channel.
A real third-party language server (jedi-language-server from PyPI) answers documentSymbol.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pynvim
import pytest

from simple_brief import languages
from simple_brief.editor import DiskBackend
from simple_brief.editor.context import build_context, context_line
from simple_brief.editor.nvim.attach import AutoBackend, attach
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.intel.protocol import symbols_from_lsp
from simple_brief.model import Severity, walk_with_parent
from simple_brief.scan import scan

from nvim_session import nvim

SOURCE = (
    "import os\n"  # 1
    "\n"
    "\n"
    "class UserService:\n"  # 4
    '    """Users — héllo 😀 wörld."""\n'  # 5
    "\n"
    "    def __init__(self, db):\n"  # 7
    "        self.db = db\n"
    "\n"
    "    def find_user(self, user_id):\n"  # 10
    "        query = {'id': user_id}\n"  # 11
    "        return self.db.get(query)\n"  # 12
    "\n"
    "\n"
    "def main():\n"  # 15
    "    return UserService(None)\n"  # 16
)

JEDI = Path(sys.executable).parent / "jedi-language-server"

_tokens = itertools.count(1)


def feed(nv: pynvim.Nvim, keys: str, timeout: float = 5.0) -> None:
    """Type `keys` as the person would, and return once Neovim has processed all of them."""
    token = next(_tokens)
    nv.input(f"{keys}<Cmd>let g:sb_fed = {token}<CR>")
    deadline = time.monotonic() + timeout
    while nv.vars.get("sb_fed") != token:
        assert time.monotonic() < deadline, f"Neovim did not process {keys!r} in {timeout}s"


def wait_for(predicate: Any, timeout: float = 5.0, what: str = "condition") -> Any:
    """Poll `predicate` until it returns something truthy (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "service.py").write_text(SOURCE, encoding="utf-8")
    (root / "notes.txt").write_text("plain notes\nsecond line\n", encoding="utf-8")
    return root


@pytest.fixture
def editor(tmp_path: Path, sockets: Path, workspace: Path) -> Iterator[tuple[pynvim.Nvim, str]]:
    """A Neovim editing pkg/service.py, listening on a socket."""
    address = str(sockets / "nvim.sock")
    path = workspace / "pkg" / "service.py"
    with nvim(tmp_path / "nvim", "--listen", address, str(path)) as nv:
        yield nv, address


@pytest.fixture
def backend(editor: tuple[pynvim.Nvim, str]) -> Iterator[NvimBackend]:
    be = NvimBackend.connect(editor[1], lsp_timeout_ms=10000, retry_interval=0)
    yield be
    be.close()


def service(workspace: Path) -> Path:
    return (workspace / "pkg" / "service.py").resolve()


# --- snapshot, overlays, context ---------------------------------------------------------------


def test_unsaved_buffer_cursor_in_method_and_context(
    editor: tuple[pynvim.Nvim, str], backend: NvimBackend, workspace: Path
) -> None:
    nv, _ = editor
    buf = nv.current.buffer
    buf[10:10] = ["        extra = 1  # unsaved"]  # a new line 11, inside find_user
    nv.current.window.cursor = (12, 8)  # `query` on line 12 now; column 9 (1-based)

    snap = backend.snapshot()
    assert snap is not None
    assert snap.path == service(workspace)
    assert snap.filetype == "python"
    assert snap.modified is True
    assert snap.line_count == 17
    assert snap.cursor == (12, 9)
    assert snap.mode == "n"
    assert snap.terminal_fallback is False
    buffer_text = "\n".join(buf[:]) + "\n"
    assert snap.text == buffer_text
    assert buffer_text != SOURCE == service(workspace).read_text(encoding="utf-8")

    # Overlays: the buffer's text, not the disk's; the cached text is not sent again.
    assert backend.lines_received == 1
    assert backend.overlays() == {service(workspace): buffer_text}
    assert backend.lines_received == 1
    assert backend.snapshot() == snap
    assert backend.lines_received == 1
    buf[0:0] = ["import sys"]
    assert backend.overlays()[service(workspace)] == "import sys\n" + buffer_text
    assert backend.lines_received == 2

    # The context through the engine's scanner, on the unsaved text.
    snap = backend.snapshot()
    assert snap is not None and snap.text is not None
    assert backend.lines_received == 2
    outline = scan(snap.text, languages.detect(snap.path or "", snap.filetype))
    ctx = build_context(snap, outline.symbols)
    assert ctx["file"] == {"path": str(service(workspace)), "languageId": "python", "lineCount": 18, "isDirty": True}
    assert ctx["cursor"] == {"line": 13, "character": 9}
    assert ctx["symbols"]["containingScopes"] == [
        {"name": "UserService", "kind": "Class", "range": {"start": 5, "end": 14, "length": 10}},
        {"name": "find_user", "kind": "Method", "range": {"start": 11, "end": 14, "length": 4}},
    ]
    assert context_line(ctx, workspace) == (
        "editor: pkg/service.py:13:9 python modified · Class:UserService > Method:find_user"
    )
    # Saved: no overlay any more.
    nv.command("write")
    assert backend.overlays() == {}


def test_charwise_visual_selection(editor: tuple[pynvim.Nvim, str], backend: NvimBackend) -> None:
    nv, _ = editor
    feed(nv, "11G0fqvj$")  # from `query` on line 11 to the end of line 12
    snap = backend.snapshot()
    assert snap is not None and snap.selection is not None
    assert snap.mode == "v"
    assert snap.extra["selection_live"] is True
    expected = "query = {'id': user_id}\n        return self.db.get(query)"
    assert snap.selection.text == expected
    ctx = build_context(snap, scan(snap.text or "", languages.detect("x.py")).symbols)
    assert ctx["selection"] == {
        "isEmpty": False,
        "text": expected,
        "range": {"start": {"line": 11, "character": 9}, "end": {"line": 12, "character": 33}},
    }
    assert context_line(ctx).endswith(" · Class:UserService > Method:find_user · selection 2 lines")


def test_terminal_window_reports_the_last_code_window(editor: tuple[pynvim.Nvim, str], backend: NvimBackend) -> None:
    nv, _ = editor
    feed(nv, "15G")
    nv.command("botright split | terminal cat")
    snap = backend.snapshot()
    assert snap is not None
    assert snap.terminal_fallback is True
    assert snap.cursor == (15, 1)
    line = context_line(build_context(snap, None), terminal_fallback=snap.terminal_fallback)
    assert line.endswith(" · from last code window")


def test_neovim_without_the_plugin_gets_the_lua_side_shipped(editor: tuple[pynvim.Nvim, str]) -> None:
    nv, address = editor
    nv.exec_lua(
        """
        for _, dir in ipairs(vim.api.nvim_get_runtime_file('lua/simple_brief/context.lua', true)) do
          vim.opt.runtimepath:remove(vim.fn.fnamemodify(dir, ':h:h:h'))
        end
        package.loaded['simple_brief.context'] = nil
        """
    )
    assert not nv.exec_lua("return (pcall(require, 'simple_brief.context'))")
    package_loaded = "return package.loaded['simple_brief.context'] ~= nil"
    be = NvimBackend.connect(address)
    try:
        snap = be.snapshot()
        assert snap is not None and snap.filetype == "python"
        assert "error" not in be.status()
        assert nv.exec_lua(package_loaded)
    finally:
        be.close()


def test_a_busy_neovim_answers_empty_without_blocking(
    editor: tuple[pynvim.Nvim, str], backend: NvimBackend, tmp_path: Path
) -> None:
    nv, _ = editor
    backend.call_timeout = 0.2
    marker = tmp_path / "blocked"
    # Neovim's main loop blocked for 1.5 s; the marker says the block has begun.
    nv.exec_lua(
        "local marker = ...; vim.schedule(function() io.open(marker, 'w'):close(); vim.uv.sleep(1500) end)",
        str(marker),
    )
    wait_for(marker.exists, 5, "Neovim to start its busy spell")
    start = time.monotonic()
    assert backend.snapshot() is None
    assert time.monotonic() - start < 1.2  # the call timed out; Neovim was still asleep
    assert backend.status()["state"] == "busy"
    start = time.monotonic()
    assert backend.overlays() == {}  # the first request is still pending: no queueing behind it
    assert time.monotonic() - start < 0.5
    assert wait_for(backend.snapshot, 10, "Neovim to answer again") is not None
    assert backend.status()["state"] == "connected"


# --- diagnostics ---------------------------------------------------------------------------------


def test_diagnostics_from_two_sources(editor: tuple[pynvim.Nvim, str], backend: NvimBackend, workspace: Path) -> None:
    nv, _ = editor
    notes = workspace / "notes.txt"
    line5 = SOURCE.splitlines()[4]
    byte_col = line5.encode().index("wörld".encode())  # after a dash and an emoji
    nv.exec_lua(
        """
        local notes, byte_col = ...
        local lint = vim.api.nvim_create_namespace('lint-a')
        local check = vim.api.nvim_create_namespace('checker-b')
        vim.diagnostic.set(lint, 0, {
          { lnum = 0, col = 0, end_lnum = 0, end_col = 9, severity = vim.diagnostic.severity.WARN,
            message = "'os' imported but unused", source = 'pyflakes', code = 'F401' },
        })
        vim.diagnostic.set(check, 0, {
          { lnum = 4, col = byte_col, end_lnum = 4, end_col = byte_col + 6,
            severity = vim.diagnostic.severity.ERROR, message = 'no such word', code = 42 },
        })
        local other = vim.fn.bufadd(notes)
        vim.fn.bufload(other)
        vim.diagnostic.set(check, other, {
          { lnum = 1, col = 0, severity = vim.diagnostic.severity.HINT, message = 'hint' },
        })
        """,
        str(notes),
        byte_col,
    )
    found = backend.diagnostics()
    assert set(found) == {service(workspace), notes.resolve()}
    first, second = found[service(workspace)]
    assert (first.source, first.code, first.severity, first.message) == (
        "pyflakes",
        "F401",
        Severity.Warning,
        "'os' imported but unused",
    )
    assert (first.range.start.line, first.range.start.character, first.range.end.character) == (0, 0, 9)
    # No source on the diagnostic: the namespace names it. Columns count characters.
    assert (second.source, second.code, second.severity) == ("checker-b", "42", Severity.Error)
    char_col = line5.index("wörld")
    assert (second.range.start.line, second.range.start.character) == (4, char_col)
    assert second.range.end.character == char_col + 5  # `wörld` is 5 characters, 6 bytes
    (hint,) = found[notes.resolve()]
    assert (hint.severity, hint.range.start.line) == (Severity.Hint, 1)


# --- document symbols from a language server ----------------------------------------------------


def start_jedi(nv: pynvim.Nvim, root: Path) -> None:
    ok = nv.exec_lua(
        """
        local cmd, root = ...
        local buf = vim.api.nvim_get_current_buf()
        local id = vim.lsp.start({ name = 'jedi', cmd = { cmd }, root_dir = root }, { bufnr = buf })
        return vim.wait(15000, function()
          local c = vim.lsp.get_client_by_id(id)
          return c ~= nil and c.initialized and vim.lsp.buf_is_attached(buf, id)
        end, 20)
        """,
        str(JEDI),
        str(root),
    )
    assert ok, "jedi-language-server did not attach"


@pytest.mark.skipif(not JEDI.exists(), reason="jedi-language-server is not installed in this environment")
def test_symbols_from_jedi_not_from_simple_brief(
    editor: tuple[pynvim.Nvim, str], backend: NvimBackend, workspace: Path
) -> None:
    nv, _ = editor
    path = service(workspace)
    # simple-brief's own server attaches to Python buffers (tests/nvim/init.lua): alone, it answers.
    wait_for(
        lambda: nv.exec_lua("return #vim.lsp.get_clients({ bufnr = 0, name = 'simple-brief' }) > 0"),
        10,
        "the simple-brief language server",
    )
    assert backend.symbols(path) is not None
    assert backend.status()["symbols_client"] == "simple-brief"

    start_jedi(nv, workspace)
    nv.current.buffer.append(["", "", "def added_unsaved():", "    return 1"])
    symbols = backend.symbols(path)
    assert symbols is not None
    assert backend.status()["symbols_client"] == "jedi"
    tree = {(s.name, s.kind.name, p.name if p else None) for s, p in walk_with_parent(symbols)}
    assert {
        ("UserService", "Class", None),
        ("__init__", "Method", "UserService"),
        ("find_user", "Method", "UserService"),
        ("main", "Function", None),
        ("added_unsaved", "Function", None),  # jedi saw the unsaved buffer
    } <= tree
    user_service = next(s for s in symbols if s.name == "UserService")
    assert (user_service.range.start.line, user_service.range.end.line) == (3, 11)

    nv.current.window.cursor = (11, 8)
    snap = backend.snapshot()
    assert snap is not None
    ctx = build_context(snap, symbols)
    assert ctx["symbols"]["scopeHierarchy"] == "Class:UserService > Method:find_user"
    nv.current.window.cursor = (1, 3)  # `import os`: jedi lists `os` as a one-line Module
    top = backend.snapshot()
    assert top is not None
    assert build_context(top, symbols)["symbols"]["containingScopes"] == []

    # 'scanner' preference: the engine's scanner answers, not a language server.
    backend.prefer = "scanner"
    assert backend.symbols(path) is None


def test_symbols_without_a_server_answer_none_at_once(
    editor: tuple[pynvim.Nvim, str], backend: NvimBackend, workspace: Path
) -> None:
    nv, _ = editor
    notes = workspace / "notes.txt"
    nv.command(f"edit {notes}")
    start = time.monotonic()
    assert backend.symbols(notes.resolve()) is None
    assert backend.symbols(workspace / "not-open.py") is None
    # The LSP timeout is 10 s: no client means no waiting.
    assert time.monotonic() - start < 5


def test_symbols_from_lsp_both_answer_shapes() -> None:
    def rng(a: int, b: int, c: int, d: int) -> dict[str, Any]:
        return {"start": {"line": a, "character": b}, "end": {"line": c, "character": d}}

    nested = symbols_from_lsp(
        [
            {
                "name": "A",
                "kind": 5,
                "range": rng(0, 0, 9, 0),
                "selectionRange": rng(0, 6, 0, 7),
                "detail": "class A",
                "children": [{"name": "m", "kind": 6, "range": rng(2, 4, 4, 0), "selectionRange": rng(2, 8, 2, 9)}],
            }
        ]
    )
    assert [(s.name, s.kind.name, [c.name for c in s.children]) for s in nested] == [("A", "Class", ["m"])]
    assert nested[0].signature == "class A"
    flat = symbols_from_lsp(
        [
            {"name": "m", "kind": 6, "location": {"uri": "file:///x.py", "range": rng(2, 4, 4, 0)}},
            {"name": "A", "kind": 5, "location": {"uri": "file:///x.py", "range": rng(0, 0, 9, 0)}},
            {"name": "f", "kind": 12, "location": {"uri": "file:///x.py", "range": rng(10, 0, 12, 0)}},
            {"name": "odd", "kind": 999, "location": {"uri": "file:///x.py", "range": rng(13, 0, 13, 3)}},
        ]
    )
    assert [(s.name, [c.name for c in s.children]) for s in flat] == [("A", ["m"]), ("f", []), ("odd", [])]
    assert flat[2].kind.name == "Variable"
    assert symbols_from_lsp([]) == []


# --- Neovim going away and coming back -----------------------------------------------------------


def test_killed_neovim_answers_empty_and_a_restarted_one_is_picked_up(
    tmp_path: Path, sockets: Path, workspace: Path
) -> None:
    address = str(sockets / "nvim.sock")
    path = service(workspace)
    with nvim(tmp_path / "first", "--listen", address, str(path)) as first:
        be = NvimBackend.connect(address, retry_interval=0)
        try:
            first.current.buffer[0:0] = ["# unsaved in the first Neovim"]
            assert be.snapshot() is not None
            assert be.status()["connected"] is True
            os.kill(int(first.call("getpid")), signal.SIGKILL)

            assert be.snapshot() is None
            status = be.status()
            assert status["connected"] is False
            assert status["state"] == "disconnected"
            assert "not reachable" in status["message"]
            assert be.overlays() == {}
            assert be.diagnostics() == {}
            assert be.symbols(path) is None

            # A new Neovim at the same address (the killed one left its socket file behind).
            Path(address).unlink(missing_ok=True)
            with nvim(tmp_path / "second", "--listen", address, str(path)) as second:
                second.current.buffer[0:0] = ["# unsaved in the second Neovim"]
                snap = be.snapshot()
                assert snap is not None
                assert be.status()["connected"] is True
                assert snap.text is not None and snap.text.startswith("# unsaved in the second Neovim\n")
                assert be.overlays() == {path: snap.text}
                assert be.status()["pid"] == second.call("getpid")
        finally:
            be.close()


def test_calls_from_inside_a_running_event_loop(editor: tuple[pynvim.Nvim, str], backend: NvimBackend) -> None:
    """An MCP server calls from its asyncio loop; pynvim's own loop runs on the backend's thread."""
    import asyncio

    async def main() -> Any:
        return backend.snapshot()

    snap = asyncio.run(main())
    assert snap is not None and snap.filetype == "python"


# --- attach rules -----------------------------------------------------------------------------------


def write_entry(state: Path, nv: pynvim.Nvim, address: str, cwd: Path) -> Path:
    """An instance file as lua/simple_brief/instances.lua writes it (editor/nvim/instances.py reads it)."""
    folder = state / "instances"
    folder.mkdir(parents=True, exist_ok=True)
    pid = int(nv.call("getpid"))
    entry = folder / f"{pid}.json"
    record = {"servername": address, "cwd": str(cwd), "pid": pid, "started": int(time.time()), "version": "0.1.0"}
    entry.write_text(json.dumps(record), encoding="utf-8")
    entry.chmod(0o600)
    return entry


def test_attach_order_explicit_then_env_then_registry_then_disk(
    tmp_path: Path, sockets: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    monkeypatch.setenv("SIMPLE_BRIEF_STATE_DIR", str(state))
    env_addr, reg_addr = str(sockets / "env.sock"), str(sockets / "reg.sock")
    dead = str(sockets / "dead.sock")
    with (
        nvim(tmp_path / "env", "--listen", env_addr) as env_nv,
        nvim(tmp_path / "reg", "--listen", reg_addr) as reg_nv,
    ):
        entry = write_entry(state, reg_nv, reg_addr, workspace.parent)
        backends: list[Any] = []
        try:
            monkeypatch.setenv("NVIM", env_addr)
            chosen = attach(workspace, explicit=reg_addr)
            backends.append(chosen)
            assert isinstance(chosen, NvimBackend) and chosen.address == reg_addr and chosen.origin == "--nvim"
            # An explicit address is kept even while nothing answers there.
            chosen = attach(workspace, explicit=dead)
            backends.append(chosen)
            assert isinstance(chosen, NvimBackend) and chosen.address == dead and not chosen.connected
            assert chosen.snapshot() is None and chosen.status()["connected"] is False

            chosen = attach(workspace)
            backends.append(chosen)
            assert isinstance(chosen, NvimBackend) and (chosen.address, chosen.origin) == (env_addr, "$NVIM")
            assert chosen.status()["pid"] == env_nv.call("getpid")

            monkeypatch.setenv("NVIM", dead)  # a stale $NVIM falls through to the registry
            chosen = attach(workspace)
            backends.append(chosen)
            assert isinstance(chosen, NvimBackend) and (chosen.address, chosen.origin) == (reg_addr, "instances")
            monkeypatch.delenv("NVIM")
            chosen = attach(workspace)
            backends.append(chosen)
            assert isinstance(chosen, NvimBackend) and chosen.address == reg_addr

            entry.unlink()
            write_entry(state, reg_nv, reg_addr, tmp_path / "elsewhere")  # cwd not above the workspace
            assert isinstance(attach(workspace), DiskBackend)
            shutil.rmtree(state / "instances")
            assert isinstance(attach(workspace), DiskBackend)

            # AutoBackend: disk now, the registered Neovim once it appears, throttled re-attach.
            auto = AutoBackend(workspace, retry_interval=0)
            backends.append(auto)
            assert auto.name == "disk" and auto.snapshot() is None
            write_entry(state, reg_nv, reg_addr, workspace)
            assert auto.snapshot() is None  # reg_nv has no code window yet
            assert auto.name == "nvim"
            assert auto.status()["address"] == reg_addr
            reg_nv.command(f"edit {service(workspace)}")
            snap = auto.snapshot()
            assert snap is not None and snap.path == service(workspace)
            throttled = AutoBackend(workspace, retry_interval=3600)
            backends.append(throttled)
            assert throttled.name == "nvim"  # attached at once; re-attaching is what waits
        finally:
            for be in backends:
                be.close()
