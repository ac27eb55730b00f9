"""What the agent's debugging shows in the person's Neovim: its breakpoints as signs and the
line a session stopped at highlighted (extmarks of lua/simple_brief/debug.lua), following
the steps, in files opened later too, gone when the session ends. A real headless Neovim,
a real debugpy session through the MCP server's call path."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pynvim
import pytest
from debuggee import LINE_CALL, LINE_HELPER_BODY, LINE_LOOP_BODY, LINE_RAISE, nvim_editor, run_answer

from simple_brief.host.served import Served


@pytest.fixture
def editor(tmp_path: Path, sockets: Path) -> Iterator[tuple[pynvim.Nvim, Served, Path]]:
    with nvim_editor(tmp_path, sockets) as opened:
        yield opened


_run = run_answer


def _marks(nv: pynvim.Nvim, path: Path) -> list[dict[str, Any]]:
    found: Any = nv.exec_lua(
        """
        local path = ...
        local buf = vim.fn.bufnr(path)
        if buf == -1 or not vim.api.nvim_buf_is_loaded(buf) then return {} end
        local ns = vim.api.nvim_create_namespace('simple-brief.debug')
        local out = {}
        for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, { details = true })) do
          out[#out + 1] = { line = m[2] + 1, sign = vim.trim(m[4].sign_text or ''), line_hl = m[4].line_hl_group or '' }
        end
        return out
        """,
        str(path),
    )
    return sorted(found, key=lambda m: (m["line"], m["sign"]))


def test_breakpoints_show_as_signs_and_the_stopped_line_is_highlighted(
    editor: tuple[pynvim.Nvim, Served, Path],
) -> None:
    nv, state, root = editor
    app = root / "app.py"
    launched = _run(state, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}")
    assert launched.data["editor"]["nvim_dap"] is False and launched.data["editor"]["shown"] == 2
    assert "Neovim: the breakpoints show as signs" in "\n".join(launched.blocks)
    sid = launched.data["session_id"]
    assert _marks(nv, app) == [
        {"line": LINE_CALL, "sign": "→", "line_hl": "SimpleBriefDebugStopped"},
        {"line": LINE_CALL, "sign": "●", "line_hl": ""},
    ]

    _run(
        state, "debug_breakpoints", session_id=sid, action="set", location=f"app.py:{LINE_LOOP_BODY}", condition="i > 1"
    )
    _run(state, "debug_step", session_id=sid, kind="in")
    assert _marks(nv, app) == [
        {"line": LINE_HELPER_BODY, "sign": "→", "line_hl": "SimpleBriefDebugStopped"},
        {"line": LINE_CALL, "sign": "●", "line_hl": ""},
        {"line": LINE_LOOP_BODY, "sign": "◆", "line_hl": ""},
    ]

    _run(state, "debug_terminate", session_id=sid)
    assert _gone(nv, app) == []


def _gone(nv: pynvim.Nvim, path: Path) -> list[dict[str, Any]]:
    """The marks of `path` once they went away (the session's end reaches Neovim twice, from the
    answer and from the session's watchdog; on a loaded machine the second may still be on its
    way when the first was skipped), or what is still there after a generous wait."""
    deadline = time.monotonic() + 20
    while _marks(nv, path) and time.monotonic() < deadline:
        time.sleep(0.1)
    return _marks(nv, path)


def test_a_file_opened_later_gets_the_sessions_marks(editor: tuple[pynvim.Nvim, Served, Path]) -> None:
    nv, state, root = editor
    failing = root / "failing.py"
    launched = _run(state, "debug_launch", program="failing.py")
    assert launched.data["stopped"]["line"] == LINE_RAISE
    assert _marks(nv, failing) == []  # not open yet
    nv.command(f"edit {failing}")
    assert _marks(nv, failing) == [{"line": LINE_RAISE, "sign": "→", "line_hl": "SimpleBriefDebugStopped"}]
    assert nv.current.buffer.name == str(failing)


def test_a_session_ended_by_its_time_limit_takes_its_marks_away(
    editor: tuple[pynvim.Nvim, Served, Path],
) -> None:
    nv, state, root = editor
    app = root / "app.py"
    launched = _run(state, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}", timeout_s=3.0)
    assert launched.data["stopped"]["line"] == LINE_CALL and len(_marks(nv, app)) == 2
    assert _gone(nv, app) == []  # no tool call came after the limit: the session's end said so
    listed = _run(state, "debug_sessions")
    assert listed.data["sessions"][0]["limit_exceeded"] == "time"


def test_a_dap_module_that_is_not_nvim_dap_is_named_and_not_used(
    editor: tuple[pynvim.Nvim, Served, Path],
) -> None:
    nv, state, root = editor
    # Some other plugin's `dap` module (no run/sessions/listeners): found by the require, not driven.
    nv.exec_lua("package.preload['dap'] = function() return {} end")
    launched = _run(state, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}")
    assert launched.data["editor"]["nvim_dap"] is True and launched.data["driver"] == "own"
    assert "lacks nvim-dap's run/sessions/listeners/breakpoints: not used" in launched.blocks[-1]
    assert len(_marks(nv, root / "app.py")) == 2
