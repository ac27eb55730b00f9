"""The MCP server over stdio against a live headless Neovim: unsaved edits, the cursor in a
method, a visual selection, vim.diagnostic findings and jedi-language-server attached."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters

from nvim_session import nvim

SAVED = '''class UserService:
    """Finds users."""

    def find_user(self, name: str) -> str:
        key = name.lower()
        return key
'''


async def _calls(root: Path, address: str) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "simple_brief", "mcp", "--root", str(root), "--nvim", address],
        env={**os.environ, "NVIM": ""},
    )
    out: dict[str, Any] = {}
    async with Client(params, raise_exceptions=True) as client:
        with anyio.fail_after(60):
            for name, args in [
                ("outline", ("simple_read", {"path": "service.py", "mode": "outline"})),
                ("context", ("editor_get_context", {})),
                ("diagnostics", ("diagnostics", {})),
                ("status", ("server_status", {})),
            ]:
                out[name] = await client.call_tool(*args)
    return out


def test_an_agent_sees_the_unsaved_buffer_cursor_selection_and_diagnostics(tmp_path: Path) -> None:
    (tmp_path / "service.py").write_text(SAVED)
    sock = str(tmp_path / "nvim.sock")
    jedi = str(Path(sys.executable).parent / "jedi-language-server")
    with nvim(tmp_path, "--listen", sock) as nv:
        nv.command(f"cd {tmp_path}")
        nv.command("edit service.py")
        # An unsaved method, appended in the buffer only.
        nv.exec_lua(
            "vim.api.nvim_buf_set_lines(0, -1, -1, false, {'', '    def remove_user(self, name: str) -> None:',"
            " '        self.cache.pop(name)'})"
        )
        nv.exec_lua(
            f"""
            local id = vim.lsp.start({{ name = 'jedi', cmd = {{ '{jedi}' }}, root_dir = '{tmp_path}' }})
            vim.wait(20000, function() local c = vim.lsp.get_client_by_id(id)
              return c and c.initialized and vim.lsp.buf_is_attached(0, id) end, 20)
            local ns = vim.api.nvim_create_namespace('typecheck')
            vim.diagnostic.set(ns, 0, {{ {{ lnum = 4, col = 8, message = 'unused variable key',
              severity = vim.diagnostic.severity.WARN, source = 'pyflakes', code = 'F841' }} }})
            vim.api.nvim_win_set_cursor(0, {{ 5, 8 }})
            """
        )
        nv.input("vj")  # a live charwise selection over lines 5-6, cursor inside find_user
        nv.exec_lua("vim.wait(2000, function() return vim.api.nvim_get_mode().mode == 'v' end, 10)")
        result = anyio.run(_calls, tmp_path, sock)
        # CLI parity (AC2): the same context in `simple-brief run … --json`.
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "simple_brief",
                "run",
                "simple_read",
                "--param",
                "path=service.py",
                "--param",
                "mode=outline",
                "--json",
                "--nvim",
                sock,
                "--root",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    cli = json.loads(done.stdout)
    assert cli["ok"] is True
    assert cli["data"]["editorContext"]["symbols"]["scopeHierarchy"] == "Class:UserService > Method:find_user"
    assert cli["content"][0].startswith("editor: service.py:")

    outline = [b.text for b in result["outline"].content]
    # The first block is the editor line; the unsaved method is in the outline.
    assert outline[0].startswith("editor: service.py:6:9 python modified · Class:UserService > Method:find_user")
    assert "selection 2 lines" in outline[0]
    assert "F> def remove_user(self, name: str) -> None { ... } L8-9" in outline[1]
    ctx = result["outline"].structured_content["editorContext"]
    assert ctx["file"]["isDirty"] is True and ctx["file"]["lineCount"] == 9
    assert ctx["selection"]["isEmpty"] is False and ctx["selection"]["text"].startswith("key = name.lower()")
    assert [s["name"] for s in ctx["symbols"]["containingScopes"]] == ["UserService", "find_user"]
    # editor_get_context: empty data, the context is the answer (AC3).
    only = result["context"].structured_content
    assert set(only) == {"editorContext"}
    # The editor's diagnostics reach the diagnostics tool with their source and code.
    diag_text = "\n".join(b.text for b in result["diagnostics"].content)
    assert "  5:9 W pyflakes F841 unused variable key" in diag_text.splitlines()
    # System tools carry no editor context (AC15).
    assert "editorContext" not in result["status"].structured_content
    assert result["status"].structured_content["editor"]["backend"] == "nvim"
