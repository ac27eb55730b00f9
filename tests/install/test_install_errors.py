"""The build step's and `:SimpleBrief mcp`'s failures: one sentence that says what is wrong and
what to do, in a real headless Neovim (tests/nvim_session.py), with nothing installed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pynvim
import pytest

from simple_brief.defaults import HOOK_SETTINGS

from nvim_session import nvim


def _error_of(nv: pynvim.Nvim, command: str) -> str:
    """The error message `command` reports (vim.notify at ERROR level raises over RPC)."""
    with pytest.raises(pynvim.NvimError) as caught:
        nv.command(command)
    return str(caught.value)


def test_install_with_a_python_that_is_not_one_says_so(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        said = _error_of(nv, f"SimpleBriefInstall {tmp_path / 'no-such-python'}")
        data = nv.funcs.stdpath("data")
    assert f"simple-brief: {tmp_path / 'no-such-python'} is not a Python 3.11 or newer with its venv module" in said
    assert not (Path(data) / "simple-brief" / "venv").exists()


def test_install_refuses_a_python_older_than_3_11(tmp_path: Path) -> None:
    # A stand-in interpreter that answers the version probe as Python 3.9 would.
    old = tmp_path / "python3.9"
    old.write_text("#!/bin/sh\necho 3.9\n")
    old.chmod(0o755)
    with nvim(tmp_path) as nv:
        said = _error_of(nv, f"SimpleBriefInstall {old}")
    assert f"{old} is not a Python 3.11 or newer" in said


def test_mcp_registration_lines_use_the_engine_command_with_absolute_paths(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:  # tests/nvim/init.lua: cmd = { sys.executable, '-m', 'simple_brief', 'lsp' }
        nv.command("SimpleBrief mcp")
        lines = nv.exec_lua("return vim.api.nvim_buf_get_lines(vim.fn.bufnr('simple-brief://mcp'), 0, -1, false)")
    shell = f"{sys.executable} -m simple_brief mcp"
    assert lines[0] == f"simple-brief MCP over stdio: {shell}"
    assert f"Claude Code: claude mcp add simple-brief -- {shell}" in lines
    assert f"Codex: codex mcp add simple-brief -- {shell}" in lines
    config = json.loads(next(line for line in lines if line.startswith("JSON ")).split(": ", 1)[1])
    server = {"command": sys.executable, "args": ["-m", "simple_brief", "mcp"]}
    assert config == {"mcpServers": {"simple-brief": server}}
    # Claude Code's hook: the settings block the engine's own help prints, with this command.
    hook = "\n".join(lines[lines.index("{") :]) + "\n"
    assert hook == HOOK_SETTINGS.replace("COMMAND", json.dumps(f"{sys.executable} -m simple_brief hook claude"))
    assert json.loads(hook)["hooks"]["PreToolUse"][0]["matcher"] == "Read"


def test_mcp_registration_without_an_engine_names_the_install_command(tmp_path: Path) -> None:
    with nvim(tmp_path, SIMPLE_BRIEF_TEST_PYTHON="") as nv:
        nv.exec_lua(
            "require('simple_brief').setup({ cmd = { ... , '-m', 'simple_brief_not_installed', 'lsp' } })",
            sys.executable,
        )
        said = _error_of(nv, "SimpleBrief mcp")
        split = nv.funcs.bufnr("simple-brief://mcp")
    assert "No module named simple_brief_not_installed); run :SimpleBriefInstall" in said
    assert split == -1


def test_the_engine_venv_python_is_never_used_to_build_the_venv(tmp_path: Path) -> None:
    """After the rplugin advice g:python3_host_prog names the venv's own python: the build step
    must pick another interpreter, or `venv --clear` would delete the one running it."""
    with nvim(tmp_path) as nv:
        venv = Path(nv.exec_lua("return require('simple_brief.install').venv()"))
        own = venv / "bin" / "python"
        own.parent.mkdir(parents=True)
        own.write_text("#!/bin/sh\necho 3.12\n")  # answers the version probe as a good Python would
        own.chmod(0o755)
        nv.vars["python3_host_prog"] = str(own)
        found = nv.exec_lua("return require('simple_brief.install').find_python()")
    assert found is not None and not found.startswith(str(venv))
