"""`simple-brief mcp` is long-lived: after a call that opened the workspace's symbol index,
the index watches its tree (so the next search checks what the kernel reported changed,
not a walk of every file); stopping the server closes it. A one-shot answer (the CLI's
`run`) never starts a watcher."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

from simple_brief import tools as registry
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.index import symbol_index
from simple_brief.servers.mcp import run_tool


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _tree(root: Path) -> Workspace:
    for i in range(5):
        (root / f"mod{i}.py").write_text(f"def handler_{i}(request):\n    return request\n", encoding="utf-8")
    return Workspace.at(root)


def _search(state: Served, query: str) -> str:
    result = run_tool(state, registry.get("search"), {"query": query})
    assert not result.is_error, result.content
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


def test_a_long_lived_server_watches_the_index_it_opened(tmp_path: Path) -> None:
    state = Served.over(workspace=_tree(tmp_path), long_lived=True)
    assert "handler_3" in _search(state, "handler_3")
    index = symbol_index(state.workspace)
    index.ensure_fresh()  # the first check after the watch began still walks once
    assert index.ensure_fresh().listed == 0  # watched: nothing listed, nothing walked
    state.close()
    assert index.closed


def test_a_one_shot_answer_walks_and_starts_no_watcher(tmp_path: Path) -> None:
    state = Served.over(workspace=_tree(tmp_path))
    assert "handler_3" in _search(state, "handler_3")
    index = symbol_index(state.workspace)
    index.ensure_fresh()
    assert index.ensure_fresh().listed == 5  # every call walks the tree
    state.close()
    assert index.closed


@pytest.mark.anyio
async def test_the_mcp_server_walks_the_tree_on_its_first_search_only(tmp_path: Path) -> None:
    """The real `simple-brief mcp` is long-lived from its start (`watch.long_lived`): the
    watcher starts before the first walk, so the second and third searches walk nothing
    (they walked the whole tree again before: 6 s at 100,000 files). `-v` says when a call
    walked."""
    root = tmp_path / "tree"
    root.mkdir()
    _tree(root)
    log = tmp_path / "stderr.log"
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "simple_brief", "-v", "mcp", "--root", str(root)], env={"NVIM": ""}
    )
    with log.open("w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), raise_exceptions=True) as client:
            with anyio.fail_after(60):
                answers = [await client.call_tool("search", {"query": f"handler_{i}"}) for i in range(3)]
    assert all(not a.is_error for a in answers)
    walks = [line for line in log.read_text().splitlines() if "walked" in line]
    assert len(walks) == 1 and "walked 5 files of" in walks[0], log.read_text()
