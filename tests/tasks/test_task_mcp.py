"""An agent builds, tests (filtered), reads coverage and profiles a real project through
the MCP server (the SDK's own Client, the `tasks` toolset), with progress notifications
while the tests run and structured answers beside the text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from projects import declare, python_project, python_tasks

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server


@pytest.mark.anyio
async def test_an_agent_tests_covers_and_profiles_a_project_over_mcp(tmp_path: Path) -> None:
    root = python_project(tmp_path / "calc")
    declare(root, python_tasks())
    state = Served.over(Workspace.at(root), toolsets=("tasks",))
    progress: list[tuple[float, float | None, str | None]] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append((done, total, message))

    async with Client(build_server(state), raise_exceptions=True) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        assert {"build_compile", "test_run", "test_list", "test_coverage", "profile_run", "profile_hotspots"} <= listed
        with anyio.fail_after(240):
            tests = await client.call_tool("test_run", {"filter": "test_calc"}, progress_callback=on_progress)
            coverage = await client.call_tool("test_coverage", {"path": "calc.py"})
            profile = await client.call_tool("profile_run", {"file": "profiled.py"})
            report_id = profile.structured_content["report_id"]  # type: ignore[index]
            hot = await client.call_tool("profile_hotspots", {"report_id": report_id, "limit": 2})
            undeclared = await client.call_tool("build_compile", {})
    state.close()
    data: dict[str, Any] = tests.structured_content or {}
    assert (data["passed"], data["failed"], data["skipped"]) == (2, 2, 1)
    assert "2 passed, 2 failed, 1 skipped" in tests.content[0].text  # type: ignore[union-attr]
    assert progress, "no progress notification while the tests ran"
    assert (coverage.structured_content or {})["file"]["missing_lines"] == [13, 14, 15]
    assert (hot.structured_content or {})["functions"][0]["name"].endswith("slow_sum")
    assert not undeclared.is_error
    assert "No `build` task is declared" in undeclared.content[0].text  # type: ignore[union-attr]
