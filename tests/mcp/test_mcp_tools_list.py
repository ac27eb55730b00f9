"""tools/list is paid for on every turn: input schemas carry no pydantic titles and an
optional parameter is its plain type (no `anyOf [T, null]`, no `default: null`), and calls
with and without the optional parameter still work (the SDK's own Client)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for value in node.values() for k in _keys(value)}
    if isinstance(node, list):
        return {k for item in node for k in _keys(item)}
    return set()


@pytest.mark.anyio
async def test_lean_schemas_and_calls_with_and_without_an_optional_parameter(tmp_path: Path) -> None:
    (tmp_path / "app.lua").write_text("local function greet(name)\n  return name\nend\n", encoding="utf-8")
    state = Served.over(Workspace.at(tmp_path))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(30):
            tools = {t.name: t for t in (await client.list_tools()).tools}
            plain = await client.call_tool("expand_at", {"path": "app.lua", "selector": "greet"})
            typed = await client.call_tool("expand_at", {"path": "app.lua", "selector": "greet", "filetype": "lua"})
    state.close()
    schemas = [t.input_schema for t in tools.values()]
    assert "title" not in _keys(schemas) and "anyOf" not in _keys(schemas)
    assert tools["expand_at"].input_schema["properties"]["filetype"] == {
        "description": "Default: from the file name.",
        "type": "string",
    }
    assert "null" not in json.dumps(schemas)
    # An optional flag is off when left out: its `default: false` would only cost tokens.
    assert tools["expand_at"].input_schema["properties"]["context"] == {
        "description": "Also its class headers, fields, nearby signatures, imports used.",
        "type": "boolean",
    }
    for answer in (plain, typed):
        assert not answer.is_error
        assert "greet" in answer.content[0].text  # type: ignore[union-attr]
