"""Sessions driven through the person's nvim-dap (lua/simple_brief/nvim_dap.lua and
python/simple_brief/debug/nvim_dap.py): a real headless Neovim, a real debugpy adapter
spawned from Neovim, the MCP server's call path.

nvim-dap itself is stood in for by tests/debug/nvim_dap_standin (nvim-dap installs from git
only: not from PyPI, Debian or npm, and the tests install nothing else). The stand-in speaks
real DAP to the real debugpy and follows nvim-dap's documented order (initialize, launch,
the store's breakpoints on `initialized`, exception filters, configurationDone) and its
listener calls; what these tests check is the driver on top of it."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pynvim
import pytest
from debuggee import LINE_CALL, LINE_LOOP_BODY, LINE_PRINT, alive, nvim_editor, run_answer

from simple_brief import tools as registry
from simple_brief.debug.nvim_dap import NvimDapClient
from simple_brief.host.served import Served

STANDIN = Path(__file__).parent / "nvim_dap_standin"


@pytest.fixture
def editor(tmp_path: Path, sockets: Path) -> Iterator[tuple[pynvim.Nvim, Served, Path]]:
    with nvim_editor(tmp_path, sockets) as opened:
        yield opened


_run = run_answer


def _install_standin(nv: pynvim.Nvim) -> None:
    nv.exec_lua("vim.opt.rtp:prepend(...)", str(STANDIN))


def _dap_signs(nv: pynvim.Nvim, path: Path) -> list[tuple[int, str]]:
    """nvim-dap's breakpoint signs of `path` (line, sign name)."""
    placed: Any = nv.exec_lua(
        """
        local buf = vim.fn.bufadd(...)
        local out = {}
        for _, s in ipairs(vim.fn.sign_getplaced(buf, { group = 'dap_breakpoints' })[1].signs) do
          out[#out + 1] = { s.lnum, s.name }
        end
        return out
        """,
        str(path),
    )
    return sorted((int(line), str(name)) for line, name in placed)


def _our_marks(nv: pynvim.Nvim) -> int:
    return int(
        nv.exec_lua(
            """
            local ns = vim.api.nvim_create_namespace('simple-brief.debug')
            local n = 0
            for _, buf in ipairs(vim.api.nvim_list_bufs()) do
              n = n + #vim.api.nvim_buf_get_extmarks(buf, ns, 0, -1, {})
            end
            return n
            """
        )
    )


def test_nvim_dap_drives_a_real_debugpy_session_end_to_end(editor: tuple[pynvim.Nvim, Served, Path]) -> None:
    nv, state, root = editor
    app = root / "app.py"
    _install_standin(nv)
    # The person's own breakpoint, set in nvim-dap before the agent starts: nvim-dap sends it too.
    nv.exec_lua(
        "local path, line = ...; local buf = vim.fn.bufadd(path); vim.fn.bufload(buf); "
        "require('dap.breakpoints').set({}, buf, line)",
        str(app),
        LINE_PRINT,
    )

    launched = _run(state, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}")
    assert launched.data["driver"] == "nvim-dap"
    assert launched.data["stopped"]["line"] == LINE_CALL and launched.data["stopped"]["breakpoint"] == 1
    assert "driven by the person's nvim-dap" in launched.blocks[-1]
    assert _dap_signs(nv, app) == [(LINE_CALL, "DapBreakpoint"), (LINE_PRINT, "DapBreakpoint")]
    assert _our_marks(nv) == 0  # nvim-dap's signs show the session, not a second set of ours
    sid = launched.data["session_id"]

    local = _run(state, "debug_variables", session_id=sid)
    assert "count: int = 3" in "\n".join(local.blocks), local.blocks

    stepped = _run(state, "debug_step", session_id=sid, kind="over")
    assert stepped.data["stopped"]["line"] == LINE_PRINT

    _run(
        state, "debug_breakpoints", session_id=sid, action="set", location=f"app.py:{LINE_LOOP_BODY}", condition="i > 1"
    )
    assert (LINE_LOOP_BODY, "DapBreakpointCondition") in _dap_signs(nv, app)
    stopped = _run(state, "debug_continue", session_id=sid)
    assert stopped.data["stopped"]["line"] == LINE_LOOP_BODY
    evaluated = _run(state, "debug_evaluate", session_id=sid, expression="i")
    assert evaluated.data["result"]["value"] == "2"
    pid = int(
        _run(state, "debug_evaluate", session_id=sid, expression="__import__('os').getpid()").data["result"]["value"]
    )
    assert alive(pid)

    ended = _run(state, "debug_terminate", session_id=sid)
    assert ended.data["state"] == "ended"
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)
    # The agent's breakpoints leave nvim-dap's store; the person's own stays.
    assert _dap_signs(nv, app) == [(LINE_PRINT, "DapBreakpoint")]


def test_a_session_nvim_dap_drives_is_still_stopped_at_its_time_limit(
    editor: tuple[pynvim.Nvim, Served, Path],
) -> None:
    nv, state, _root = editor
    _install_standin(nv)
    launched = _run(state, "debug_launch", program="endless.py", timeout_s=3.0, wait_s=10.0)
    assert launched.data["driver"] == "nvim-dap"
    assert launched.data["limit_exceeded"] == "time", launched.blocks
    sessions = state.session.debug.all() if state.session.debug else []
    assert sessions and not sessions[0].client.members()


def test_driver_own_keeps_our_client_and_says_nvim_dap_was_not_used(
    editor: tuple[pynvim.Nvim, Served, Path],
) -> None:
    nv, state, root = editor
    _install_standin(nv)
    launched = _run(state, "debug_launch", program="app.py", breakpoints=f"app.py:{LINE_CALL}", driver="own")
    assert launched.data["driver"] == "own"
    assert "(nvim-dap is installed; driver=own was asked for)" in launched.blocks[-1]
    assert _dap_signs(nv, root / "app.py") == [] and _our_marks(nv) == 2


def test_driver_nvim_dap_without_nvim_dap_is_refused_in_one_sentence(
    editor: tuple[pynvim.Nvim, Served, Path],
) -> None:
    _nv, state, _root = editor
    result = state.call(registry.get("debug_launch"), {"program": "app.py", "driver": "nvim-dap"})
    assert result.is_error
    assert result.blocks == [
        "driver=nvim-dap needs the person's nvim-dap, and the attached Neovim cannot load it; use driver=own (or auto)."
    ]


def test_the_adapter_reads_as_alive_while_its_pid_is_being_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watchdog reads `alive` from its own thread while `start` finds the adapter's pid.
    A pid published before its session id read as an adapter that had exited, and ended a
    live session (seen in CI as "the debug adapter ended" instead of the time limit); the
    announced pid is now the keeper's, and the session's root, set before the pid."""
    client = NvimDapClient(
        lambda *_: None, "k", [sys.executable], tmp_path, {}, lambda *_: None, memory_mb=0, name="adapter"
    )
    adapter = subprocess.Popen(["sleep", "30"], start_new_session=True)
    try:
        Path(client._pidfile).write_text(str(adapter.pid), encoding="ascii")
        client._find_pid(5.0)
        assert client.pid == adapter.pid and client.sid == adapter.pid and client.alive
    finally:
        adapter.kill()
        adapter.wait()
    assert not client.alive
