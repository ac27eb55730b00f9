"""Concurrent calls on one MCP session (issue 27's race): the server runs each call on a
worker thread, and the session's language-server pool and debug sessions are created on
first use. Twenty calls at once, across tools, through the SDK's in-memory `Client` on one
session, start exactly one process per language server (counted in /proc: the children of
this process running it), and every one of them ends with the session."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief.defaults import KNOWN_TOOLSETS
from simple_brief.files.workspace import Workspace
from simple_brief.host.core import Host
from simple_brief.host.served import Served
from simple_brief.lsp.pool import ServerPool
from simple_brief.servers.mcp import build_server

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
CONFIG = f"""
[servers.jedi]
argv = ["{BIN / "jedi-language-server"}"]
filetypes = ["python"]
"""
APP = """def greet(name):
    return "hello " + name


def main():
    return greet("ada") + greet("bob")
"""
#: Twenty calls, across the tools that reach the session's servers, debug sessions and docs.
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("analyze", {"what": "hover", "path": "app.py", "line": 6, "col": 12}),
    ("analyze", {"what": "definition", "path": "app.py", "line": 6, "col": 12}),
    ("analyze", {"what": "references", "path": "app.py", "line": 1, "col": 5}),
    ("debug_sessions", {}),
    ("docs", {"action": "search", "query": "greet"}),
] * 4


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _children_running(program: str) -> list[int]:
    """Pids of this process's children whose command line runs `program`."""
    found = []
    me = str(os.getpid())
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        parent = stat.rsplit(")", 1)[1].split()[1]
        if parent == me and any(program.encode() in arg for arg in argv):
            found.append(int(entry.name))
    return found


def slow_pool_start(workspace: Workspace, settings: Any) -> Any:
    """A pool that takes a moment to make, as a real one may (reading the config, finding
    programs): the calls that arrive meanwhile must wait for it, not make their own."""
    time.sleep(0.3)
    return ServerPool(workspace, settings)


@pytest.mark.anyio
async def test_twenty_calls_at_once_start_one_server_and_it_ends_with_the_session(tmp_path: Path) -> None:
    write_trusted_config(tmp_path, CONFIG)
    (tmp_path / "app.py").write_text(APP)
    host = Host(slow_pool_start, long_lived=True)  # the factory handed in, as the adapters do
    root = host.state(tmp_path).workspace.root
    state = Served(host, root, toolsets=KNOWN_TOOLSETS)
    answers: dict[int, Any] = {}

    async def ask(client: Client, n: int, tool: str, args: dict[str, Any]) -> None:
        answers[n] = await client.call_tool(tool, args)

    try:
        async with Client(build_server(state), raise_exceptions=True) as client:
            with anyio.fail_after(120):
                async with anyio.create_task_group() as group:
                    for n, (tool, args) in enumerate(CALLS):
                        group.start_soon(ask, client, n, tool, args)
            servers = _children_running("jedi-language-server")
    finally:
        state.close()
    failed = {CALLS[n][0]: a.content[0].text for n, a in answers.items() if a.is_error}
    assert len(answers) == len(CALLS) and not failed, failed
    assert len(servers) == 1, f"{len(servers)} jedi-language-server processes for one session: {servers}"
    deadline = time.monotonic() + 10
    while _children_running("jedi-language-server") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert _children_running("jedi-language-server") == [], "a server outlived its session"
