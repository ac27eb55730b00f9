"""Answers name the next step the way the caller calls things: an agent gets tool calls
(`expand_at app.py line:N`), a person at the command line gets `simple-brief` commands."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.tools import Call, hints, invoke

APP = "# a file without definitions\n"


def test_a_tool_call_names_tools(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    try:
        invoke("expand_at", {"path": "app.py", "selector": "zzz_nothing"}, Call(workspace=Workspace.at(tmp_path)))
    except UserError as err:
        assert str(err) == "no symbol `zzz_nothing` in app.py; simple_read app.py shows its symbols."
    else:
        raise AssertionError("no error")


def test_the_command_line_names_commands(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    done = subprocess.run(
        [sys.executable, "-m", "simple_brief.main", "--no-daemon", "expand", "app.py", "zzz_nothing"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert (
        done.stderr
        == "simple-brief: no symbol `zzz_nothing` in app.py; simple-brief outline app.py shows its symbols.\n"
    )


def test_commands_for_tools_with_and_without_a_command_of_their_own() -> None:
    token = hints.SURFACE.set("cli")
    try:
        assert hints.command("simple_read", "a b.py", mode="symbols", depth=1) == (
            "simple-brief outline 'a b.py' --mode symbols --depth 1"
        )
        assert hints.command("diagnostics", path="src/x.py") == "simple-brief diagnostics src/x.py"
        assert hints.command("docs", action="index", library="nvim") == "simple-brief docs index nvim"
        assert hints.command("workspace_open") == "simple-brief run workspace_open"
    finally:
        hints.SURFACE.reset(token)
    assert hints.command("simple_read", "a.py", mode="symbols", depth=1) == "simple_read a.py mode=symbols depth=1"


def test_a_parameter_that_does_not_apply_to_the_mode_is_refused(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    call = Call(workspace=Workspace.at(tmp_path))
    for params, sentence in (
        ({"mode": "outline", "preview": "signature"}, "preview=signature applies to mode=symbols only"),
        ({"mode": "full", "depth": 1}, "depth applies to the outline modes, not mode=full"),
    ):
        try:
            invoke("simple_read", {"path": "app.py", **params}, call)
        except UserError as err:
            assert sentence in str(err)
        else:
            raise AssertionError(f"{params} was accepted")
    done = subprocess.run(
        [sys.executable, "-m", "simple_brief.main", "--no-daemon", "outline", "app.py", "--preview", "signature"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "preview=signature applies to mode=symbols only" in done.stderr


@pytest.mark.anyio
async def test_the_mcp_server_started_from_the_command_line_names_tools(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "simple_brief", "mcp", "--root", str(tmp_path)],
        env={**os.environ, "NVIM": ""},
    )
    async with Client(params, raise_exceptions=True) as client:
        with anyio.fail_after(60):
            answer = await client.call_tool("expand_at", {"path": "app.py", "selector": "zzz_nothing"})
    assert answer.is_error
    assert "simple_read app.py shows its symbols" in answer.content[0].text  # type: ignore[union-attr]
