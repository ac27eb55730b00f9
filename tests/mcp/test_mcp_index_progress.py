"""The first `search` of a workspace builds its symbol index; an MCP client that asked for
progress gets notifications while it is built (files done of files to parse), in order,
through a real SDK Client."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import Client

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server

FILES = 300  # more than `index.batch.POOL_MIN_FILES`: the worker processes' path


@pytest.mark.anyio
async def test_building_the_symbol_index_sends_mcp_progress(tmp_path: Path) -> None:
    for n in range(FILES):
        (tmp_path / f"mod{n}.py").write_text(f"def handler_{n}(request):\n    return request\n", encoding="utf-8")
    received: list[tuple[float, float | None, str | None]] = []
    finished = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, total, message))
        if total is not None and progress >= total:
            finished.set()

    state = Served.over(Workspace.at(tmp_path))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(60):
            result = await client.call_tool("search", {"query": "handler_250"}, progress_callback=on_progress)
            await finished.wait()  # the SDK runs progress callbacks as tasks: the last may land later
    state.close()
    assert not result.is_error
    assert "handler_250" in result.content[0].text  # type: ignore[union-attr]
    assert len(received) >= 2, received
    assert received[-1][:2] == (FILES, FILES), received[-1]
    assert [p for p, _, _ in received] == sorted(p for p, _, _ in received)
