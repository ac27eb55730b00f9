"""`simple-brief mcp` is long-lived: after a call that opened the workspace's symbol index,
the index watches its tree (so the next search checks what the kernel reported changed,
not a walk of every file); stopping the server closes it. A one-shot answer (the CLI's
`run`) never starts a watcher."""

from __future__ import annotations

from pathlib import Path

from simple_brief import tools as registry
from simple_brief.index import symbol_index
from simple_brief.servers.envelope import ServerState
from simple_brief.servers.mcp import run_tool
from simple_brief.workspace import Workspace


def _tree(root: Path) -> Workspace:
    for i in range(5):
        (root / f"mod{i}.py").write_text(f"def handler_{i}(request):\n    return request\n", encoding="utf-8")
    return Workspace.at(root)


def _search(state: ServerState, query: str) -> str:
    result = run_tool(state, registry.get("search"), {"query": query})
    assert not result.is_error, result.content
    return "\n".join(block.text for block in result.content if hasattr(block, "text"))


def test_a_long_lived_server_watches_the_index_it_opened(tmp_path: Path) -> None:
    state = ServerState(workspace=_tree(tmp_path), long_lived=True)
    assert "handler_3" in _search(state, "handler_3")
    index = symbol_index(state.workspace)
    index.ensure_fresh()  # the first check after the watch began still walks once
    assert index.ensure_fresh().listed == 0  # watched: nothing listed, nothing walked
    state.close()
    assert index.closed


def test_a_one_shot_answer_walks_and_starts_no_watcher(tmp_path: Path) -> None:
    state = ServerState(workspace=_tree(tmp_path))
    assert "handler_3" in _search(state, "handler_3")
    index = symbol_index(state.workspace)
    index.ensure_fresh()
    assert index.ensure_fresh().listed == 5  # every call walks the tree
    state.close()
    assert index.closed
