"""Language intelligence through the LSP clients attached in a live headless Neovim (NvimIntel),
and edits applied to its buffers (NvimBackend.apply_edits).

Real servers from PyPI answer, attached with `vim.lsp.start` to an unsaved, modified buffer:
jedi-language-server (hover, definition, references, rename) and ruff's server (hover on a
`# noqa` code). Ruff is there for the position encodings: it honours the negotiated
encoding, and three ruff clients are started offering utf-8, utf-16 and utf-32 only, after
non-ASCII text on the same line. (jedi-language-server 0.47 cannot check the conversion:
under pygls 2 it negotiates utf-8 but counts code points, in Neovim's own requests too.)
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pynvim
import pytest

from simple_brief.editor.nvim.attach import AutoBackend
from simple_brief.editor.nvim.backend import NvimBackend
from simple_brief.editor.nvim.intel import NvimIntel
from simple_brief.errors import UserError
from simple_brief.intel import LspReply
from simple_brief.model import Position, Range, TextEdit

from nvim_session import nvim

BIN = Path(sys.executable).parent
JEDI = BIN / "jedi-language-server"
RUFF = BIN / "ruff"

SAVED = '"""Saved module."""\n'

UNSAVED = [
    '"""Saved module."""',  # 0
    "s = '😀😀é😀'; import sys  # noqa: F401",  # 1: ruff's hover, after non-ASCII text
    "",
    "",
    "def greet_person(name):",  # 4
    '    """Say hello to someone (unsaved docstring)."""',  # 5
    '    return "greet_person " + name  # greet_person in a comment',  # 6
    "",
    "",
    'result = greet_person("ada")',  # 9
    'other = [greet_person(n) for n in ("bob", "cy")]',  # 10
]

#: Generous: jedi's first inference loads the builtins, on a machine shared with other work.
TIMEOUT = 30.0

HOVER = "textDocument/hover"

pytestmark = pytest.mark.skipif(
    not (JEDI.exists() and RUFF.exists()), reason="jedi-language-server and ruff are dev dependencies"
)


@dataclass
class Live:
    nv: pynvim.Nvim
    address: str
    path: Path
    backend: NvimBackend
    intel: NvimIntel


def wait_for(predicate: Any, timeout: float = 10.0, what: str = "condition") -> Any:
    """Poll `predicate` until it returns something truthy (bounded)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        assert time.monotonic() < deadline, f"timed out waiting for {what}"


def start_server(nv: pynvim.Nvim, name: str, cmd: list[str], root: Path, encoding: str | None = None) -> str:
    """Attach a language server to the current buffer; its negotiated position encoding."""
    encoding_ = nv.exec_lua(
        """
        local name, cmd, root, enc = ...
        local buf = vim.api.nvim_get_current_buf()
        local caps = nil
        if enc ~= vim.NIL then
          caps = vim.lsp.protocol.make_client_capabilities()
          caps.general.positionEncodings = { enc }
        end
        local id = vim.lsp.start({ name = name, cmd = cmd, root_dir = root, capabilities = caps },
          { bufnr = buf, reuse_client = function() return false end })
        local ok = vim.wait(20000, function()
          local c = vim.lsp.get_client_by_id(id)
          return c ~= nil and c.initialized and vim.lsp.buf_is_attached(buf, id)
        end, 20)
        return ok and vim.lsp.get_client_by_id(id).offset_encoding or nil
        """,
        name,
        cmd,
        str(root),
        encoding,
    )
    assert encoding_, f"{name} did not attach"
    return str(encoding_)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """One Neovim editing app.py (unsaved changes) with jedi, three ruffs and simple-brief attached."""
    tmp = tmp_path_factory.mktemp("intel")
    root = tmp / "ws"
    root.mkdir()
    path = root / "app.py"
    path.write_text(SAVED, encoding="utf-8")
    (root / "other.py").write_text("def other():\n    return 1\n", encoding="utf-8")
    sockets = Path(tempfile.mkdtemp(prefix="sb-intel-"))
    address = str(sockets / "nvim.sock")
    try:
        with nvim(tmp / "nvim", "--listen", address, str(path)) as nv:
            nv.current.buffer[:] = UNSAVED
            assert start_server(nv, "jedi", [str(JEDI)], root)
            assert start_server(nv, "ruff", [str(RUFF), "server"], root) == "utf-8"
            assert start_server(nv, "ruff16", [str(RUFF), "server"], root, "utf-16") == "utf-16"
            assert start_server(nv, "ruff32", [str(RUFF), "server"], root, "utf-32") == "utf-32"
            # simple-brief's own server attaches to Python buffers (tests/nvim/init.lua).
            wait_for(
                lambda: nv.exec_lua("return #vim.lsp.get_clients({ bufnr = 0, name = 'simple-brief' }) > 0"),
                20,
                "the simple-brief language server",
            )
            backend = NvimBackend.connect(address, lsp_timeout_ms=int(TIMEOUT * 1000), retry_interval=0)
            try:
                yield Live(nv, address, path.resolve(), backend, backend.intel())
            finally:
                backend.close()
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


def code_points(text: str, line: int, character: int, encoding: str) -> int:
    """A position's character in `encoding` units on `text`'s line, as code points."""
    content = text.split("\n")[line]
    if encoding == "utf-32":
        return character
    codec, width = ("utf-16-le", 2) if encoding == "utf-16" else ("utf-8", 1)
    return len(content.encode(codec)[: character * width].decode(codec, errors="ignore"))


def to_code_points(text: str, rng: dict[str, Any], encoding: str) -> Range:
    start, end = rng["start"], rng["end"]
    return Range(
        Position(start["line"], code_points(text, start["line"], start["character"], encoding)),
        Position(end["line"], code_points(text, end["line"], end["character"], encoding)),
    )


def one(replies: list[LspReply], server: str) -> LspReply:
    (reply,) = [r for r in replies if r.server == server]
    assert reply.error is None, reply.error
    return reply


def name_at(line: int, name: str = "greet_person") -> dict[str, int]:
    return {"line": line, "character": UNSAVED[line].index(name) + 2}


# --- servers ------------------------------------------------------------------------------------


def test_servers_are_the_attached_clients_that_support_the_method(live: Live, tmp_path: Path) -> None:
    assert live.intel.servers(live.path, HOVER) == ["jedi", "ruff", "ruff16", "ruff32"]
    # simple-brief's own client provides documentSymbol and foldingRange, and is left out.
    own = live.nv.exec_lua(
        "local c = vim.lsp.get_clients({ bufnr = 0, name = 'simple-brief' })[1]"
        " return { c:supports_method('textDocument/documentSymbol', 0),"
        " c:supports_method('textDocument/foldingRange', 0) }"
    )
    assert own == [True, True]
    assert live.intel.servers(live.path, "textDocument/documentSymbol") == ["jedi"]
    symbols = live.backend.symbols(live.path)  # the same buffer lookup, for documentSymbol
    assert symbols is not None and "greet_person" in {s.name for s in symbols}
    assert live.backend.status()["symbols_client"] == "jedi"
    assert live.intel.servers(live.path, "textDocument/definition") == ["jedi"]
    # No client but simple-brief's supports foldingRange: no servers, no replies.
    assert live.intel.servers(live.path, "textDocument/foldingRange") == []
    assert live.intel.request(live.path, "textDocument/foldingRange", {}, TIMEOUT) == []
    # A file without a loaded buffer: nothing (the tools ask their own servers instead).
    other = live.path.parent / "other.py"
    assert live.intel.servers(other, HOVER) == []
    assert live.intel.request(other, HOVER, {"position": {"line": 0, "character": 4}}, TIMEOUT) == []
    assert live.intel.diagnostics(live.path) is None


# --- jedi on the unsaved buffer ---------------------------------------------------------------------


def test_hover_on_a_function_defined_only_in_the_unsaved_buffer(live: Live) -> None:
    assert "greet_person" not in live.path.read_text(encoding="utf-8")
    replies = live.intel.request(live.path, HOVER, {"position": name_at(9)}, TIMEOUT)
    jedi = one(replies, "jedi")
    assert "Say hello to someone (unsaved docstring)." in str(jedi.result["contents"])
    assert "greet_person(name)" in str(jedi.result["contents"])
    # The ruffs answer too (nothing to say outside a noqa comment).
    assert {r.server: r.result for r in replies if r.server != "jedi"} == {"ruff": None, "ruff16": None, "ruff32": None}


def test_definition_of_a_call_in_the_unsaved_buffer(live: Live) -> None:
    jedi = one(live.intel.request(live.path, "textDocument/definition", {"position": name_at(10)}, TIMEOUT), "jedi")
    locations = jedi.result if isinstance(jedi.result, list) else [jedi.result]
    assert len(locations) == 1
    (location,) = locations
    assert Path(location.get("uri", location.get("targetUri", ""))[len("file://") :]) == live.path
    rng = location.get("range") or location["targetSelectionRange"]
    assert rng == {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 16}}


def test_references_are_code_not_strings_or_comments(live: Live) -> None:
    params = {"position": name_at(4), "context": {"includeDeclaration": True}}
    jedi = one(live.intel.request(live.path, "textDocument/references", params, TIMEOUT), "jedi")
    text = live.intel.text(live.path)
    assert text == "\n".join(UNSAVED) + "\n"
    found = []
    for loc in jedi.result:
        assert Path(loc["uri"][len("file://") :]) == live.path
        rng = to_code_points(text, loc["range"], jedi.encoding)
        found.append((rng.start.line, UNSAVED[rng.start.line][rng.start.character : rng.end.character]))
    assert sorted(found) == [(4, "greet_person"), (9, "greet_person"), (10, "greet_person")]


def test_rename_preview_edits_only_code(live: Live) -> None:
    params = {"position": name_at(9), "newName": "welcome_person"}
    jedi = one(live.intel.request(live.path, "textDocument/rename", params, TIMEOUT), "jedi")
    changed = rename_result(live, jedi)
    assert set(changed) == {live.path}
    lines = apply_in_python(UNSAVED, changed[live.path])
    assert lines[4] == "def welcome_person(name):"
    assert lines[9] == 'result = welcome_person("ada")'
    assert lines[10] == 'other = [welcome_person(n) for n in ("bob", "cy")]'
    # The string and the comment that spell the name are untouched; so is everything else.
    assert [i for i, (a, b) in enumerate(zip(UNSAVED, lines, strict=True)) if a != b] == [4, 9, 10]


def rename_result(live: Live, reply: LspReply) -> dict[Path, list[TextEdit]]:
    """A WorkspaceEdit as TextEdits in code points, by path."""
    result = reply.result
    groups: list[tuple[str, list[dict[str, Any]]]] = [
        (change["textDocument"]["uri"], change["edits"]) for change in result.get("documentChanges") or []
    ]
    groups += list((result.get("changes") or {}).items())
    out: dict[Path, list[TextEdit]] = {}
    for uri, edits in groups:
        path = Path(uri[len("file://") :])
        text = live.intel.text(path)
        assert text is not None
        out.setdefault(path, []).extend(
            TextEdit(to_code_points(text, e["range"], reply.encoding), e["newText"]) for e in edits
        )
    return out


def apply_in_python(lines: list[str], edits: list[TextEdit]) -> list[str]:
    text = "\n".join(lines)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    for edit in sorted(edits, key=lambda e: (e.range.start, e.range.end), reverse=True):
        a = starts[edit.range.start.line] + edit.range.start.character
        b = starts[edit.range.end.line] + edit.range.end.character
        text = text[:a] + edit.new_text + text[b:]
    return text.split("\n")


# --- position encodings ----------------------------------------------------------------------------


def test_positions_after_non_ascii_text_in_each_encoding(live: Live) -> None:
    line = UNSAVED[1]
    code = line.index("F401")
    text = live.intel.text(live.path)
    assert text is not None
    replies = live.intel.request(live.path, HOVER, {"position": {"line": 1, "character": code + 1}}, TIMEOUT)
    ruffs = {r.server: r for r in replies if r.server.startswith("ruff")}
    assert {name: r.encoding for name, r in ruffs.items()} == {"ruff": "utf-8", "ruff16": "utf-16", "ruff32": "utf-32"}
    for reply in ruffs.values():
        assert reply.error is None
        assert "unused-import (F401)" in reply.result["contents"]["value"], reply.server
        rng = to_code_points(text, reply.result["range"], reply.encoding)
        assert line[rng.start.character : rng.end.character] == "F401", reply.server
    # Two characters before the code (inside `: `) no ruff has anything: the position is exact.
    replies = live.intel.request(live.path, HOVER, {"position": {"line": 1, "character": code - 1}}, TIMEOUT)
    assert {r.server: r.result for r in replies if r.server.startswith("ruff")} == {
        "ruff": None,
        "ruff16": None,
        "ruff32": None,
    }


# --- applying edits to the buffers -----------------------------------------------------------------


def test_rename_applied_to_the_buffer_never_to_disk(live: Live) -> None:
    before = live.path.read_bytes()
    jedi = one(
        live.intel.request(live.path, "textDocument/rename", {"position": name_at(4), "newName": "hail"}, TIMEOUT),
        "jedi",
    )
    edits = rename_result(live, jedi)
    try:
        assert live.backend.apply_edits(edits) == [live.path]
        lines = live.nv.current.buffer[:]
        assert lines[4] == "def hail(name):"
        assert lines[6] == UNSAVED[6]
        assert lines[9:] == ['result = hail("ada")', 'other = [hail(n) for n in ("bob", "cy")]']
        assert live.path.read_bytes() == before
        # jedi sees the renamed buffer.
        replies = live.intel.request(live.path, HOVER, {"position": {"line": 9, "character": 10}}, TIMEOUT)
        assert "def hail(name)" in str(one(replies, "jedi").result["contents"])
        # One undo takes the whole rename back.
        live.nv.command("undo")
        assert live.nv.current.buffer[:] == UNSAVED
    finally:
        live.nv.current.buffer[:] = UNSAVED


# --- edits without language servers (a fresh Neovim each) -------------------------------------------


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[tuple[pynvim.Nvim, NvimBackend, Path]]:
    """A Neovim editing notes.txt (no language server), and a backend attached to it."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "notes.txt").write_text("héllo 😀 wörld\nsecond line\n", encoding="utf-8")
    (root / "later.txt").write_text("alpha\nbeta\n", encoding="utf-8")
    sockets = Path(tempfile.mkdtemp(prefix="sb-intel-"))
    address = str(sockets / "nvim.sock")
    try:
        with nvim(tmp_path / "nvim", "--listen", address, str(root / "notes.txt")) as nv:
            backend = NvimBackend.connect(address, retry_interval=0)
            try:
                yield nv, backend, root.resolve()
            finally:
                backend.close()
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


def edit(line: int, start: int, end: int, new: str) -> TextEdit:
    return TextEdit(Range(Position(line, start), Position(line, end)), new)


def test_edits_count_code_points_and_a_file_without_buffer_loads_hidden(
    plain: tuple[pynvim.Nvim, NvimBackend, Path],
) -> None:
    nv, backend, root = plain
    notes, later = root / "notes.txt", root / "later.txt"
    disk = {p: p.read_bytes() for p in (notes, later)}
    assert nv.exec_lua("return vim.fn.bufloaded(...)", str(later)) == 0
    changed = backend.apply_edits(
        {
            notes: [edit(0, 8, 13, "world")],  # `wörld` starts after an emoji: character 8
            later: [edit(1, 0, 4, "gamma"), edit(0, 0, 0, "# ")],
        }
    )
    assert changed == [notes, later]
    assert nv.current.buffer[:] == ["héllo 😀 world", "second line"]
    state = nv.exec_lua(
        """
        local buf = vim.fn.bufnr(...)
        return { loaded = vim.api.nvim_buf_is_loaded(buf), windows = #vim.fn.win_findbuf(buf),
                 lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false), modified = vim.bo[buf].modified,
                 current = vim.api.nvim_buf_get_name(0) }
        """,
        str(later),
    )
    assert state == {
        "loaded": True,
        "windows": 0,  # loaded, not shown
        "lines": ["# alpha", "gamma"],
        "modified": True,
        "current": str(notes),
    }
    assert {p: p.read_bytes() for p in (notes, later)} == disk  # nothing written
    # The servers' view of those files is the buffers' text; a file with no buffer is absent.
    texts = backend.intel().texts([notes, later, root / "absent.txt"])
    assert texts == {notes: "héllo 😀 world\nsecond line\n", later: "# alpha\ngamma\n"}
    assert backend.apply_edits({}) == []
    # Through AutoBackend, as the MCP server holds it.
    auto = AutoBackend(root, backend.address)
    try:
        assert isinstance(auto.intel(), NvimIntel)
        assert auto.apply_edits({later: [edit(0, 0, 2, "")]}) == [later]
        assert nv.exec_lua("return vim.fn.getbufline(vim.fn.bufnr(...), 1)[1]", str(later)) == "alpha"
    finally:
        auto.close()


def test_a_buffer_that_is_not_modifiable_refuses_and_nothing_changes(
    plain: tuple[pynvim.Nvim, NvimBackend, Path],
) -> None:
    nv, backend, root = plain
    notes, later = root / "notes.txt", root / "later.txt"
    nv.command(f"badd {later}")
    nv.exec_lua("local b = vim.fn.bufnr(...); vim.fn.bufload(b); vim.bo[b].modifiable = false", str(later))
    with pytest.raises(UserError, match=r"later\.txt is not modifiable.*:set modifiable") as refused:
        backend.apply_edits({notes: [edit(1, 0, 6, "first")], later: [edit(0, 0, 5, "omega")]})
    assert "\n" not in str(refused.value)
    assert nv.current.buffer[:] == ["héllo 😀 wörld", "second line"]  # the other file too
    assert nv.exec_lua("return vim.bo.modified") is False


def test_neovim_gone_answers_empty_and_refuses_edits(plain: tuple[pynvim.Nvim, NvimBackend, Path]) -> None:
    nv, backend, root = plain
    notes = root / "notes.txt"
    intel = backend.intel()
    assert intel.text(notes) == "héllo 😀 wörld\nsecond line\n"
    os.kill(int(nv.call("getpid")), signal.SIGKILL)
    wait_for(lambda: intel.servers(notes, HOVER) == [] and not backend.connected, 10, "the backend to notice")
    assert intel.request(notes, HOVER, {"position": {"line": 0, "character": 0}}, 1.0) == []
    assert intel.texts([notes]) == {}
    assert backend.status()["state"] == "disconnected"
    with pytest.raises(UserError, match="did not take the edits"):
        backend.apply_edits({notes: [edit(0, 0, 1, "H")]})
    assert notes.read_text(encoding="utf-8") == "héllo 😀 wörld\nsecond line\n"
