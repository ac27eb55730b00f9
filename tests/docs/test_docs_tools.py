"""The docs toolset: renderers on constructed items, the example grammar check, and the
five tools end to end through the MCP SDK's in-memory Client on a real workspace
(Python, Lua and Rust files with doc comments) with a real SQLite index in tmp_path."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from simple_brief.docs.index import LibraryInfo
from simple_brief.docs.indexing import RefreshStats
from simple_brief.docs.model import DocComment, DocParam, DocReturn, Example, Item
from simple_brief.docs.queries import Hit, Related
from simple_brief.files.workspace import Workspace
from simple_brief.host.served import Served
from simple_brief.index import docs_index, open_symbol_index
from simple_brief.render import docs as render
from simple_brief.render.budget import approx_tokens
from simple_brief.servers.mcp import build_server, parse_toolsets
from simple_brief.tools import docs as docs_tools
from simple_brief.tools.docs import check_example, strip_doctest

DOCS_TOOLS = {"docs"}

# --- renderers (pure: constructed items) ---------------------------------------------------

PARSE_DOC = DocComment(
    summary="Parse a configuration file into a dictionary.",
    body="Parse a configuration file into a dictionary.\n\nKeys are checked when `strict` is set.",
    params=[DocParam("path", "str", "The file to read."), DocParam("strict", "bool", "Refuse unknown keys.")],
    returns=DocReturn("dict", "The parsed settings."),
    raises=[DocParam("ValueError", "", "The file is not valid.")],
    examples=[Example('>>> parse_config("app.toml")\n{"name": "demo"}', "Read a file:", "")],
    see_also=["app.config.dump_config"],
)
PARSE = Item(
    "app.config.parse_config",
    "parse_config",
    "function",
    "app.config",
    "python",
    "app/config.py",
    3,
    "def parse_config(path: str, strict: bool = False) -> dict",
    PARSE_DOC,
)
DUMP = Item(
    "app.config.dump_config",
    "dump_config",
    "function",
    "app.config",
    "python",
    "app/config.py",
    30,
    "def dump_config(cfg: dict) -> str",
    DocComment(summary="Write settings back."),
)
MODULE = Item("app.config", "config", "module", "app", "python", "app/config.py", 1, "", DocComment("Loading."))
CLASS = Item("app.config.Config", "Config", "class", "app.config", "python", "app/config.py", 40, "class Config:")
METHOD = Item(
    "app.config.Config.get", "get", "method", "app.config", "python", "app/config.py", 44, "def get(self, k: str)"
)


def test_search_is_a_summary_line_then_one_ranked_entry_per_result_id_first() -> None:
    hits = [Hit(PARSE, 7.4123, "Parse a [configuration] file"), Hit(DUMP, 1.2, "")]
    blocks, shown = render.render_search("parse config", "workspace", hits, 10_000)
    assert shown == 2
    assert blocks == [
        'Found 2 docs items for "parse config" in workspace, best first',
        "1. app.config.parse_config · Function · app/config.py:3 · score 7.41\n"
        "   `def parse_config(path: str, strict: bool = False) -> dict`\n"
        "   Parse a [configuration] file\n"
        "2. app.config.dump_config · Function · app/config.py:30 · score 1.20\n"
        "   `def dump_config(cfg: dict) -> str`\n"
        "   Write settings back.",
    ]


def test_an_undocumented_result_shows_its_signature_once() -> None:
    # With no doc, the index's snippet falls back to the signature, already on the line above.
    blocks, _ = render.render_search("get", "workspace", [Hit(METHOD, 3.0, METHOD.signature)], 10_000)
    assert blocks[1] == "1. app.config.Config.get · Method · app/config.py:44 · score 3.00\n   `def get(self, k: str)`"


def test_search_within_a_small_budget_says_how_many_were_left_out() -> None:
    hits = [Hit(PARSE, 9.0 - i, "") for i in range(30)]
    blocks, shown = render.render_search("parse", "workspace", hits, 300)
    assert 0 < shown < 30
    assert blocks[0] == f"[{30 - shown} more left out to stay within the 300-token budget; narrow the query.]"
    assert blocks[1].startswith('Found 30 docs items for "parse"')
    assert approx_tokens("\n\n".join(blocks)) <= 300
    assert render.render_search("nothing", "workspace", [], 300)[0][0].startswith('Found 0 docs items for "nothing"')


def test_item_shows_signature_doc_fields_and_examples_not_already_in_the_body() -> None:
    text = "\n\n".join(render.render_item(PARSE, 10_000))
    assert text.splitlines()[:2] == [
        "app.config.parse_config · Function · python · app/config.py:3",
        "`def parse_config(path: str, strict: bool = False) -> dict`",
    ]
    assert "Keys are checked when `strict` is set." in text
    assert "- `path` (str): The file to read.\n- `strict` (bool): Refuse unknown keys." in text
    assert "Returns: (dict) The parsed settings." in text
    assert "- `ValueError`: The file is not valid." in text
    assert "See also: app.config.dump_config" in text
    assert 'Example 1 — Read a file:\n```python\n>>> parse_config("app.toml")' in text
    shown_in_body = Item(
        **{**PARSE.__dict__, "doc": DocComment(body="Use:\n\n```python\nf(1)\n```", examples=[Example("f(1)")])}
    )
    assert "Example 1" not in "\n\n".join(render.render_item(shown_in_body, 10_000))


def test_a_long_doc_is_cut_to_the_budget_with_a_note() -> None:
    long = Item(**{**PARSE.__dict__, "doc": DocComment(summary="Long.", body="word " * 20_000)})
    text = "\n\n".join(render.render_item(long, 500))
    assert approx_tokens(text) <= 500
    first = text.split("\n", 1)[0]
    assert first.startswith("[the doc past its first ") and first.endswith(
        "of 99,999 characters left out to stay within the 500-token budget; "
        "read the source at app/config.py:3 for the rest.]"
    ), first
    examples = [Example(f"print({n})\n" * 40) for n in range(20)]
    many = Item(**{**PARSE.__dict__, "doc": DocComment(summary="Many.", examples=examples)})
    text = "\n\n".join(render.render_item(many, 500))
    assert text.split("\n", 1)[0] == (
        "[20 examples left out to stay within the 500-token budget; "
        "docs action=get id=app.config.parse_config part=examples shows them.]"
    )
    assert "Example 1" not in text


def test_listing_nests_members_under_their_container_and_names_submodules() -> None:
    blocks, shown = render.render_listing("app.config", MODULE, [PARSE, DUMP, CLASS, METHOD], ["app.config.x"], 10_000)
    assert shown == 4
    assert blocks[0] == "Module app.config · python · app/config.py:1\nLoading.\n4 items, 1 submodule"
    assert blocks[1].splitlines() == [
        "@3 Function - parse_config `def parse_config(path: str, strict: bool = False) -> dict` — "
        "Parse a configuration file into a dictionary.",
        "@30 Function - dump_config `def dump_config(cfg: dict) -> str` — Write settings back.",
        "@40 Class - Config `class Config:`",
        "  @44 Method - get `def get(self, k: str)`",
    ]
    assert blocks[2] == "Submodules: app.config.x"


def test_a_listing_over_budget_shows_names_only_then_cuts() -> None:
    many = [Item(**{**PARSE.__dict__, "id": f"app.config.f{n}", "name": f"f{n}", "line": n + 1}) for n in range(40)]
    blocks, shown = render.render_listing("app.config", MODULE, many, [], 300)
    assert 0 < shown < 40 and blocks[0] == (
        f"[the signatures and summaries, and {40 - shown} more items, left out to stay within the 300-token "
        "budget; docs action=get id=ID shows one item, docs action=search query=… module=app.config finds others.]"
    )
    assert blocks[2].splitlines()[0] == "@1 Function - f0"
    assert approx_tokens("\n\n".join(blocks)) <= 300
    blocks, shown = render.render_listing("app.config", MODULE, many[:12], [], 300)
    assert shown == 12 and blocks[0].startswith("[the signatures and summaries left out to stay within the 300")
    assert blocks[2].splitlines()[-1] == "@12 Function - f11"


def test_resolve_related_examples_and_index_layouts() -> None:
    resolve = render.render_resolve("parse_config", [PARSE, DUMP])
    assert resolve[0].startswith("`parse_config` -> app.config.parse_config · Function · app/config.py:3\n")
    assert resolve[1].splitlines()[0] == "Alternatives (1):"
    related = render.render_related(PARSE, [Related(DUMP, "see_also", 0.9), Related(CLASS, "same_module", 0.5)], 10_000)
    assert related[1].splitlines()[0] == "1. see_also 0.90 · app.config.dump_config · Function · app/config.py:30"
    assert related[1].splitlines()[3] == "2. same_module 0.50 · app.config.Config · Class · app/config.py:40"
    checked = [
        render.CheckedExample(Example("print(1)"), "python", True),
        render.CheckedExample(Example("let x = ;", language="rust"), "rust", False, "syntax error at 1:9"),
        render.CheckedExample(Example("x", language="tml"), "tml", None, "no grammar for `tml`"),
    ]
    examples = render.render_examples(PARSE, checked, 10_000)
    assert examples[0] == "app.config.parse_config: 3 examples, 1 runnable (parse with their language's grammar)"
    assert examples[1] == "Example 1 · python · runnable\n```python\nprint(1)\n```"
    assert examples[2].startswith("Example 2 · rust · not runnable (syntax error at 1:9)\n```rust\n")
    assert examples[3].startswith("Example 3 · tml · not checked (no grammar for `tml`)")
    index = render.render_index(
        "workspace", RefreshStats(3, 2, 1, 12, 0.05, "it is corrupt"), [LibraryInfo("workspace", "/w", 3, 12)]
    )
    assert index[0] == (
        "Indexed workspace in 0.05 s: 3 files seen, 2 (re)indexed (12 items), 1 removed.\n"
        "[The docs database was rebuilt because it is corrupt; the workspace was indexed again (2 files).]"
    )
    assert index[1].splitlines()[1] == "- workspace: 3 files, 12 items · /w"


def test_item_data_is_json_ready_with_lsp_positions() -> None:
    data = render.item_data(PARSE, full=True)
    assert data["position"] == {"line": 2, "character": 0}
    assert data["params"][0] == {"name": "path", "type": "str", "doc": "The file to read."}
    assert data["returns"] == {"type": "dict", "doc": "The parsed settings."}
    assert data["doc"].startswith("Parse a configuration file")


# --- examples: runnable = parses with the language's grammar -------------------------------


@pytest.mark.parametrize(
    ("example", "language", "runnable", "problem"),
    [
        (Example("print(parse('a'))"), "python", True, ""),
        (Example("def broken(:\n    pass"), "python", False, "missing `)` at 1:12"),
        (Example('>>> x = parse("a")\n>>> if x:\n...     print(x)\nhello'), "python", True, ""),
        (Example(">>> x = (1,\n(1,)"), "python", False, "syntax error at 1:1"),
        (Example("let v = vec![1];\nassert_eq!(v[0], 1);", language="rust"), "rust", True, ""),
        (Example("# fn main() {\nlet d = 1;\n# }", language="rust,no_run"), "rust", True, ""),
        (Example("let d = distance((0.0, 0.0), ;", language="rust"), "rust", False, "missing `)` at 1:29"),
        (Example("local parts = M.split('a,b', ',')", language="lua"), "lua", True, ""),
        (Example("local x = ", language="lua"), "lua", False, "syntax error"),
        (Example("$ make test", language="console"), "console", None, "`console` is not checked"),
        (Example("let x = 1", language="tml"), "tml", None, "no grammar for `tml`"),
    ],
)
def test_check_example(example: Example, language: str, runnable: bool | None, problem: str) -> None:
    checked = check_example(example, "python")
    assert (checked.language, checked.runnable) == (language, runnable)
    assert checked.problem.startswith(problem)


def test_doctest_prompts_and_output_are_stripped() -> None:
    assert strip_doctest("    >>> a = 1\n    >>> for i in x:\n    ...     f(i)\n    out\n") == (
        "a = 1\nfor i in x:\n    f(i)\n"
    )


# --- the tools end to end: MCP in-memory Client, real index in tmp_path ----------------------

FILES = {
    "app/__init__.py": '"""Demo application."""\n',
    "app/config.py": '''"""Configuration loading for the demo app."""


def parse_config(path: str, strict: bool = False) -> dict:
    """Parse a configuration file into a dictionary.

    Args:
        path: The file to read.
        strict: Refuse unknown keys.

    Returns:
        dict: The parsed settings.

    Raises:
        ValueError: The file is not valid.

    Examples:
        >>> parse_config("app.toml")
        {'name': 'demo'}
    """
    return {}


def dump_config(settings: dict, strict: bool = False) -> str:
    """Write settings back as text."""
    return ""


class Config:
    """Settings with defaults."""

    def get(self, key: str) -> str:
        """One setting by key."""
        return key
''',
    "app/geometry.py": '''"""Plane geometry."""


def distance(a: tuple, b: tuple) -> float:
    """Distance between two points, in Python."""
    return 0.0
''',
    "lua/util.lua": """--- String helpers.
local M = {}

--- Split a string on a separator.
--- @param s string The text to split.
--- @param sep string The separator.
--- @return string[] parts The pieces.
--- @see util.join
--- @example
--- ```lua
--- local parts = M.split("a,b", ",")
--- ```
function M.split(s, sep)
  return {}
end

--- Join pieces with a separator.
--- @param parts string[] The pieces.
--- @param sep string The separator.
--- @return string joined
function M.join(parts, sep)
  return table.concat(parts, sep)
end

return M
""",
    "Cargo.toml": '[package]\nname = "geo"\nversion = "0.1.0"\n',
    "src/lib.rs": """//! Geometry helpers.

/// Returns the distance between two points.
///
/// @param a The first point
/// @param b The second point
/// @returns The Euclidean distance
/// @example
/// ```rust
/// let d = distance((0.0, 0.0), (3.0, 4.0));
/// assert_eq!(d, 5.0);
/// ```
/// @example
/// ```rust
/// let d = distance((0.0, 0.0), ;
/// ```
pub fn distance(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// A point in the plane.
pub struct Point {
    pub x: f64,
    pub y: f64,
}
""",
}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("docs-cache")


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One workspace for the module: no test writes to it."""
    base = tmp_path_factory.mktemp("docs-ws")
    for name, text in FILES.items():
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(text, encoding="utf-8")
    return base


@pytest.fixture
def state(root: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Served:
    """A fresh server state (its own session) whose index lives in the test's cache dir."""
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(cache_dir))
    return Served.over(Workspace.at(root))


def text_of(result: Any) -> str:
    return "\n\n".join(block.text for block in result.content)


async def call(state: Served, name: str, args: dict[str, Any], **kwargs: Any) -> Any:
    """One call on a new in-memory client; the session's index is closed afterwards."""
    try:
        async with Client(build_server(state), raise_exceptions=True) as client:
            with anyio.fail_after(30):
                return await client.call_tool(name, args, **kwargs)
    finally:
        state.session.close()


@pytest.mark.anyio
async def test_the_docs_toolset_lists_five_described_tools(root: Path) -> None:
    state = Served.over(Workspace.at(root), toolsets=parse_toolsets("docs"))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(10):
            tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == DOCS_TOOLS | {"server_status"}
    for name in DOCS_TOOLS:
        description = tools[name].description or ""
        assert "USE FOR" in description and "DON'T USE FOR" in description, name
        assert len(description) < 400, f"{name}'s description costs too many tokens"
        for param, prop in tools[name].input_schema["properties"].items():
            assert prop.get("description"), f"{name}.{param} has no description"
    assert tools["docs"].input_schema["required"] == ["action"]
    assert tools["docs"].input_schema["properties"]["limit"]["default"] == 10
    assert tools["docs"].input_schema["properties"]["action"]["enum"] == ["search", "get", "list", "resolve", "index"]


@pytest.mark.anyio
async def test_search_ranks_the_function_a_query_names_first(state: Served) -> None:
    result = await call(state, "docs", {"action": "search", "query": "parse_config"})
    assert not result.is_error, text_of(result)
    lines = text_of(result).splitlines()
    assert lines[0].startswith("Found ") and '"parse_config" in workspace, best first' in lines[0]
    assert lines[2] == "1. app.config.parse_config · Function · app/config.py:4 · score " + lines[2].rsplit(" ", 1)[1]
    assert lines[3] == "   `def parse_config(path: str, strict: bool = False) -> dict`"
    first = result.structured_content["results"][0]
    assert {k: first[k] for k in ("id", "name", "kind")} == {
        "id": "app.config.parse_config",
        "name": "parse_config",
        "kind": "function",
    }
    assert first["score"] > 0 and isinstance(first["snippet"], str)
    scores = [r["score"] for r in result.structured_content["results"]]
    assert scores == sorted(scores, reverse=True)
    words = await call(state, "docs", {"action": "search", "query": "split a string on a separator"})
    assert words.structured_content["results"][0]["name"] == "split"
    point = await call(state, "docs", {"action": "search", "query": "point in the plane", "kind": "struct"})
    assert [r["id"] for r in point.structured_content["results"]] == ["geo::Point"]
    rust = await call(state, "docs", {"action": "search", "query": "distance", "module": "geo"})
    assert [r["id"] for r in rust.structured_content["results"]] == ["geo::distance"]


@pytest.mark.anyio
async def test_get_gives_signature_doc_params_returns_raises_examples_and_place(state: Served) -> None:
    result = await call(state, "docs", {"action": "get", "id": "app.config.parse_config"})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["signature"] == "def parse_config(path: str, strict: bool = False) -> dict"
    assert data["doc"].startswith("Parse a configuration file into a dictionary.")
    assert [(p["name"], p["doc"]) for p in data["params"]] == [
        ("path", "The file to read."),
        ("strict", "Refuse unknown keys."),
    ]
    assert data["returns"]["type"] == "dict" and "parsed settings" in data["returns"]["doc"]
    assert [r["name"] for r in data["raises"]] == ["ValueError"]
    assert 'parse_config("app.toml")' in data["examples"][0]["code"]
    assert data["file"] == "app/config.py:4"
    text = text_of(result)
    assert text.startswith("app.config.parse_config · Function · python · app/config.py:4\n`def parse_config(")
    assert "- `path`: The file to read." in text
    rust = await call(state, "docs", {"action": "get", "id": "geo::distance"})
    assert [p["name"] for p in rust.structured_content["params"]] == ["a", "b"]
    assert rust.structured_content["returns"]["doc"] == "The Euclidean distance"


@pytest.mark.anyio
async def test_list_gives_the_module_doc_items_and_submodules(state: Served) -> None:
    result = await call(state, "docs", {"action": "list", "module": "app.config"})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["module"]["doc"].startswith("Configuration loading for the demo app.")
    ids = [i["id"] for i in data["items"]]
    assert {"app.config.parse_config", "app.config.dump_config", "app.config.Config"} <= set(ids)
    parse = next(i for i in data["items"] if i["id"] == "app.config.parse_config")
    assert parse["summary"] == "Parse a configuration file into a dictionary."
    assert "@4 Function - parse_config `def parse_config(" in text_of(result)
    package = await call(state, "docs", {"action": "list", "module": "app"})
    assert {"app.config", "app.geometry"} <= set(package.structured_content["submodules"])


@pytest.mark.anyio
async def test_resolve_gives_the_best_item_and_the_alternatives(state: Served) -> None:
    result = await call(state, "docs", {"action": "resolve", "query": "distance", "context": "app.geometry"})
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert (data["id"], data["kind"]) == ("app.geometry.distance", "function")
    assert "geo::distance" in [a["id"] for a in data["alternatives"]]
    assert text_of(result).startswith("`distance` -> app.geometry.distance · Function · app/geometry.py:4")
    assert "Alternatives (" in text_of(result)
    rust = await call(state, "docs", {"action": "resolve", "query": "distance", "context": "src/lib.rs"})
    assert rust.structured_content["id"] == "geo::distance"


@pytest.mark.anyio
async def test_examples_are_runnable_when_they_parse_and_not_when_broken(state: Served) -> None:
    rust = await call(state, "docs", {"action": "get", "id": "geo::distance", "part": "examples"})
    assert not rust.is_error, text_of(rust)
    examples = rust.structured_content["examples"]
    assert [(e["language"], e["runnable"]) for e in examples] == [("rust", True), ("rust", False)]
    assert "assert_eq!(d, 5.0);" in examples[0]["code"]
    assert examples[1]["problem"].startswith("missing `)` at 1:") or examples[1]["problem"].startswith("syntax")
    assert "Example 2 · rust · not runnable (" in text_of(rust)
    doctest = await call(state, "docs", {"action": "get", "id": "app.config.parse_config", "part": "examples"})
    assert [e["runnable"] for e in doctest.structured_content["examples"]] == [True]
    lua = await call(state, "docs", {"action": "get", "id": "util.split", "part": "examples"})
    assert [(e["language"], e["runnable"]) for e in lua.structured_content["examples"]] == [("lua", True)]


@pytest.mark.anyio
async def test_related_items_come_with_reasons_and_relevance(state: Served) -> None:
    result = await call(state, "docs", {"action": "get", "id": "app.config.parse_config", "part": "related"})
    assert not result.is_error, text_of(result)
    related = result.structured_content["related"]
    by_id = {r["id"]: r for r in related}
    assert by_id["app.config.dump_config"]["reason"] in ("same_module", "similar_signature")
    assert all(0 <= r["relevance"] <= 1 for r in related)
    assert [r["relevance"] for r in related] == sorted((r["relevance"] for r in related), reverse=True)
    lua = await call(state, "docs", {"action": "get", "id": "util.split", "part": "related"})
    assert {"id": "util.join", "reason": "see_also"}.items() <= lua.structured_content["related"][0].items()
    assert text_of(lua).splitlines()[2].startswith("1. see_also ")


@pytest.mark.anyio
async def test_errors_are_one_sentence_naming_the_closest_ids(state: Served) -> None:
    async with Client(build_server(state)) as client:
        with anyio.fail_after(30):
            unknown = await client.call_tool("docs", {"action": "get", "id": "app.config.parse_confg"})
            empty = await client.call_tool("docs", {"action": "search", "query": "   "})
            no_module = await client.call_tool("docs", {"action": "list", "module": "app.nothing"})
            no_library = await client.call_tool("docs", {"action": "search", "query": "x", "library": "ruby"})
            bare = await client.call_tool("docs", {"action": "get", "id": "dump_config"})
    state.session.close()
    assert unknown.is_error and len(unknown.content) == 1
    assert text_of(unknown).startswith("no docs item has the id `app.config.parse_confg`; closest ids: ")
    assert "`app.config.parse_config`" in text_of(unknown) and "\n" not in text_of(unknown)
    assert empty.is_error
    assert text_of(empty) == (
        "parameter `query` is missing or empty; give words to search the documentation for, e.g. `parse config file`."
    )
    assert no_module.is_error and text_of(no_module).startswith("no docs item has the module id `app.nothing`")
    assert no_library.is_error and text_of(no_library).startswith("library `ruby` is not indexed; ")
    # A bare name that means one item is answered, with a note saying its full id.
    assert not bare.is_error
    assert text_of(bare).startswith("[`dump_config` is not a full id; showing app.config.dump_config.]")


@pytest.mark.anyio
async def test_the_workspace_keeps_one_open_index_across_calls(state: Served) -> None:
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(30):
            await client.call_tool("docs", {"action": "search", "query": "split"})
            first = docs_index(state.workspace)
            await client.call_tool("docs", {"action": "get", "id": "util.split"})
    workspace = state.workspace
    assert docs_index(workspace) is first
    state.close()
    assert open_symbol_index(workspace) is None


@pytest.mark.anyio
async def test_indexing_sends_mcp_progress_notifications(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(cache_dir))
    for n in range(30):
        (tmp_path / f"mod{n}.py").write_text(f'def f{n}():\n    """Function number {n}."""\n')
    received: list[tuple[float, float | None, str | None]] = []
    finished = anyio.Event()

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, total, message))
        if total is not None and progress >= total:
            finished.set()

    state = Served.over(Workspace.at(tmp_path))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(30):
            result = await client.call_tool("docs", {"action": "index"}, progress_callback=on_progress)
            # The SDK runs progress callbacks as tasks of their own: the last may land after the result.
            await finished.wait()
    state.session.close()
    assert not result.is_error, text_of(result)
    assert result.structured_content["files_indexed"] == 30
    assert received[-1][:2] == (30, 30)
    assert str(received[-1][2]).startswith("indexing mod")  # the index says what it is reading
    assert [p for p, _, _ in received] == sorted(p for p, _, _ in received)
    assert "s: 30 files seen, 30 (re)indexed (60 items), 0 removed." in text_of(result).splitlines()[0]


@pytest.mark.anyio
async def test_a_folder_library_is_indexed_and_searched_alone(
    tmp_path: Path, root: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(cache_dir))
    vendor = tmp_path / "vendorlib"
    vendor.mkdir()
    (tmp_path / "user.toml").write_text(f'[docs]\nfolders = ["{vendor}"]\n', encoding="utf-8")
    monkeypatch.setenv("SIMPLE_BRIEF_CONFIG", str(tmp_path / "user.toml"))  # only listed folders are indexed
    (vendor / "strings.py").write_text('def split_words(text: str) -> list:\n    """Split text into words."""\n')
    state = Served.over(Workspace.at(root))
    async with Client(build_server(state), raise_exceptions=True) as client:
        with anyio.fail_after(30):
            indexed = await client.call_tool("docs", {"action": "index", "library": str(vendor)})
            alone = await client.call_tool("docs", {"action": "search", "query": "split", "library": "vendorlib"})
            together = await client.call_tool("docs", {"action": "search", "query": "split"})
    state.session.close()
    assert indexed.structured_content["library"] == "vendorlib"
    assert indexed.structured_content["files_indexed"] == 1
    assert text_of(indexed).startswith("Indexed vendorlib in ")
    assert [r["id"] for r in alone.structured_content["results"]] == ["strings.split_words"]
    assert text_of(alone).startswith('Found 1 docs item for "split" in vendorlib, best first')
    assert {"strings.split_words", "util.split"} <= {r["id"] for r in together.structured_content["results"]}
    assert "[vendorlib]" in text_of(together)  # items outside the workspace say where they come from


@pytest.mark.anyio
async def test_a_small_budget_cuts_results_and_says_how_to_get_the_rest(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIMPLE_BRIEF_CACHE_DIR", str(cache_dir))
    for n in range(20):
        (tmp_path / f"conv{n}.py").write_text(f'def convert_{n}(x: int) -> str:\n    """Convert value {n}."""\n')
    state = Served.over(Workspace.at(tmp_path), budget=150)
    result = await call(state, "docs", {"action": "search", "query": "convert value", "limit": 20})
    assert not result.is_error, text_of(result)
    truncated = result.structured_content["truncated"]
    shown = 20 - truncated
    assert 0 < truncated < 20 and len(result.structured_content["results"]) == shown
    assert result.structured_content["next_offset"] == shown
    assert text_of(result).split("\n", 1)[0] == (
        f"[{truncated} more left out to stay within the 150-token budget; the next ones: "
        f"docs action=search query=convert value offset={shown} limit={shown}.]"
    )
    rest = await call(state, "docs", {"action": "search", "query": "convert value", "offset": shown, "limit": shown})
    next_ids = [r["id"] for r in rest.structured_content["results"]]
    assert next_ids and not set(next_ids) & {r["id"] for r in result.structured_content["results"]}
    assert f"best first from rank {shown + 1}" in text_of(rest) and f"\n{shown + 1}. " in text_of(rest)


@pytest.mark.anyio
async def test_concurrent_calls_share_one_index_safely(state: Served) -> None:
    """The MCP server runs each call on a worker thread: the first calls race to open the index."""
    results: dict[int, Any] = {}
    queries = ["split", "distance", "parse config", "point", "join pieces", "settings"]
    async with Client(build_server(state), raise_exceptions=True) as client:

        async def one(n: int) -> None:
            results[n] = await client.call_tool("docs", {"action": "search", "query": queries[n]})

        with anyio.fail_after(30):
            async with anyio.create_task_group() as group:
                for n in range(len(queries)):
                    group.start_soon(one, n)
    state.session.close()
    for n, result in results.items():
        assert not result.is_error, text_of(result)
        assert result.structured_content["results"], queries[n]


def test_a_note_about_the_index_and_a_cut_share_the_first_line() -> None:
    """The index's own note (not refreshed, rebuilt, stopped) stays first; a cut of the answer
    is said on the same line, so both are read before anything else."""
    hits = [Hit(PARSE, 9.0 - i, "") for i in range(30)]
    blocks, _ = render.render_search("parse", "workspace", hits, 300)
    note = "[Not refreshed: another process is indexing.]"
    cut = docs_tools._answer([note], blocks, {})
    assert cut.text.split("\n", 1)[0] == f"{note} {blocks[0]}"
    whole, _ = render.render_search("parse", "workspace", hits[:2], 300)
    assert docs_tools._answer([note], whole, {}).blocks == [note, *whole]
