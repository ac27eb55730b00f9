"""An agent debugs a real Python program end to end through the MCP server (the SDK's own
Client, the `debug` toolset): launch to a breakpoint, locals, a step into a function, an
evaluation, the stack with symbol names, and the end of the server ends the program."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from debuggee import LINE_CALL, LINE_HELPER_BODY, alive, project
from mcp import Client

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server
from simple_brief.tools import TOOL_HOMES


def _text(result: Any) -> str:
    return "\n\n".join(str(block.text) for block in result.content)


@pytest.mark.anyio
async def test_an_agent_debugs_a_program_over_mcp(tmp_path: Path) -> None:
    root = project(tmp_path / "app")
    state = Served.over(Workspace.at(root), toolsets=("debug",))
    async with Client(build_server(state), raise_exceptions=True) as client:
        listed = {tool.name for tool in (await client.list_tools()).tools}
        debug_tools = {name for name, home in TOOL_HOMES.items() if home == "simple_brief.tools.debug"}
        assert len(debug_tools) == 10 and debug_tools <= listed
        with anyio.fail_after(120):
            launched = await client.call_tool(
                "debug_launch", {"program": "app.py", "breakpoints": f"app.py:{LINE_CALL}"}
            )
            sid = (launched.structured_content or {})["session_id"]
            local = await client.call_tool("debug_variables", {"session_id": sid})
            stepped = await client.call_tool("debug_step", {"session_id": sid, "kind": "in"})
            stack = await client.call_tool("debug_stack", {"session_id": sid})
            evaluated = await client.call_tool("debug_evaluate", {"session_id": sid, "expression": "x + 1"})
            pid = await client.call_tool(
                "debug_evaluate", {"session_id": sid, "expression": "__import__('os').getpid()"}
            )
            bad = await client.call_tool("debug_evaluate", {"session_id": sid, "expression": "x +"})
            unknown = await client.call_tool("debug_continue", {"session_id": "nope"})
    assert _text(launched).startswith(f"stopped at app.py:{LINE_CALL} in Function:main (breakpoint 1)")
    assert "count: int = 3" in _text(local)
    assert _text(stepped).startswith(f"stopped at app.py:{LINE_HELPER_BODY} in Function:helper (step)")
    frames = (stack.structured_content or {})["frames"]
    assert [f["symbol"] for f in frames[:2]] == ["Function:helper", "Function:main"]
    assert (evaluated.structured_content or {})["result"]["value"] == "4"
    assert bad.is_error and "is not valid Python" in _text(bad)
    assert unknown.is_error and "there is no debug session `nope`" in _text(unknown)
    program = int((pid.structured_content or {})["result"]["value"])
    assert alive(program)
    state.close()
    assert not alive(program)
