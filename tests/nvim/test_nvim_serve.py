""":SimpleBriefServe in a real Neovim: child mode and rplugin mode serve MCP over HTTP with a token,
print the lines for Claude Code and Codex, and answer a real MCP client."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import anyio
import pynvim
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from test_nvim_rplugin import host_args, host_env, manifest  # noqa: F401 - `manifest` is a fixture

from nvim_session import nvim

SOURCE = "class Shape:\n    def area(self):\n        return 0\n"


async def _outline(url: str, token: str) -> str:
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    async with Client(streamable_http_client(url, http_client=http), raise_exceptions=True) as client:
        with anyio.fail_after(20):
            result = await client.call_tool("simple_read", {"path": "shapes.py", "mode": "outline"})
    return "\n".join(block.text for block in result.content)  # type: ignore[union-attr]


def _serve(nv: pynvim.Nvim, tmp_path: Path) -> tuple[dict[str, str], str]:
    (tmp_path / "shapes.py").write_text(SOURCE)
    nv.command(f"cd {tmp_path}")
    nv.command("edit shapes.py")
    nv.command("SimpleBriefServe")
    info = nv.exec_lua("return require('simple_brief.serve').serve()")
    messages = nv.exec_lua("return vim.api.nvim_exec2('messages', {output = true}).output")
    # The registration lines hold the token: they go to a split to copy from, not to :messages.
    assert info["token"] not in messages
    assert nv.exec_lua("return vim.fn.mode(1)") == "n", "no hit-enter prompt"
    split = nv.exec_lua(
        "local b = require('simple_brief.view').find('simple-brief://serve') "
        "return table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\\n')"
    )
    return info, split


def _check(info: dict[str, str], messages: str, state: Path) -> None:
    file = Path(info["file"])
    assert file.parent == state / "servers"
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert json.loads(file.read_text())["token"] == info["token"]
    assert (
        f'claude mcp add --transport http simple-brief {info["url"]} --header "Authorization: Bearer {info["token"]}"'
        in messages
    )
    assert f"codex mcp add simple-brief --url {info['url']} --bearer-token-env-var SIMPLE_BRIEF_TOKEN" in messages


def test_serve_from_a_child_process(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with nvim(tmp_path, SIMPLE_BRIEF_STATE_DIR=str(state)) as nv:
        info, messages = _serve(nv, tmp_path)
        _check(info, messages, state)
        assert info == nv.exec_lua("return require('simple_brief.serve').serve()"), "a second call reuses it"
        # pynvim runs its own event loop: the MCP client gets one of its own, after it.
        text = anyio.run(_outline, info["url"], info["token"])
    assert "C_ class Shape L1-3" in text
    assert not Path(info["file"]).exists(), "the state file goes when Neovim quits"


def test_serve_from_the_python_host(tmp_path: Path, manifest: Path) -> None:  # noqa: F811
    state = tmp_path / "state"
    with nvim(tmp_path, *host_args(), **host_env(manifest, SIMPLE_BRIEF_STATE_DIR=str(state))) as nv:
        assert nv.exec_lua("return require('simple_brief.lsp').mode()") == "rplugin"
        info, messages = _serve(nv, tmp_path)
        _check(info, messages, state)
        # pynvim runs its own event loop: the MCP client gets one of its own, after it.
        text = anyio.run(_outline, info["url"], info["token"])
    assert "C_ class Shape L1-3" in text
    assert not Path(info["file"]).exists(), "the state file goes when Neovim quits (the host cannot remove it)"
