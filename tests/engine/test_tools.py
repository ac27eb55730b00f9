"""The read tools through the registry: selectors, budgets, parameters, diagnostics."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

import pytest

from simple_brief import languages
from simple_brief import tools as registry
from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.render.table import RANGE_NOTE
from simple_brief.scan import scan
from simple_brief.tools import Call, Doc, ToolResult, invoke, load, tool

APP = '''"""An app."""
import os

LIMIT = 10


class Cache:
    """Keeps things."""

    def __init__(self):
        self.items = {}

    def get(self, key):
        return self.items.get(key)


class Store:
    def get(self, key):
        return None

    def put(self, key, value):
        pass


def get_user(name):
    return name
'''


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    (tmp_path / "app.py").write_text(APP)
    return Workspace.at(tmp_path)


def run(ws: Workspace, name: str, budget: int = 10_000, **args: object) -> tuple[str, dict]:
    result = invoke(name, dict(args), Call(ws, budget))
    return result.text, result.data


def test_registry_lists_the_read_toolset_with_described_parameters() -> None:
    tools = load()
    assert {"simple_read", "expand_at", "document_symbols", "search", "diagnostics"} <= set(tools)
    for t in tools.values():
        assert "USE FOR" in t.description and "DON'T USE FOR" in t.description, t.name
        schema = t.input_schema()
        assert all(prop["description"] for prop in schema["properties"].values()), t.name


def test_expand_by_dotted_name_and_by_line(ws: Workspace) -> None:
    text, data = run(ws, "expand_at", path="app.py", selector="Store.get")
    assert text.splitlines()[0] == "F_ def get(self, key): L18-19"
    assert data["name"] == "get" and data["range"]["start"]["line"] == 17
    text, _ = run(ws, "expand_at", path="app.py", selector="line:22")
    assert text.startswith("F_ def put(self, key, value): L21-22")


def test_expand_line_outside_every_definition_says_where_they_are(ws: Workspace) -> None:
    with pytest.raises(UserError, match=r"no definition contains line 2 of app.py; definitions are at line:4"):
        run(ws, "expand_at", path="app.py", selector="line:2")


def test_ambiguous_name_lists_candidates(ws: Workspace) -> None:
    with pytest.raises(UserError) as err:
        run(ws, "expand_at", path="app.py", selector="get")
    assert "Cache.get (line:13)" in str(err.value) and "Store.get (line:18)" in str(err.value)


def test_unknown_name_suggests_nearby_names(ws: Workspace) -> None:
    with pytest.raises(UserError, match=r"nearby names: .*get_user"):
        run(ws, "expand_at", path="app.py", selector="get_usr")


def test_expand_what_signature_includes_the_doc(ws: Workspace) -> None:
    text, _ = run(ws, "expand_at", path="app.py", selector="Cache", what="signature")
    assert text == "C> class Cache { items, 2 methods } L7-14\n  # Keeps things."


def test_simple_read_default_is_full_source(ws: Workspace) -> None:
    text, data = run(ws, "simple_read", path="app.py")
    assert data["mode"] == "full"
    assert text.splitlines()[0] == "app.py (python, 26 lines) full"
    assert text.endswith("def get_user(name):\n    return name")


def test_budget_degrades_full_to_outline_and_says_so(tmp_path: Path) -> None:
    body = "".join(f"    total = total + {i} * value  # step {i}\n" for i in range(80))
    (tmp_path / "long.py").write_text(f"def accumulate(value):\n    total = 0\n{body}    return total\n")
    text, data = run(Workspace.at(tmp_path), "simple_read", budget=300, path="long.py", mode="full")
    assert data["mode"] == "outline" and data["degraded_from"] == "full"
    assert text.startswith("[full view is ~")
    assert "expand_at" in text.splitlines()[0]
    assert text.splitlines()[-1] == "F> def accumulate(value) { ... } L1-83"


def test_budget_degrades_to_counts_when_even_compact_is_too_big(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("".join(f"def f{i}(x):\n    return x\n\n" for i in range(400)))
    text, data = run(Workspace.at(tmp_path), "simple_read", budget=100, path="big.py", mode="outline")
    assert data["mode"] == "counts"
    assert "400 Function" in text


def test_symbols_mode_leaves_out_blocks_past_the_budget(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("".join(f"class C{i}:\n    def m(self):\n        pass\n" for i in range(300)))
    text, data = run(Workspace.at(tmp_path), "simple_read", budget=300, path="big.py", mode="symbols")
    assert data["truncated"] > 0
    assert "more blocks left out to stay within the 300-token budget" in text


def test_parameters_are_checked_with_one_sentence(ws: Workspace) -> None:
    with pytest.raises(UserError, match="parameter `mode` must be one of full, outline, compact, symbols"):
        run(ws, "simple_read", path="app.py", mode="tiny")
    with pytest.raises(UserError, match="parameter `depth` must be a whole number"):
        run(ws, "simple_read", path="app.py", depth="deep")
    with pytest.raises(UserError, match="has no parameter colour"):
        run(ws, "simple_read", path="app.py", colour="red")
    with pytest.raises(UserError, match="needs the parameter `path`"):
        run(ws, "simple_read")
    with pytest.raises(UserError, match="there is no tool `read_everything`"):
        run(ws, "read_everything")


def test_document_symbols_table_says_its_positions_are_one_based(ws: Workspace) -> None:
    text, data = run(ws, "document_symbols", path="app.py")
    assert text.splitlines()[0] == f"app.py symbols (positions 1-based line:col; {RANGE_NOTE})"
    assert "get_user | 12 | 25:1-26:15 | 25:5-12 |  | def get_user(name) | <<<" in text
    assert data["symbols"][-1]["range"]["start"] == {"line": 24, "character": 0}


def test_search_ranks_exact_names_first(ws: Workspace, tmp_path: Path) -> None:
    (tmp_path / "more.py").write_text("def get_user_by_email(e):\n    pass\n\ndef getUser():\n    pass\n")
    _, data = run(ws, "search", query="get_user")
    names = [m["name"] for m in data["matches"]]
    assert names[:2] == ["get_user", "getUser"]
    assert "get_user_by_email" in names


def test_search_respects_gitignore(ws: Workspace, tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("generated/\n")
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "gen.py").write_text("def get_user():\n    pass\n")
    _, data = run(ws, "search", query="get_user")
    assert [m["path"] for m in data["matches"]] == ["app.py"]


def test_diagnostics_groups_syntax_errors_by_file(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text("def f(:\n    pass\n")
    text, data = run(Workspace.at(tmp_path), "diagnostics")
    lines = text.splitlines()
    # Across files only the grammar's hints (no checker runs per file of a folder), and it says so.
    assert lines[0] == "1 diagnostic in 1 file (0E 0W 1H)"
    assert lines[2] == "bad.py (1)"
    assert lines[3] == "  1:7 H H003 the grammar could not read line 1 (it expected `)`)"
    assert lines[5] == "[syntax is judged one file at a time: diagnostics path=FILE]"
    assert list(data["files"]) == ["bad.py"]


def test_fallback_reads_brace_delimited_code() -> None:
    src = (
        "fn square(x: i64) -> i64 {\n    x * x\n}\n\nstruct Point {\n    x: i64,\n    y: i64,\n}\n\n"
        "enum Color {\n    Red,\n    Green,\n    Blue,\n}\n\nimpl Point {\n    fn norm(self) -> i64 {\n"
        "        0\n    }\n}\n"
    )
    # A language with no grammar: the line heuristic reads it.
    outline = scan(src, languages.LanguageSpec("braces", (".braces",), comment="//"))
    from simple_brief.render.blockmarks import render_outline

    assert render_outline(outline, [], depth=1).splitlines() == [
        "F> fn square(x: i64) -> i64 { ... } L1-3",
        "S> struct Point { x, y } L5-8",
        "E> enum Color { Red, Green, Blue } L10-14",
        "C> impl Point { 1 method } L16-20",
    ]


def test_outline_degrades_to_compact_top_level_not_to_another_mode(tmp_path: Path) -> None:
    body = "".join(f"    def m{i}(self, value):\n        return value + {i}\n\n" for i in range(40))
    (tmp_path / "wide.py").write_text(f"class Wide:\n{body}")
    text, data = run(Workspace.at(tmp_path), "simple_read", budget=150, path="wide.py", mode="outline")
    assert (data["mode"], data["degraded_from"]) == ("compact", "outline")
    assert text.splitlines()[-1] == "C> class Wide { 40 methods } L1-120"


def test_a_full_name_wins_over_a_method_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / "jobs.py").write_text("class Job:\n    def run(self):\n        pass\n\n\ndef run():\n    pass\n")
    text, _ = run(Workspace.at(tmp_path), "expand_at", path="jobs.py", selector="run")
    assert text.startswith("F_ def run(): L6-7")


# --- a tool's parameters are declared once, in its signature ------------------------------

Count = Annotated[int, Doc("How many, at least 1.")]


def _sample(
    call: Call,
    name: Annotated[str, Doc("A name.")],
    colour: Annotated[Literal["red", "green"], Doc("Which colour.")] = "red",
    count: Count = 3,
    exact: Annotated[bool, Doc("Match exactly.")] = False,
    ratio: Annotated[float | None, Doc("A share, 0 to 1.")] = None,
    note: Annotated[str, Doc("A note.")] | None = None,
) -> ToolResult:
    return ToolResult([f"{name} {colour} {count} {exact} {ratio} {note}"])


def _undescribed(call: Call, name: str) -> ToolResult:
    return ToolResult([name])


def _default_outside_choices(call: Call, colour: Annotated[Literal["red"], Doc("c")] = "blue") -> ToolResult:
    return ToolResult([colour])


def _default_of_another_type(call: Call, count: Annotated[int, Doc("c")] = "3") -> ToolResult:
    return ToolResult([str(count)])


def _optional_without_none(call: Call, name: Annotated[str | None, Doc("n")] = "x") -> ToolResult:
    return ToolResult([str(name)])


def _none_without_optional(call: Call, name: Annotated[str, Doc("n")] = None) -> ToolResult:  # noqa: RUF013
    return ToolResult([name])


def _a_list(call: Call, names: Annotated[list[str], Doc("n")]) -> ToolResult:
    return ToolResult(names)


@pytest.fixture
def own_registry(monkeypatch: pytest.MonkeyPatch) -> dict[str, registry.Tool]:
    """An empty registry for tools a test declares (the real one is left as it was)."""
    fresh: dict[str, registry.Tool] = {}
    monkeypatch.setattr(registry, "REGISTRY", fresh)
    monkeypatch.setattr(registry, "TOOL_MODULES", ())
    return fresh


def test_a_tools_schema_and_coercion_come_from_its_signature(
    own_registry: dict[str, registry.Tool], ws: Workspace
) -> None:
    tool("sample", "read", "A sample. USE FOR: tests. DON'T USE FOR: anything else.")(_sample)
    spec = own_registry["sample"]
    assert spec.input_schema() == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "A name."},
            "colour": {"type": "string", "description": "Which colour.", "enum": ["red", "green"], "default": "red"},
            "count": {"type": "integer", "description": "How many, at least 1.", "default": 3},
            "exact": {"type": "boolean", "description": "Match exactly.", "default": False},
            "ratio": {"type": "number", "description": "A share, 0 to 1."},
            "note": {"type": "string", "description": "A note."},
        },
        "required": ["name"],
        "additionalProperties": False,
    }
    assert [(p.name, p.type, p.required, p.choices) for p in spec.params] == [
        ("name", str, True, ()),
        ("colour", str, False, ("red", "green")),
        ("count", int, False, ()),
        ("exact", bool, False, ()),
        ("ratio", float, False, ()),
        ("note", str, False, ()),
    ]
    # CLI strings and JSON values alike become the declared types; left out: the Python default.
    args: dict[str, Any] = {"name": "x", "count": "7", "exact": "yes", "ratio": "0.5"}
    assert invoke("sample", args, Call(ws)).text == "x red 7 True 0.5 None"
    given: dict[str, Any] = {"name": "y", "colour": "green", "note": None}
    assert invoke("sample", given, Call(ws)).text == "y green 3 False None None"
    with pytest.raises(UserError, match=r"^parameter `colour` must be one of red, green, not 'blue'\.$"):
        invoke("sample", {"name": "x", "colour": "blue"}, Call(ws))
    with pytest.raises(UserError, match=r"^parameter `count` must be a whole number, not 'many'\.$"):
        invoke("sample", {"name": "x", "count": "many"}, Call(ws))
    with pytest.raises(UserError, match=r"^`sample` needs the parameter `name` \(A name\.\)\.$"):
        invoke("sample", {}, Call(ws))
    with pytest.raises(UserError, match=r"^parameter `exact` must be true or false, not null\.$"):
        invoke("sample", {"name": "x", "exact": None}, Call(ws))


@pytest.mark.parametrize(
    ("func", "problem"),
    [
        (_undescribed, "parameter `name` needs one description: Annotated[type, Doc(...)]"),
        (_default_outside_choices, "the default of `colour` is not one of its values: 'blue'"),
        (_default_of_another_type, "the default of `count` is not one of its values: '3'"),
        (_optional_without_none, "parameter `name` is optional exactly when it is `X | None = None`"),
        (_none_without_optional, "parameter `name` is optional exactly when it is `X | None = None`"),
        (_a_list, "parameter `names` must be str, int, bool, float or a Literal of strings"),
    ],
)
def test_a_declaration_the_schema_cannot_say_is_refused_at_registration(
    own_registry: dict[str, registry.Tool], func: Any, problem: str
) -> None:
    with pytest.raises(TypeError) as refused:
        tool("bad", "read", "Bad.")(func)
    assert str(refused.value) == f"tool `bad`: {problem}."
    assert own_registry == {}


PATH_IN_ROOT = "File."


@pytest.mark.parametrize(
    ("name", "schema"),
    [
        (
            "simple_read",
            {
                "path": {
                    "type": "string",
                    "description": "File.",
                },
                "mode": {
                    "type": "string",
                    "description": "outline: definitions folded; compact: one diagnostics line; symbols: a list; "
                    "names: the cheapest.",
                    "enum": ["full", "outline", "compact", "symbols", "names"],
                    "default": "full",
                },
                "depth": {
                    "type": "integer",
                    "description": "Nesting levels shown (1: top); 0: all.",
                    "default": 0,
                },
                "preview": {
                    "type": "string",
                    "description": "mode=symbols: what each shows.",
                    "enum": ["none", "signature", "expanded"],
                    "default": "none",
                },
                "filetype": {
                    "type": "string",
                    "description": "Default: from the file name.",
                },
            },
        ),
        (
            "analyze",
            {
                "what": {
                    "type": "string",
                    "description": "What to ask.",
                    "enum": ["hover", "definition", "references", "callers", "callees", "completion"],
                },
                "path": {"type": "string", "description": PATH_IN_ROOT},
                "line": {"type": "integer", "description": "1-based."},
                "col": {"type": "integer", "description": "1-based, characters."},
                "include_declaration": {
                    "type": "boolean",
                    "description": "references: with the definition.",
                    "default": True,
                },
                "offset": {"type": "integer", "description": "Items to skip.", "default": 0},
                "limit": {"type": "integer", "description": "Items per page; default 50 (completion 30)."},
            },
        ),
        (
            "workspace_files",
            {
                "id": {
                    "type": "string",
                    "description": "A workspace id from workspace_open (ws1, ...); default: the server's whole root.",
                },
                "under": {
                    "type": "string",
                    "description": "Only this folder (relative to the server's root); default: the whole workspace.",
                },
                "pattern": {
                    "type": "string",
                    "description": "A .gitignore-style glob the relative path must match (`*.py` at any depth, "
                    "`/docs/*.md`, `src/**/x.ts`); with a pattern every file kind is listed, not only source.",
                },
                "all_files": {
                    "type": "boolean",
                    "description": "Also list files of no known language (text, config, data).",
                    "default": False,
                },
                "offset": {
                    "type": "integer",
                    "description": "Skip this many files (to page through a long list).",
                    "default": 0,
                },
                "limit": {"type": "integer", "description": "Most files listed.", "default": 500},
            },
        ),
    ],
)
def test_real_tools_keep_their_schemas(name: str, schema: dict[str, Any]) -> None:
    """Written out by hand: what the Param tuples said before the signatures said it."""
    required = {"simple_read": ["path"], "analyze": ["what", "path", "line", "col"], "workspace_files": []}
    assert load()[name].input_schema() == {
        "type": "object",
        "properties": schema,
        "required": required[name],
        "additionalProperties": False,
    }
    # Property order is the signature's order, as before.
    assert list(load()[name].input_schema()["properties"]) == list(schema)


# --- Markdown headings as selectors, on a README nobody here wrote -------------------------

ROOT = Path(__file__).resolve().parents[2]
BODY_PARSER = ROOT / "node_modules" / "body-parser" / "README.md"


@pytest.fixture
def readme(tmp_path: Path) -> Workspace:
    if not BODY_PARSER.is_file():
        pytest.skip("body-parser's README comes with the npm devDependencies (npm ci)")
    (tmp_path / "README.md").write_text(BODY_PARSER.read_text(encoding="utf-8"), encoding="utf-8")
    return Workspace.at(tmp_path)


def _heading_lines() -> dict[str, int]:
    """`## Text` → 1-based line of its first occurrence, read from the file itself."""
    out: dict[str, int] = {}
    fence = False
    for number, line in enumerate(BODY_PARSER.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("#"):
            out.setdefault(line.strip(), number)
    return out


@pytest.mark.parametrize(
    ("selector", "heading"),
    [
        ("Installation", "## Installation"),
        ("## Installation", "## Installation"),
        ("installation", "## Installation"),
        ("API", "## API"),
        ("bodyParser.json([options])", "### bodyParser.json([options])"),
        ("### bodyParser.raw([options])", "### bodyParser.raw([options])"),
        ('unsupported charset "BOGUS"', '### unsupported charset "BOGUS"'),
        ("Errors > request aborted", "### request aborted"),
        ("body-parser > Errors", "## Errors"),
        ("# body-parser > ## Examples", "## Examples"),
        ("bodyParser.text([options]) > Options", "#### Options"),
        ("extended", "##### extended"),
    ],
)
def test_a_markdown_heading_is_named_by_its_text_with_or_without_hashes(
    readme: Workspace, selector: str, heading: str
) -> None:
    text, data = run(readme, "expand_at", path="README.md", selector=selector)
    lines = _heading_lines()
    if heading == "#### Options":  # the third `#### Options`: the one under bodyParser.text
        assert data["range"]["start"]["line"] + 1 > lines["### bodyParser.text([options])"]
    else:
        assert data["range"]["start"]["line"] + 1 == lines[heading]
    assert data["name"] == heading
    assert text.startswith(heading + " L")


def test_an_ambiguous_heading_lists_typeable_paths(readme: Workspace) -> None:
    with pytest.raises(UserError) as err:
        run(readme, "expand_at", path="README.md", selector="Options")
    message = str(err.value)
    assert "names 4 symbols" in message
    assert "bodyParser.json([options]) > Options (line:" in message
    # Every path listed opens that heading.
    for path in ("bodyParser.json([options]) > Options", "bodyParser.urlencoded([options]) > Options"):
        _, data = run(readme, "expand_at", path="README.md", selector=path)
        assert data["name"] == "#### Options"


def test_a_heading_by_line_is_that_section(readme: Workspace) -> None:
    line = _heading_lines()["### entity parse failed"]
    text, data = run(readme, "expand_at", path="README.md", selector=f"line:{line}")
    assert data["name"] == "### entity parse failed"
    assert "### entity verify failed" not in text


def test_the_cli_takes_a_heading_with_or_without_hashes(readme: Workspace) -> None:
    import subprocess
    import sys

    for selector in ("## Errors", "Errors"):
        proc = subprocess.run(
            [sys.executable, "-m", "simple_brief", "expand", "README.md", selector],
            cwd=readme.root,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout.startswith("## Errors L")


def test_every_tool_is_found_in_the_module_named_for_it() -> None:
    """`TOOL_HOMES` lets `get` import one module: it must name each tool's real home."""
    homes = {name: t.func.__module__ for name, t in registry.load().items()}
    assert homes == registry.TOOL_HOMES
    assert set(registry.TOOL_HOMES.values()) == set(registry.TOOL_MODULES)


@pytest.mark.parametrize(
    ("tool", "args", "sentence"),
    [
        (
            "refactor",
            {"action": "rename", "path": "a.py", "line": 1},
            "`refactor action=rename` needs `col`, `new_name`.",
        ),
        (
            "refactor",
            {"action": "extract_variable", "path": "a.py", "line": 1, "col": 1},
            "`refactor action=extract_variable` needs `end_line`, `end_col`.",
        ),
        ("docs", {"action": "get"}, "parameter `id` is missing or empty; give an id from docs action=search"),
        ("docs", {"action": "resolve"}, "parameter `query` is missing or empty; give a name such as `Config`"),
        ("analyze", {"what": "callers", "path": "a.py"}, "`analyze` needs the parameter `line`"),
    ],
)
def test_a_merged_tool_without_what_its_mode_needs_is_one_sentence(
    tmp_path: Path, tool: str, args: dict[str, Any], sentence: str
) -> None:
    """Issue 30 folded tools into one with a mode: a mode's own parameters are optional in
    the schema, so the tool names the ones that mode needs."""
    (tmp_path / "a.py").write_text("x = 1\n")
    with pytest.raises(UserError) as err:
        invoke(tool, args, Call(workspace=Workspace.at(tmp_path)))
    assert str(err.value).startswith(sentence), str(err.value)


def test_server_status_logs_gives_the_log_lines_the_logs_tool_gave(tmp_path: Path) -> None:
    import logging

    call = Call(workspace=Workspace.at(tmp_path))
    invoke("server_status", {}, call)  # its module keeps the log lines from its import on
    logging.getLogger("simple_brief.test").warning("a line only the log holds")
    result = invoke("server_status", {"logs": "warning", "limit": 5}, call)
    assert "WARNING simple_brief.test: a line only the log holds" in result.text
    assert result.data["lines"] >= 1 and "version" not in result.data


def test_every_old_name_folded_by_issue_30_names_a_call_that_runs(tmp_path: Path) -> None:
    """The sentence an old name answers names a tool and parameters that exist."""
    for old, (new, params) in registry.RENAMED.items():
        with pytest.raises(UserError, match=rf"^`{old}` is now {new} "):
            registry.get(old)
        spec = registry.get(new)
        assert set(params) <= {p.name for p in spec.params}, old
