"""Editor context and the instance registry, in a real child Neovim (tests/nvim_session.py).

`context.snapshot()` is what the MCP server asks for in one `exec_lua` request; the registry
files are how `simple-brief mcp` finds a Neovim (python/simple_brief/editor/nvim/instances.py reads them).
"""

from __future__ import annotations

import itertools
import json
import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pynvim
import pytest

from simple_brief.editor.nvim import instances as registry
from simple_brief.files import private_files

from nvim_session import nvim

SNAPSHOT = "return require('simple_brief.context').snapshot(...)"

# Not in the plugin's filetypes: no language server starts for these buffers.
CODE = "local greeting = 'héllo 😀 wörld'\nfunction Box.size(self)\n  return self.n\nend\n\nlast line\n"

_tokens = itertools.count(1)


def feed(nv: pynvim.Nvim, keys: str, timeout: float = 5.0) -> None:
    """Type `keys` as the person would, and return once Neovim has processed all of them."""
    token = next(_tokens)
    nv.input(f"{keys}<Cmd>let g:sb_fed = {token}<CR>")
    deadline = time.monotonic() + timeout
    while nv.vars.get("sb_fed") != token:
        assert time.monotonic() < deadline, f"Neovim did not process {keys!r} in {timeout}s"


def snapshot(nv: pynvim.Nvim, **opts: Any) -> dict[str, Any] | None:
    result: dict[str, Any] | None = nv.exec_lua(SNAPSHOT, opts)
    return result


def snap(nv: pynvim.Nvim, **opts: Any) -> dict[str, Any]:
    result = snapshot(nv, **opts)
    assert result is not None, "no editor context"
    return result


def region_text(nv: pynvim.Nvim) -> str:
    """The live Visual selection as Neovim's own getregion() gives it: the expected text."""
    lines: list[str] = nv.exec_lua(
        "return vim.fn.getregion(vim.fn.getpos('v'), vim.fn.getpos('.'), { type = vim.fn.mode() })"
    )
    return "\n".join(lines)


@pytest.fixture
def code_file(tmp_path: Path) -> Path:
    path = tmp_path / "work" / "box.txt"
    path.parent.mkdir()
    path.write_text(CODE, encoding="utf-8")
    return path


@pytest.fixture
def editor(tmp_path: Path, code_file: Path) -> Iterator[pynvim.Nvim]:
    """A child Neovim editing `code_file`, with the context autocmds set up."""
    with nvim(tmp_path, str(code_file)) as nv:
        nv.exec_lua("require('simple_brief.context').setup()")
        yield nv


# --- snapshots in the code window -------------------------------------------------------


def test_normal_mode_snapshot(editor: pynvim.Nvim, code_file: Path) -> None:
    feed(editor, "2G3|")
    s = snap(editor)
    assert s["path"] == str(code_file)
    assert s["buf"] == editor.current.buffer.number
    assert s["window"] == editor.current.window.handle
    assert s["filetype"] == "text"
    assert s["line_count"] == 6
    assert s["modified"] is False
    assert s["changedtick"] == editor.current.buffer.vars["changedtick"]
    assert s["cursor"] == {"line": 2, "character": 3}
    assert s["mode"] == "n"
    assert "selection" not in s
    assert s["is_terminal_fallback"] is False
    assert s["lines"] == CODE.splitlines()


def test_cursor_column_counts_characters_not_bytes(editor: pynvim.Nvim) -> None:
    line = CODE.split("\n")[0]
    before = line[: line.index("wörld")]  # é and 😀 take 2 and 4 bytes
    feed(editor, "gg0fw")
    assert editor.current.window.cursor == (1, len(before.encode()))
    assert snap(editor)["cursor"] == {"line": 1, "character": len(before) + 1}
    feed(editor, "A")  # Insert mode, after the last character
    s = snap(editor)
    assert s["mode"] == "i"
    assert s["cursor"] == {"line": 1, "character": len(line) + 1}


def test_unsaved_edits_and_known_tick(editor: pynvim.Nvim) -> None:
    first = snap(editor)
    tick, buf = first["changedtick"], first["buf"]
    assert "lines" not in snap(editor, known_tick=tick)
    # Per buffer: over RPC the keys are strings (Neovim turns integer map keys into "").
    assert "lines" not in snap(editor, known_tick={str(buf): tick})
    assert "lines" in snap(editor, known_tick={str(buf + 1): tick})
    feed(editor, "ggOlocal added = 1<Esc>")
    s = snap(editor, known_tick={str(buf): tick})
    assert s["modified"] is True
    assert s["changedtick"] > tick
    assert s["line_count"] == 7
    assert s["lines"][:2] == ["local added = 1", "local greeting = 'héllo 😀 wörld'"]
    assert "lines" not in snap(editor, known_tick={str(buf): s["changedtick"]})
    assert "lines" not in snap(editor, lines=False)


# --- selections ---------------------------------------------------------------------------


def test_charwise_visual_selection(editor: pynvim.Nvim) -> None:
    feed(editor, "gg0fhvj0fB")  # from `h` of héllo to `B` of Box on line 2
    s = snap(editor, lines=False)
    assert s["mode"] == "v"
    sel = s["selection"]
    assert sel["mode"] == "v"
    assert sel["live"] is True
    assert sel["start"] == {"line": 1, "character": 19}
    assert sel["end"] == {"line": 2, "character": 10}
    assert sel["text"] == "héllo 😀 wörld'\nfunction B"
    assert sel["text"] == region_text(editor)
    # After <Esc>: the same selection, remembered for this buffer.
    feed(editor, "<Esc>G")
    after = snap(editor, lines=False)["selection"]
    assert after == {**sel, "live": False}


def test_linewise_visual_selection_is_whole_lines(editor: pynvim.Nvim) -> None:
    feed(editor, "2G4|Vj")
    sel = snap(editor, lines=False)["selection"]
    assert sel["mode"] == "V"
    assert sel["text"] == "function Box.size(self)\n  return self.n"
    assert sel["text"] == region_text(editor)
    assert sel["start"] == {"line": 2, "character": 1}
    assert sel["end"] == {"line": 3, "character": len("  return self.n")}
    feed(editor, "<Esc>")
    assert snap(editor, lines=False)["selection"]["text"] == sel["text"]


def test_blockwise_visual_selection_is_the_block(editor: pynvim.Nvim) -> None:
    feed(editor, "2G0fB<C-v>jl")  # columns 10-11 of lines 2-3
    sel = snap(editor, lines=False)["selection"]
    assert sel["mode"] == "\x16"
    assert sel["text"] == "Bo\nse"
    assert sel["text"] == region_text(editor)
    assert sel["start"] == {"line": 2, "character": 10}
    assert sel["end"] == {"line": 3, "character": 11}
    feed(editor, "<Esc>")
    assert snap(editor, lines=False)["selection"]["text"] == "Bo\nse"


def test_blockwise_selection_to_line_ends(editor: pynvim.Nvim) -> None:
    feed(editor, "2G0fB<C-v>j$")  # `$`: every line to its end
    sel = snap(editor, lines=False)["selection"]
    assert sel["text"] == "Box.size(self)\nself.n"
    feed(editor, "<Esc>")
    sel = snap(editor, lines=False)["selection"]
    assert sel["text"] == "Box.size(self)\nself.n"
    assert sel["end"] == {"line": 3, "character": len("  return self.n")}


# --- not in a code window -----------------------------------------------------------------


def test_terminal_window_reports_the_last_code_window(editor: pynvim.Nvim) -> None:
    code_win = editor.current.window.handle
    feed(editor, "2G0fBve<Esc>3G5|")  # select `Box`, then move on
    editor.command("botright split | terminal cat")
    feed(editor, "i")  # Terminal mode, typing to the program
    s = snap(editor, lines=False)
    assert editor.current.buffer.options["buftype"] == "terminal"
    assert s["mode"] == "t"
    assert s["is_terminal_fallback"] is True
    assert s["window"] == code_win
    assert s["cursor"] == {"line": 3, "character": 5}
    assert s["selection"]["text"] == "Box"
    assert s["selection"]["live"] is False


def test_terminal_replacing_the_code_window_reports_the_hidden_buffer(editor: pynvim.Nvim, code_file: Path) -> None:
    feed(editor, "3G5|")
    editor.command("terminal cat")  # same window: the code buffer is hidden now
    s = snap(editor, lines=False)
    assert s["is_terminal_fallback"] is True
    assert s["path"] == str(code_file)
    assert "window" not in s
    assert s["cursor"] == {"line": 3, "character": 5}


def test_scratch_window_reports_the_last_code_window(editor: pynvim.Nvim, code_file: Path) -> None:
    code_win = editor.current.window.handle
    feed(editor, "4G")
    editor.command("vsplit | enew | setlocal buftype=nofile bufhidden=wipe")
    editor.current.buffer[:] = ["scratch text"]
    s = snap(editor, lines=False)
    assert s["is_terminal_fallback"] is True
    assert s["window"] == code_win
    assert s["path"] == str(code_file)
    assert s["cursor"]["line"] == 4
    # Back in the code window: it is reported directly again.
    editor.command("wincmd p")
    assert snap(editor, lines=False)["is_terminal_fallback"] is False


def test_no_code_window_ever_gives_nothing(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        assert snapshot(nv) is None  # only the empty [No Name] buffer
        nv.command("setlocal buftype=nofile")
        nv.current.buffer[:] = ["scratch"]
        assert snapshot(nv) is None
        nv.command("terminal cat")
        assert snapshot(nv) is None


# --- the instance registry ------------------------------------------------------------------


def wait_gone(path: Path, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while path.exists():
        assert time.monotonic() < deadline, f"{path} still exists"


def test_registry_file_lifecycle(tmp_path: Path) -> None:
    state = tmp_path / "state"
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    with nvim(tmp_path, "--cmd", f"cd {work}", SIMPLE_BRIEF_STATE_DIR=str(state)) as nv:
        path = Path(nv.exec_lua("return (require('simple_brief.instances').register())"))
        pid = nv.call("getpid")
        assert path == state / "instances" / f"{pid}.json"
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        entry = json.loads(path.read_text(encoding="utf-8"))
        assert entry["pid"] == pid
        assert entry["servername"] == nv.vvars["servername"] != ""
        assert entry["cwd"] == str(work)
        assert entry["version"] == "0.1.0"
        assert abs(entry["started"] - time.time()) < 60

        # What `simple-brief mcp` reads: the same entry, found by its workspace.
        assert registry.instances(state) == [entry]
        assert registry.best_instance(work, state) == entry
        assert registry.best_instance(work / "sub", state) == entry
        assert registry.best_instance(tmp_path, state) is None

        nv.command(f"cd {work / 'sub'}")
        moved = json.loads(path.read_text(encoding="utf-8"))
        assert moved["cwd"] == str(work / "sub")
        assert moved["started"] == entry["started"]
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert registry.best_instance(work, state) is None
        assert nv.exec_lua("return require('simple_brief.instances').list()") == [moved]
    wait_gone(path)
    assert registry.instances(state) == []


def test_registry_default_dir_agrees_with_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The harness points XDG_STATE_HOME at tmp_path/xdg-state and clears SIMPLE_BRIEF_STATE_DIR.
    with nvim(tmp_path) as nv:
        lua_dir = nv.exec_lua("return require('simple_brief.instances').dir()")
        env = nv.exec_lua("return { vim.env.XDG_STATE_HOME, vim.env.SIMPLE_BRIEF_STATE_DIR }")
    assert lua_dir == str(tmp_path / "xdg-state" / "simple-brief")
    monkeypatch.delenv(private_files.STATE_DIR_ENV, raising=False)
    monkeypatch.setenv("XDG_STATE_HOME", env[0])
    assert private_files.state_dir() == Path(lua_dir)
    monkeypatch.setenv(private_files.STATE_DIR_ENV, str(tmp_path / "elsewhere"))
    assert private_files.state_dir() == tmp_path / "elsewhere"


def _write_instance(state: Path, name: str, **entry: Any) -> None:
    folder = state / "instances"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(entry), encoding="utf-8")


def test_best_instance_chooses_by_cwd_then_newest(tmp_path: Path) -> None:
    state = tmp_path / "state"
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    other = tmp_path / "other"
    other.mkdir()
    alive = os.getpid()  # this test process: certainly running
    base = {"version": "0.1.0"}
    _write_instance(state, "1.json", **base, pid=alive, servername="127.0.0.1:1", cwd=str(other), started=300)
    _write_instance(state, "2.json", **base, pid=alive, servername="127.0.0.1:2", cwd=str(repo), started=100)
    _write_instance(state, "3.json", **base, pid=alive, servername="127.0.0.1:3", cwd=str(tmp_path), started=200)
    _write_instance(state, "4.json", **base, pid=alive, servername="127.0.0.1:4", cwd=str(repo / "pkg"), started=400)
    # Dead process, missing socket, malformed files: never offered.
    _write_instance(state, "5.json", **base, servername="127.0.0.1:5", cwd=str(repo), started=900, pid=99999999)
    _write_instance(
        state, "6.json", **base, pid=alive, servername=str(tmp_path / "gone.sock"), cwd=str(repo), started=901
    )
    _write_instance(state, "7.json", pid="7", servername="x", cwd=str(repo), started=902)
    (state / "instances" / "8.json").write_text("{not json", encoding="utf-8")
    _write_instance(state, "notes.json", **base, pid=alive, servername="127.0.0.1:9", cwd=str(repo), started=999)

    servers = [e["servername"] for e in registry.instances(state)]
    assert servers == ["127.0.0.1:4", "127.0.0.1:1", "127.0.0.1:3", "127.0.0.1:2"]

    def best(root: Path) -> str | None:
        found = registry.best_instance(root, state)
        return found["servername"] if found else None

    # repo/pkg is inside the root, not containing it; tmp_path (newer than repo) contains it.
    assert best(repo) == "127.0.0.1:3"
    assert best(repo / "pkg") == "127.0.0.1:4"
    assert best(other) == "127.0.0.1:1"
    assert best(tmp_path.parent) is None
    assert registry.instances(tmp_path / "nowhere") == []
