"""Errors an MCP client sees: one sentence naming the parameter, never the SDK's validation
dump, and never more than a short excerpt of what the client sent (issue 11)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from simple_brief import errors
from simple_brief import tools as registry
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.servers.mcp import build_server
from simple_brief.tools import coerce

APP = "class UserService:\n    def find_user(self, name):\n        return name\n"
HUGE = "9" * 1_000_000
#: An error answer is one line and short, whatever the client sent.
MAX_ERROR = 400


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "app.py").write_text(APP)
    return Workspace.at(tmp_path)


def error_text(result: Any) -> str:
    assert result.is_error, result
    assert len(result.content) == 1
    text: str = result.content[0].text
    assert "\n" not in text and len(text) <= MAX_ERROR, text[:1000]
    assert "validation error" not in text and "pydantic" not in text and "Error executing tool" not in text
    return text


CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "wrong type": ("search", {"query": "f", "limit": "x"}, "parameter `limit` must be a whole number, not 'x'."),
    "fraction for int": ("simple_read", {"path": "app.py", "depth": 1.5}, "parameter `depth` must be a whole number"),
    "true for text": ("search", {"query": True}, "parameter `query` must be text, not true."),
    "missing required": ("search", {"limit": 3}, "`search` needs the parameter `query` ("),
    "unknown parameter": (
        "search",
        {"query": "f", "nope": 1},
        "`search` has no parameter nope; its parameters are: query, path, limit.",
    ),
    "not in the enum": (
        "simple_read",
        {"path": "app.py", "mode": "bogus"},
        "parameter `mode` must be one of full, outline, compact, symbols, names, not 'bogus'.",
    ),
    "1 MB where an int goes": (
        "search",
        {"query": "f", "limit": HUGE},
        "parameter `limit` must be a whole number, not '999",
    ),
    "null": ("search", {"query": "f", "limit": None}, "parameter `limit` must be a whole number, not null."),
    "null for required text": ("search", {"query": None}, "parameter `query` must be text, not null."),
    "nested object": ("search", {"query": {"a": {"b": 1}}}, "parameter `query` must be text, not an object."),
    "list": ("search", {"query": ["a"]}, "parameter `query` must be text, not a list."),
}


@pytest.mark.anyio
@pytest.mark.parametrize("case", list(CASES))
async def test_bad_parameters_are_one_sentence_naming_the_parameter(workspace: Workspace, case: str) -> None:
    tool, args, expected = CASES[case]
    async with Client(build_server(Served.over(workspace))) as client:
        with anyio.fail_after(20):
            result = await client.call_tool(tool, args)
    text = error_text(result)
    assert text.startswith(expected), text
    assert text.endswith(".")


@pytest.mark.anyio
async def test_a_huge_int_string_is_named_by_an_excerpt_with_its_length(workspace: Workspace) -> None:
    async with Client(build_server(Served.over(workspace))) as client:
        with anyio.fail_after(20):
            result = await client.call_tool("search", {"query": "f", "limit": HUGE})
    text = error_text(result)
    assert text.endswith("…' (1,000,000 characters).")


@pytest.mark.anyio
async def test_an_unknown_tool_is_one_sentence_listing_the_listed_tools(workspace: Workspace) -> None:
    async with Client(build_server(Served.over(workspace, toolsets=("read",)))) as client:
        with anyio.fail_after(20):
            plain = await client.call_tool("read_everything", {})
            huge = await client.call_tool("x" * 100_000 + "\nnext line", {})
    text = error_text(plain)
    assert text.startswith("there is no tool `read_everything`; the tools are: ")
    names = text.split("the tools are: ")[1].rstrip(".").split(", ")
    assert "simple_read" in names and "docs" not in names  # only what this server lists
    long_name = error_text(huge)
    assert "(100,010 characters)" in long_name and "next line" not in long_name


@pytest.mark.anyio
async def test_a_folded_tool_names_the_call_that_replaces_it(workspace: Workspace) -> None:
    """analyze_parse/typecheck/lint and docs_examples/related became parameters (issue 18), the
    analyze_*, docs_* and refactor tools one tool each (issue 30): an agent calling an old name
    learns the new call, not "no such tool"."""
    async with Client(build_server(Served.over(workspace))) as client:
        with anyio.fail_after(20):
            answers = {
                name: error_text(await client.call_tool(name, {"path": "app.py"}))
                for name in (
                    "analyze_parse",
                    "analyze_typecheck",
                    "analyze_lint",
                    "docs_examples",
                    "docs_related",
                    "analyze_hover",
                    "analyze_calls",
                    "docs_search",
                    "docs_resolve",
                    "diagnostic_explain",
                    "refactor_extract",
                    "format_document",
                )
            }
    assert answers == {
        "analyze_parse": "`analyze_parse` is now diagnostics path=FILE only=parse (same answer).",
        "analyze_typecheck": "`analyze_typecheck` is now diagnostics path=FILE only=types (same answer).",
        "analyze_lint": "`analyze_lint` is now diagnostics path=FILE only=lint (same answer).",
        "docs_examples": "`docs_examples` is now docs action=get id=ID part=examples (same answer).",
        "docs_related": "`docs_related` is now docs action=get id=ID part=related (same answer).",
        "analyze_hover": "`analyze_hover` is now analyze what=hover path=FILE line=N col=N (same answer).",
        "analyze_calls": "`analyze_calls` is now analyze what=callers path=FILE line=N col=N (same answer; "
        "what=callees for direction=outgoing).",
        "docs_search": "`docs_search` is now docs action=search query=WORDS (same answer).",
        "docs_resolve": "`docs_resolve` is now docs action=resolve query=NAME (same answer).",
        "diagnostic_explain": "`diagnostic_explain` is now diagnostics explain=CODE (same answer).",
        "refactor_extract": "`refactor_extract` is now refactor action=extract_function path=FILE line=N col=N "
        "end_line=N end_col=N (same answer; action=extract_variable for kind=variable).",
        "format_document": "`format_document` is now refactor action=format path=FILE (same answer).",
    }


@pytest.mark.anyio
async def test_a_huge_multi_line_argument_echoed_by_a_tool_is_cut_to_an_excerpt(workspace: Workspace) -> None:
    selector = "first line\n" + "y" * 500_000
    async with Client(build_server(Served.over(workspace))) as client:
        with anyio.fail_after(20):
            missing = await client.call_tool("expand_at", {"path": "app.py", "selector": selector})
    text = error_text(missing)
    assert text.startswith("no symbol 'first line\\nyyy"), text
    assert "(500,011 characters)" in text


@pytest.mark.anyio
async def test_the_host_cuts_any_tool_message_that_echoes_an_argument(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last guard: a tool (of any toolset) that repeats what it was given in full."""
    tools = registry.load()

    def echoing(call: registry.Call, **kwargs: Any) -> registry.ToolResult:
        raise UserError(f"nothing at `{kwargs['selector']}` in {kwargs['path']!r}; try another one.")

    monkeypatch.setitem(tools, "expand_at", dataclasses.replace(tools["expand_at"], func=echoing))
    selector = "line one\nline two\x1b[2J" + "w" * 300_000
    async with Client(build_server(Served.over(workspace))) as client:
        with anyio.fail_after(20):
            result = await client.call_tool("expand_at", {"path": "p\n" * 50, "selector": selector})
    text = error_text(result)
    assert text.startswith("nothing at 'line one\\nline two\\x1b[2Jwww"), text
    assert "(300,021 characters) in 'p\\np\\n" in text and "(100 characters); try another one." in text


def test_error_text_is_one_short_line_whatever_the_message() -> None:
    from simple_brief.host.context import MAX_ERROR_CHARS
    from simple_brief.host.context import error_text as guard_error_text

    assert guard_error_text("no symbol `x`; look again.", {"selector": "x"}) == "no symbol `x`; look again."
    text = guard_error_text("a tool said:\n" + "line\n" * 10_000, {})
    assert "\n" not in text and len(text) <= MAX_ERROR_CHARS and text.endswith("(50,013 characters in all)")


@pytest.mark.anyio
async def test_stdio_answers_a_bad_parameter_in_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "simple_brief", "mcp", "--root", str(tmp_path)], env={"NVIM": ""}
    )
    async with Client(params) as client:
        with anyio.fail_after(30):
            wrong = await client.call_tool("search", {"query": "f", "limit": "x"})
            unknown = await client.call_tool("search", {"query": "f", "colour": "red"})
    assert error_text(wrong) == "parameter `limit` must be a whole number, not 'x'."
    assert error_text(unknown) == "`search` has no parameter colour; its parameters are: query, path, limit."


def test_excerpt_keeps_short_values_and_cuts_long_or_multi_line_ones() -> None:
    excerpt = errors.excerpt
    assert excerpt("x") == "'x'"
    assert excerpt("a\nb\x1b[31m") == "'a\\nb\\x1b[31m'"
    assert excerpt(12) == "12"
    long = excerpt("ab\n" * 100_000)
    assert long.startswith("'ab\\nab\\n") and long.endswith("…' (300,000 characters)")
    assert len(long) < 100 and "\n" not in long
    assert len(excerpt("\n" * 1000)) < 100  # escapes count against the excerpt's length
    assert excerpt("\u202eevil") == "'\\u202eevil'"  # bidi controls are escaped too


def test_coerce_names_a_huge_value_by_an_excerpt() -> None:
    with pytest.raises(UserError) as caught:
        limit = next(p for p in registry.get("search").params if p.name == "limit")
        coerce(limit, "1\n" * 100_000)
    message = str(caught.value)
    assert message.startswith("parameter `limit` must be a whole number, not '1\\n1\\n")
    assert message.endswith("(200,000 characters).") and len(message) < 150


@pytest.mark.anyio
async def test_what_the_sdk_schema_still_refuses_is_one_sentence_too(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind the registry's check, the SDK validates again: its refusal is one sentence as well."""
    monkeypatch.setattr(registry, "check_arguments", lambda spec, args: args)
    async with Client(build_server(Served.over(workspace))) as client:
        with anyio.fail_after(20):
            result = await client.call_tool("search", {"query": "f", "limit": "x" * 100_000})
    text = error_text(result)
    assert text.startswith("parameter `limit` is not valid (input should be a valid integer"), text
    assert text.endswith("; see the tool's input schema.")
