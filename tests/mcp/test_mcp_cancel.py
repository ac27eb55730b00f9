"""An abandoned MCP call stops its work: a cancelled request or a client that goes away
sets the call's cancellation flag, and the tool's worker thread stops at its next check
instead of running to completion (issue 11)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief import tools as registry
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.index import SymbolIndex
from simple_brief.servers.mcp import build_server

FILES = 3000


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def big_tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Workspace:
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(tmp_path / "cache"))
    for i in range(FILES):
        folder = tmp_path / f"pkg{i // 100}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod{i}.py").write_text(f"def handler_{i}(x):\n    return x\n")
    return Workspace.at(tmp_path)


@dataclasses.dataclass
class Watch:
    """Counts files the search indexes, holds it after the first chunk, and sees the tool end."""

    scanned: int = 0
    reached: threading.Event = dataclasses.field(default_factory=threading.Event)
    release: threading.Event = dataclasses.field(default_factory=threading.Event)
    finished: threading.Event = dataclasses.field(default_factory=threading.Event)
    outcome: str = ""


@pytest.fixture
def watch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Watch]:
    seen = Watch()
    store = SymbolIndex._store

    def counting_store(self: SymbolIndex, parsed: list[Any], stats: Any) -> None:
        seen.scanned += len(parsed)
        if not seen.reached.is_set():
            seen.reached.set()
            assert seen.release.wait(10), "the test never released the index"
        store(self, parsed, stats)

    monkeypatch.setattr(SymbolIndex, "_store", counting_store)
    tools = registry.load()
    search = tools["search"]

    def watched(call: registry.Call, **kwargs: Any) -> registry.ToolResult:
        try:
            result = search.func(call, **kwargs)
        except BaseException as err:
            seen.outcome = type(err).__name__
            raise
        else:
            seen.outcome = "completed"
            return result
        finally:
            seen.finished.set()

    monkeypatch.setitem(tools, "search", dataclasses.replace(search, func=watched))
    yield seen
    seen.release.set()


async def _wait(event: threading.Event) -> bool:
    return await anyio.to_thread.run_sync(event.wait, 10)


async def _abandon(start: Callable[[], Coroutine[Any, Any, None]], watch: Watch) -> None:
    """Run `start` in a task, cancel the task once the index stored its first chunk, and let it go on."""
    with anyio.fail_after(30):
        async with anyio.create_task_group() as group:
            group.start_soon(start)
            assert await _wait(watch.reached), "the search never started scanning"
            group.cancel_scope.cancel()
            watch.release.set()
        assert await _wait(watch.finished), "the search's worker thread did not end"


@pytest.mark.anyio
async def test_a_cancelled_search_stops_scanning_files(big_tree: Workspace, watch: Watch) -> None:
    async with Client(build_server(Served.over(big_tree, toolsets=("read",)))) as client:

        async def search() -> None:
            await client.call_tool("search", {"query": "handler"})

        await _abandon(search, watch)
        # The session is still usable after a cancelled call.
        with anyio.fail_after(10):
            status = await client.call_tool("server_status", {})
    assert not status.is_error
    assert watch.outcome == "Cancelled"
    assert watch.scanned < FILES // 2, f"the scan went on to {watch.scanned} of {FILES} files"


@pytest.mark.anyio
async def test_a_client_that_goes_away_stops_the_search(big_tree: Workspace, watch: Watch) -> None:
    server = build_server(Served.over(big_tree, toolsets=("read",)))

    async def connect_and_search() -> None:
        async with Client(server) as client:
            await client.call_tool("search", {"query": "handler"})

    await _abandon(connect_and_search, watch)
    assert watch.outcome == "Cancelled"
    assert watch.scanned < FILES // 2, f"the scan went on to {watch.scanned} of {FILES} files"


def test_a_cancelled_call_raises_at_its_next_check_and_progress_report(tmp_path: Path) -> None:
    reports: list[str] = []
    call = registry.Call(Workspace.at(tmp_path), progress=lambda done, total, message: reports.append(message))
    call.report(1, 2, "indexing")
    call.check_cancelled()
    call.cancelled.set()
    with pytest.raises(registry.Cancelled):
        call.check_cancelled()
    with pytest.raises(registry.Cancelled):
        call.report(2, 2, "indexing")
    assert reports == ["indexing"]


@pytest.mark.anyio
async def test_a_cancelled_call_over_http_stops_the_search(big_tree: Workspace, watch: Watch, tmp_path: Path) -> None:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    from simple_brief.servers.mcp import serve_http_thread

    server = serve_http_thread(Served.over(big_tree, toolsets=("read",)), tmp_path / "state")
    try:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {server.token}"})
        async with Client(streamable_http_client(server.url, http_client=http)) as client:

            async def search() -> None:
                await client.call_tool("search", {"query": "handler"})

            await _abandon(search, watch)
    finally:
        server.stop()
    assert watch.outcome == "Cancelled"
    assert watch.scanned < FILES // 2, f"the scan went on to {watch.scanned} of {FILES} files"
