"""The read tools through the registry: selectors, budgets, parameters, diagnostics."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.tools import Call, invoke, load
from simple_brief.workspace import Workspace

from conftest import outline_of

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
    assert text.splitlines()[0] == "F_ def get(self, key):  L18-19"
    assert data["name"] == "get" and data["range"]["start"]["line"] == 17
    text, _ = run(ws, "expand_at", path="app.py", selector="line:22")
    assert text.startswith("F_ def put(self, key, value):  L21-22")


def test_expand_line_outside_every_definition_says_where_they_are(ws: Workspace) -> None:
    with pytest.raises(UserError, match=r"no definition contains line 2 of app.py; definitions start at line:4"):
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
    assert text == "C> class Cache { items, 2 methods }  L7-14\n  # Keeps things."


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
    assert text.splitlines()[-1] == "F> def accumulate(value) { ... }  L1-83"


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
    assert text.splitlines()[0] == "app.py symbols (positions 1-based line:col)"
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
    assert lines[0] == "1 diagnostic in 1 file (1E 0W)"
    assert lines[2] == "bad.py (1)"
    assert lines[3] == "  1:7 E E002 syntax error: missing `)`"
    assert list(data["files"]) == ["bad.py"]


def test_fallback_reads_brace_delimited_code() -> None:
    src = (
        "fn square(x: i64) -> i64 {\n    x * x\n}\n\nstruct Point {\n    x: i64,\n    y: i64,\n}\n\n"
        "enum Color {\n    Red,\n    Green,\n    Blue,\n}\n\nimpl Point {\n    fn norm(self) -> i64 {\n"
        "        0\n    }\n}\n"
    )
    outline = outline_of(src, "zig")
    from simple_brief.render.blockmarks import render_outline

    assert render_outline(outline, [], depth=1).splitlines() == [
        "F> fn square(x: i64) -> i64 { ... }  L1-3",
        "S> struct Point { x, y }  L5-8",
        "E> enum Color { Red, Green, Blue }  L10-14",
        "C> impl Point { 1 method }  L16-20",
    ]


def test_outline_degrades_to_compact_top_level_not_to_another_mode(tmp_path: Path) -> None:
    body = "".join(f"    def m{i}(self, value):\n        return value + {i}\n\n" for i in range(40))
    (tmp_path / "wide.py").write_text(f"class Wide:\n{body}")
    text, data = run(Workspace.at(tmp_path), "simple_read", budget=150, path="wide.py", mode="outline")
    assert (data["mode"], data["degraded_from"]) == ("compact", "outline")
    assert text.splitlines()[-1] == "C> class Wide { 40 methods }  L1-120"


def test_a_full_name_wins_over_a_method_of_the_same_name(tmp_path: Path) -> None:
    (tmp_path / "jobs.py").write_text("class Job:\n    def run(self):\n        pass\n\n\ndef run():\n    pass\n")
    text, _ = run(Workspace.at(tmp_path), "expand_at", path="jobs.py", selector="run")
    assert text.startswith("F_ def run():  L6-7")
