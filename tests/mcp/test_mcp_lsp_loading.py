"""A workspace-wide LSP tool asked while the language server is still loading (issue 26):
an MCP client that asked for progress gets notifications while the call waits for it, and
the answer is the whole one. Through a real SDK Client, on the real pyright from npm (it
reports nothing while it finds the workspace's files: the wait is on its log line) over the
MCP SDK's own `mcp` package copied from site-packages."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest
from mcp import Client

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

REPO = Path(__file__).resolve().parents[2]
PYRIGHT = REPO / "node_modules" / ".bin" / "pyright-langserver"
SITE_MCP = Path(__import__("mcp").__file__).parent


@pytest.mark.anyio
async def test_references_asked_of_a_loading_server_send_progress_and_answer_in_full(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert PYRIGHT.is_file(), "pyright is missing: run `make test` (npm install)"
    node = shutil.which("node")
    assert node is not None, "node is needed for pyright (apt-get install nodejs)"
    links = tmp_path / "bin"
    links.mkdir()
    (links / "pyright-langserver").symlink_to(PYRIGHT)
    monkeypatch.setenv("PATH", f"{links}:{Path(node).parent}")
    root = tmp_path / "project"
    root.mkdir()
    shutil.copytree(SITE_MCP, root / "mcp", ignore=shutil.ignore_patterns("__pycache__"))
    received: list[str] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append(message or "")

    args = {"path": "mcp/shared/exceptions.py", "line": 19, "col": 7, "limit": 1}
    state = Served.over(Workspace.at(root))
    try:
        async with Client(build_server(state), raise_exceptions=True) as client:
            with anyio.fail_after(120):
                first = await client.call_tool("analyze", {"what": "references", **args}, progress_callback=on_progress)
                again = await client.call_tool("analyze", {"what": "references", **args})
    finally:
        state.close()
    assert received and received[0].startswith("waiting for pyright to load the workspace ("), received
    assert first.structured_content is not None and again.structured_content is not None
    assert first.structured_content["total"] == again.structured_content["total"] > 20, first.content[0]
    assert "incomplete" not in first.structured_content
