"""The person's side of issue 29 in a real child Neovim (tests/nvim_session.py): a proposal
sent over RPC as the engine sends it (exec_lua, Python's None for nil), `:SimpleBriefReview`'s
quickfix list and <CR>, `show()` with the real language server's folds and in insert mode,
`:SimpleBrief!`, and files changed on disk reloaded or flagged by the plugin's own checktime.
"""

from __future__ import annotations

import difflib
import json.decoder
import os
import time
from pathlib import Path
from typing import Any

import pynvim

from nvim_session import closed_folds, feed, nvim

PROPOSE = "return require('simple_brief.review').propose(...)"
STATUS = "return require('simple_brief.review').status(...)"
SHOW = "return require('simple_brief.show').show(...)"

CODE = """\
import os


def first():
    a = 1
    return a


def second():
    b = 2
    return b


class Third:
    def method(self):
        c = 3
        return c

    def other(self):
        return 4
"""


def wait_for(nv: pynvim.Nvim, lua: str, timeout: float = 10.0) -> Any:
    """Poll a Lua expression until it is truthy (Neovim's loop runs its timers meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        value = nv.exec_lua(f"return {lua}")
        if value:
            return value
        assert time.monotonic() < deadline, f"still false after {timeout}s: {lua}"
        time.sleep(0.05)


def proposal(path: Path, tick: int | None = None) -> dict[str, Any]:
    return {
        "id": "r1",
        "path": str(path),
        "title": None,
        "tick": tick,
        "hunks": [
            {
                "n": 1,
                "start": 5,
                "old": ["    a = 1"],
                "new": ["    a = 10"],
                "symbol": "Function:first",
                "conflict": False,
            },
            {
                "n": 2,
                "start": 16,
                "old": ["        c = 3"],
                "new": [],
                "symbol": "Class:Third > Method:method",
                "conflict": False,
            },
        ],
    }


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_a_proposal_over_rpc_with_none_fields_shows_and_the_file_stays_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "app.py"
    path.write_text(CODE)
    with nvim(tmp_path) as nv:
        res = nv.exec_lua(PROPOSE, proposal(path))
        assert res["ok"] is True, res
        nv.command(f"buffer {res['buf']}")
        assert nv.exec_lua("return require('simple_brief.review').accept('r1', 1)") is True
        status = nv.exec_lua(STATUS, "r1")
        assert [h["state"] for h in status["hunks"]] == ["accepted", "pending"]
        assert status["lines"][4] == "    a = 10"
        assert status["eol"] is True
        assert status["tick"] == nv.current.buffer.vars["changedtick"]
    assert path.read_text() == CODE


def test_the_review_list_jumps_to_a_hunk_on_enter(tmp_path: Path) -> None:
    path = tmp_path / "app.py"
    path.write_text(CODE)
    with nvim(tmp_path) as nv:
        nv.exec_lua(PROPOSE, proposal(path))
        nv.command("SimpleBriefReview")
        assert nv.current.buffer.options["buftype"] == "quickfix"
        feed(nv, "j<CR>")
        assert nv.current.buffer.name == str(path)
        assert nv.current.window.cursor[0] == 16
        # Now in the file: the hunk under the cursor is rejected by the command.
        nv.command("SimpleBriefReview reject")
        assert [h["state"] for h in nv.exec_lua(STATUS, "r1")["hunks"]] == ["pending", "rejected"]
        feed(nv, "gg]h")
        assert nv.current.window.cursor[0] == 5


def test_show_folds_to_the_listed_ranges_places_the_note_and_bang_clears_it(tmp_path: Path) -> None:
    path = tmp_path / "app.py"
    path.write_text(CODE)
    other = tmp_path / "other.txt"
    other.write_text("the person was here\n")
    first, second = line_of(CODE, "def first"), line_of(CODE, "def second")
    method, other_method = line_of(CODE, "def method"), line_of(CODE, "def other")
    with nvim(tmp_path, str(other)) as nv:
        wins = len(nv.windows)
        request = {"path": str(path), "line": method, "open": [[method, method + 2]], "note": "look here"}
        # The first call of a fresh Neovim waits a bounded time for the server to start (the
        # engine waits 2 s for an answer) and otherwise folds right after answering.
        nv.exec_lua("require('simple_brief.show').server_wait_ms = 0")
        res = nv.exec_lua(SHOW, request)
        assert res == {"shown": True, "folds": "pending"}, res
        wait_for(nv, f"vim.fn.foldclosed({first}) ~= -1")
        # Once the server is there, the answer comes with the folds.
        nv.command("SimpleBrief!")
        res = nv.exec_lua(SHOW, request)
        assert res == {"shown": True, "folds": "lsp"}, res
        assert nv.current.buffer.name == str(path)
        assert len(nv.windows) == wins and len(nv.tabpages) == 1
        assert nv.current.window.cursor[0] == method
        closed = {start for start, _, _ in closed_folds(nv)}
        assert first in closed and second in closed and other_method in closed, closed
        assert method not in closed, closed
        notes = nv.exec_lua(
            "return vim.api.nvim_buf_get_extmarks(0, require('simple_brief.show').ns, 0, -1, { details = true })"
        )
        assert [(n[1], n[3]["virt_lines"][0][0][0]) for n in notes] == [(method - 1, "▶ look here")]
        nv.command("SimpleBrief!")
        assert nv.exec_lua("return #vim.api.nvim_buf_get_extmarks(0, require('simple_brief.show').ns, 0, -1, {})") == 0
        assert nv.current.window.options["foldmethod"] == "manual"
        assert closed_folds(nv) == [], "the folds :SimpleBrief closed are gone with it"


def test_show_waits_while_the_person_types_and_comes_at_insert_leave(tmp_path: Path) -> None:
    path = tmp_path / "app.py"
    path.write_text(CODE)
    notes = tmp_path / "notes.txt"
    notes.write_text("")
    with nvim(tmp_path, str(notes)) as nv:
        feed(nv, "ityping")
        assert nv.api.get_mode()["mode"] == "i"
        res = nv.exec_lua(SHOW, {"path": str(path), "line": 10, "open": None, "note": None})
        assert res == {"shown": False, "waiting": True}
        assert nv.current.buffer.name == str(notes)
        feed(nv, " more")
        assert nv.current.buffer.name == str(notes)
        assert nv.current.buffer[:] == ["typing more"]
        feed(nv, "<Esc>")
        wait_for(nv, f"vim.api.nvim_buf_get_name(0) == {str(path)!r} and vim.fn.line('.') == 10")
        assert nv.api.get_mode()["mode"] == "n"


def _bump(path: Path, text: str) -> None:
    """Write `text` as an agent would, with an mtime Neovim cannot mistake for the old one."""
    path.write_text(text)
    later = time.time() + 5
    os.utime(path, (later, later))


def test_files_changed_on_disk_reload_when_unmodified_and_are_flagged_when_modified(tmp_path: Path) -> None:
    clean, edited, gone = tmp_path / "clean.py", tmp_path / "edited.py", tmp_path / "gone.py"
    clean.write_text("x = 1\n")
    edited.write_text("y = 1\n")
    gone.write_text("z = 1\n")
    with nvim(tmp_path, str(clean), str(edited), str(gone)) as nv:
        # clean.py and gone.py are loaded but hidden: a bare :checktime would not look at them.
        nv.command("buffer " + str(gone))
        nv.command("buffer " + str(edited))
        nv.current.buffer[0] = "y = 'the person typed this'"
        _bump(clean, "x = 2\n")
        _bump(edited, "y = 2\n")
        gone.unlink()
        # Nothing calls :checktime here: the plugin's timer does (checktime_ms).
        wait_for(nv, f"vim.fn.getbufline({str(clean)!r}, 1)[1] == 'x = 2'")
        flag = wait_for(nv, f"vim.b[vim.fn.bufnr({str(edited)!r})].simple_brief_disk_changed")
        assert flag == "conflict"
        assert nv.current.buffer[:] == ["y = 'the person typed this'"]
        assert nv.current.buffer.options["modified"] is True
        messages = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
        assert "edited.py changed on disk while you have unsaved changes; your text is kept" in messages
        assert not nv.exec_lua("return vim.bo[vim.fn.bufnr(...)].modified", str(clean))
        assert wait_for(nv, f"vim.b[vim.fn.bufnr({str(gone)!r})].simple_brief_disk_changed") == "deleted"
        assert nv.exec_lua("return vim.fn.getbufline(vim.fn.bufnr(...), 1)", str(gone)) == ["z = 1"]
        messages = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
        # Checked again (as the timer does every second): said once, not every time.
        nv.exec_lua("require('simple_brief.reload').check(); require('simple_brief.reload').check()")
        messages = nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")
        assert messages.count("gone.py was deleted on disk; your buffer is kept") == 1, messages
        assert messages.count("edited.py changed on disk") == 1, messages
    assert edited.read_text() == "y = 2\n"
    assert not gone.exists()


def test_real_typing_moves_a_hunk_and_a_hunk_typed_into_is_a_conflict(tmp_path: Path) -> None:
    path = tmp_path / "app.py"
    path.write_text(CODE)
    with nvim(tmp_path) as nv:
        res = nv.exec_lua(PROPOSE, proposal(path))
        nv.command(f"buffer {res['buf']}")
        # A line opened right above hunk 1 and one split off its end stay outside the hunk.
        feed(nv, "5GO# above<Esc>6GA<CR># below<Esc>")
        # Typing inside hunk 2 (now two lines lower).
        feed(nv, "18GA  # mine<Esc>")
        assert nv.current.buffer[17] == "        c = 3  # mine"
        assert nv.exec_lua("return require('simple_brief.review').accept('r1', 1)") is True
        ok, message = nv.exec_lua("return { require('simple_brief.review').accept('r1', 2) }")
        assert ok is False and "conflict" in message
        status = nv.exec_lua(STATUS, "r1")
        assert [h["state"] for h in status["hunks"]] == ["accepted", "conflict"]
        assert status["lines"][3:8] == ["def first():", "    # above", "    a = 10", "    # below", "    return a"]
        assert status["lines"][17] == "        c = 3  # mine"
    assert path.read_text() == CODE


def _hunks(old: list[str], new: list[str]) -> list[dict[str, Any]]:
    """The hunks the engine would send, from difflib's opcodes (an independent diff)."""
    ops = [op for op in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes() if op[0] != "equal"]
    return [
        {"n": n, "start": i1 + 1, "old": old[i1:i2], "new": new[j1:j2], "symbol": "", "conflict": False}
        for n, (_, i1, i2, j1, j2) in enumerate(ops, 1)
    ]


def test_a_review_of_a_real_file_gives_exactly_the_hunks_accepted(tmp_path: Path) -> None:
    # The standard library's json/decoder.py, copied (nothing writes to the original).
    source = Path(json.decoder.__file__).read_text()
    path = tmp_path / "decoder.py"
    path.write_text(source)
    old = source.splitlines()
    new = [line.replace("idx", "index") for line in old if not line.lstrip().startswith("#")]
    new.insert(len(new) // 2, "# the agent was here")
    new.append("__all__ += []")
    hunks = _hunks(old, new)
    assert len(hunks) >= 6
    with nvim(tmp_path) as nv:
        res = nv.exec_lua(PROPOSE, {"id": "r1", "path": str(path), "title": None, "tick": None, "hunks": hunks})
        assert res["ok"] is True, res
        nv.command(f"buffer {res['buf']}")
        # The person types a line at the top first: every hunk moves one line down.
        nv.current.buffer.append("# the person's line", 0)
        review = "local r = require('simple_brief.review'); "
        for h in hunks:
            verb = "accept" if h["n"] % 2 else "reject"
            assert nv.exec_lua(review + f"return r.{verb}('r1', {h['n']})") is True, h
        expected = list(old)
        for h in reversed(hunks):
            if h["n"] % 2:
                expected[h["start"] - 1 : h["start"] - 1 + len(h["old"])] = h["new"]
        assert nv.current.buffer[:] == ["# the person's line", *expected]
        states = [h["state"] for h in nv.exec_lua(STATUS, "r1")["hunks"]]
        assert states == ["accepted" if h["n"] % 2 else "rejected" for h in hunks]
        assert (
            nv.exec_lua("return #vim.api.nvim_buf_get_extmarks(0, require('simple_brief.review').ns, 0, -1, {})") == 0
        )
    assert path.read_text() == source
