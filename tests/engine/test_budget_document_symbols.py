"""`document_symbols` holds the token budget on files far bigger than it (TypeScript's own
`typescript.d.ts` and `lib.dom.d.ts` from node_modules, which `make test` installs): the
first line says what was cut and names a call that gets the rest — and that call works."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.render.budget import TABLE_CHARS_PER_TOKEN, approx_tokens
from simple_brief.tools import Call, ToolResult, invoke

LIB = Path(__file__).resolve().parents[2] / "node_modules" / "typescript" / "lib"
BUDGET = 10_000


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("ts")
    for name in ("typescript.d.ts", "lib.dom.d.ts"):
        shutil.copy(LIB / name, where / name)
    (where / "small.py").write_text("class A:\n    def f(self):\n        pass\n\n\ndef g():\n    pass\n")
    return where


def _ask(root: Path, **args: object) -> ToolResult:
    return invoke("document_symbols", args, Call(workspace=Workspace.at(root), budget=BUDGET))


def _tokens(answer: ToolResult, fmt: str = "table") -> int:
    """As the engine counts a table (denser than other text) or JSON."""
    return approx_tokens(answer.text, TABLE_CHARS_PER_TOKEN) if fmt == "table" else approx_tokens(answer.text)


def _next(answer: ToolResult) -> dict[str, object]:
    """The parameters the first line's `The rest: document_symbols FILE k=v …` names."""
    first = answer.blocks[0]
    call = first.split("The rest: ", 1)[1].split(" for one symbol", 1)[0].split(", or ")[0].rstrip(".]")
    words = call.split()
    assert words[0] == "document_symbols"
    params: dict[str, object] = {"path": words[1]}
    for word in words[2:]:
        key, _, value = word.partition("=")
        params[key] = {"false": False, "true": True}.get(value, int(value) if value.isdigit() else value)
    return params


@pytest.mark.parametrize("fmt", ["table", "standard"])
def test_a_huge_file_keeps_the_budget_and_the_first_line_says_how_to_get_the_rest(root: Path, fmt: str) -> None:
    answer = _ask(root, path="lib.dom.d.ts", format=fmt)
    assert _tokens(answer, fmt) <= BUDGET
    assert answer.blocks[0].startswith("[the symbols as asked are ~")
    assert "over the 10,000-token budget" in answer.blocks[0]
    # Page after page, the next call continues where the last one stopped, each within the budget.
    first = answer.data["total_rows"] - answer.data["rows"]
    params = _next(answer)
    second = _ask(root, **params)
    assert _tokens(second, fmt) <= BUDGET
    assert second.data["total_rows"] == answer.data["total_rows"]
    start = re.search(r"showing rows ([\d,]+)-", second.blocks[0])
    assert start is not None and int(start.group(1).replace(",", "")) == int(str(params["offset"])) + 1
    assert first > 0


def test_a_file_with_one_namespace_shows_it_with_its_count_and_under_opens_it(root: Path) -> None:
    answer = _ask(root, path="typescript.d.ts")
    assert _tokens(answer) <= BUDGET
    assert "ts | 3 | " in answer.text and " nested | <<<" in answer.text
    assert "under=ts" in answer.blocks[0]
    inside = _ask(root, path="typescript.d.ts", under="ts")
    assert _tokens(inside) <= BUDGET
    rows = inside.blocks[1].splitlines()[2:]
    assert rows and all(" | ts | " in row or " | ts." not in row for row in rows)
    assert rows[0].startswith("server | 3 | ")


def test_the_json_top_level_says_it_has_no_children(root: Path) -> None:
    answer = _ask(root, path="typescript.d.ts", format="standard")
    total = answer.data["total_rows"]
    assert f"showing only the 1 top-level of {total:,} rows, without their children." in answer.blocks[0]
    assert [s["name"] for s in json.loads(answer.blocks[1])] == ["ts"]
    assert "children" not in json.loads(answer.blocks[1])[0]


def test_the_json_page_is_lsp_document_symbols(root: Path) -> None:
    answer = _ask(root, path="typescript.d.ts", format="standard", under="ts", offset=10)
    assert approx_tokens(answer.text) <= BUDGET
    symbols = json.loads(answer.blocks[1])
    assert symbols == answer.data["symbols"]
    assert all({"name", "kind", "range", "selectionRange"} <= set(s) for s in symbols)
    nested = _ask(root, path="typescript.d.ts", format="standard", under="ts", return_children="yes", offset=0)
    forest = json.loads(nested.blocks[1])
    assert len(forest) < nested.data["rows"]  # rows under a listed parent sit in its children

    def count(entries: list[dict[str, object]]) -> int:
        return sum(1 + count(e.get("children", [])) for e in entries)  # type: ignore[arg-type]

    assert count(forest) == nested.data["rows"]
    assert f"showing rows 1-{nested.data['rows']:,} of " in nested.blocks[0]


def test_a_small_file_is_whole_and_says_nothing(root: Path) -> None:
    answer = _ask(root, path="small.py")
    assert len(answer.blocks) == 1 and answer.data["rows"] == answer.data["total_rows"] == 3
    assert "def f(self)" in answer.text
    paged = _ask(root, path="small.py", offset=1)
    assert [r.split(" | ")[0] for r in paged.text.splitlines()[2:]] == ["f", "g"]
    under = _ask(root, path="small.py", under="A")
    assert [r.split(" | ")[:5:4] for r in under.text.splitlines()[2:]] == [["f", "A"]]


def test_an_offset_past_the_end_is_one_sentence(root: Path) -> None:
    with pytest.raises(UserError, match="offset=9 is past the last of the 3 rows"):
        _ask(root, path="small.py", offset=9)
