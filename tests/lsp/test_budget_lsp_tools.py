"""Every tool of the `lsp` toolset holds a small token budget with a real language server on a
big real file nobody here wrote, or its first line says how it was cut and names the call that
gets the rest — and that call does (issue 26, section 3: "no answer that balloons").

- Python: the standard library's typing.py (about 3,500 lines) copied into a workspace as
  `typing_copy.py` (so it shadows nothing), served by basedpyright (PyPI, a dev dependency).
  What is asked is found in the file by `ast`, so another Python's typing.py works alike: the
  most-used top-level name (references, rename), the most-called function (incoming calls),
  the function making the most calls (outgoing), the longest docstring (hover).
- TypeScript: node_modules' typescript.d.ts (about 11,000 lines, npm) copied as `big.d.ts`,
  served by typescript-language-server (npm): references to its most-used interface.

The budget is 500 tokens (the CLI's `--budget 500`), counted as the engine counts
(`render.budget.approx_tokens`). The oracle of the pages is the server's own whole answer:
the same question asked with a budget that holds it all.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp import pool as pool_module
from simple_brief.lsp.pool import ServerPool
from simple_brief.render.budget import approx_tokens
from simple_brief.tools import Call, Session, ToolResult, invoke

from conftest import write_trusted_config

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
NODE_BIN = REPO / "node_modules" / ".bin"
TYPING = Path(sysconfig.get_paths()["stdlib"]) / "typing.py"
TYPESCRIPT_DTS = REPO / "node_modules" / "typescript" / "lib" / "typescript.d.ts"
BUDGET = 500
#: A budget that holds every answer whole: the oracle of the pages.
WHOLE = 1_000_000
CONFIG = f"""
[servers.basedpyright]
command = ["{BIN / "basedpyright-langserver"}", "--stdio"]
filetypes = ["python"]

[servers.tsls]
command = ["{NODE_BIN / "typescript-language-server"}", "--stdio"]
filetypes = ["typescript"]
"""
#: The words of a first line that says the answer was cut and how to get the rest.
CUT = " left out to stay within the 500-token budget; "
#: `tool k=v k=v`: the call a cut answer names (the MCP form: the engine's default surface).
NAMED_CALL = re.compile(r"(analyze)((?: \w+=\S+)+?)\.\]")


@dataclasses.dataclass(frozen=True)
class Targets:
    """Positions (1-based line, col) in the Python file, found by `ast`."""

    hub: tuple[int, int]
    called: tuple[int, int]
    caller: tuple[int, int]
    documented: tuple[int, int]
    use: tuple[int, int]
    body: tuple[int, int]
    biggest: tuple[int, int, int]


def _name_at(node: ast.FunctionDef | ast.ClassDef, lines: list[str]) -> tuple[int, int]:
    """The 1-based line and column of a definition's name (`lineno` is its `def` or `class` line)."""
    found = re.search(rf"\b(?:def|class)\s+({node.name})\b", lines[node.lineno - 1])
    assert found is not None, (node.name, lines[node.lineno - 1])
    return node.lineno, found.start(1) + 1


def _targets(text: str) -> Targets:
    tree = ast.parse(text)
    lines = text.splitlines()
    tops = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)]
    functions = [n for n in tops if isinstance(n, ast.FunctionDef)]
    hub = max(tops, key=lambda n: len(re.findall(rf"\b{n.name}\b", text)))
    called = max(functions, key=lambda n: len(re.findall(rf"\b{n.name}\(", text)))
    caller = max(functions, key=lambda n: sum(isinstance(c, ast.Call) for c in ast.walk(n)))
    documented = max(tops, key=lambda n: len(ast.get_docstring(n) or ""))
    uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == hub.name]
    last = max(uses, key=lambda n: (n.lineno, n.col_offset))
    inside = [n for n in ast.walk(caller) if isinstance(n, ast.Name)]
    name = min(inside, key=lambda n: (n.lineno, n.col_offset))
    return Targets(
        hub=_name_at(hub, lines),
        called=_name_at(called, lines),
        caller=_name_at(caller, lines),
        documented=_name_at(documented, lines),
        use=(last.lineno, last.col_offset + 1),
        body=(name.lineno, name.col_offset + 1),
        biggest=(caller.body[0].lineno, caller.body[-1].end_lineno or caller.body[0].lineno, caller.col_offset),
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Call, Targets]]:
    root = tmp_path_factory.mktemp("budget-lsp")
    write_trusted_config(root, CONFIG)
    shutil.copyfile(TYPING, root / "typing_copy.py")
    shutil.copyfile(TYPESCRIPT_DTS, root / "big.d.ts")
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "noEmit": true}, "files": ["big.d.ts"]}\n'
    )
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool), budget=BUDGET)
    try:
        yield call, _targets(TYPING.read_text(encoding="utf-8"))
    finally:
        call.session.close()


def _calls(t: Targets) -> list[tuple[str, dict[str, Any]]]:
    py = "typing_copy.py"
    start, end, indent = t.biggest
    return [
        ("analyze", {"what": "hover", "path": py, "line": t.documented[0], "col": t.documented[1]}),
        ("analyze", {"what": "definition", "path": py, "line": t.use[0], "col": t.use[1]}),
        ("analyze", {"what": "references", "path": py, "line": t.hub[0], "col": t.hub[1]}),
        (
            "analyze",
            {"what": "references", "path": py, "line": t.hub[0], "col": t.hub[1], "include_declaration": False},
        ),
        ("analyze", {"what": "callers", "path": py, "line": t.called[0], "col": t.called[1]}),
        ("analyze", {"what": "callees", "path": py, "line": t.caller[0], "col": t.caller[1]}),
        ("analyze", {"what": "completion", "path": py, "line": t.body[0], "col": t.body[1], "limit": 400}),
        ("diagnostics", {"path": py, "only": "types", "fixits": False}),
        ("diagnostics", {"path": py, "only": "lint", "fixits": False}),
        ("diagnostics", {"path": py, "only": "parse"}),
        ("diagnostics", {"explain": "H003"}),
        ("refactor", {"action": "rename", "path": py, "line": t.hub[0], "col": t.hub[1], "new_name": "Renamed"}),
        ("refactor", {"action": "format", "path": py}),
        (
            "refactor",
            {"action": "extract_function", "path": py, "line": start, "col": indent + 5, "end_line": end, "end_col": 1},
        ),
    ]


def _first_line(result: ToolResult) -> str:
    return result.text.split("\n", 1)[0]


def _check(tool: str, args: dict[str, Any], result: ToolResult) -> list[str]:
    """What is wrong with one answer: over the budget without a first line saying how it was
    cut, or `structuredContent` not in step with the text (a cut answer has `truncated`)."""
    first = _first_line(result)
    cut = CUT in first
    wrong = []
    if approx_tokens(result.text) > BUDGET and not cut:
        wrong.append(f"{tool} {args}: ~{approx_tokens(result.text):,} tokens, first line {first[:200]!r}")
    if cut != ("truncated" in result.data):
        wrong.append(f"{tool} {args}: first line {first[:200]!r} but truncated={result.data.get('truncated')}")
    return wrong


def test_every_lsp_tool_holds_the_budget_on_a_big_real_file_or_says_how_it_was_cut(
    project: tuple[Call, Targets],
) -> None:
    call, targets = project
    wrong: list[str] = []
    cut: list[str] = []
    for tool, args in _calls(targets):
        try:
            result = invoke(tool, args, call)
        except UserError as err:  # a refusal (no formatter, nothing to extract) is one sentence
            assert approx_tokens(str(err)) < 200, (tool, str(err))
            continue
        wrong += _check(tool, args, result)
        if CUT in _first_line(result):
            cut.append(args.get("what") or args.get("action") or tool)
    assert not wrong, "\n".join(wrong)
    # The big answers were really cut (else this test proves nothing about cutting).
    big = {"hover", "references", "callers", "completion", "diagnostics"}
    assert big | {"rename"} <= set(cut), cut


def _follow(call: Call, first: ToolResult) -> ToolResult:
    """Call what the first line names."""
    named = NAMED_CALL.search(_first_line(first))
    assert named is not None, _first_line(first)
    args: dict[str, Any] = {}
    for pair in named.group(2).split():
        key, value = pair.split("=", 1)
        args[key] = int(value) if value.isdigit() else {"False": False, "True": True}.get(value, value)
    return invoke(named.group(1), args, call)


@pytest.mark.parametrize(
    ("tool", "target", "extra", "items"),
    [
        ("analyze", "hub", {"what": "references"}, "references"),
        ("analyze", "called", {"what": "callers"}, "calls"),
        ("analyze", "caller", {"what": "callees"}, "calls"),
    ],
)
def test_the_call_a_cut_page_names_gets_the_next_items_and_the_pages_add_up_to_the_whole(
    project: tuple[Call, Targets], tool: str, target: str, extra: dict[str, Any], items: str
) -> None:
    call, targets = project
    line, col = getattr(targets, target)
    args = {"path": "typing_copy.py", "line": line, "col": col, **extra}
    whole = invoke(tool, {**args, "limit": 10_000}, dataclasses.replace(call, budget=WHOLE))
    everything = _sites(whole, items)
    assert len(everything) == whole.data["total"] > 5, whole.text[:300]
    pages = [invoke(tool, args, call)]
    while pages[-1].data["next_offset"] is not None and len(pages) < 4:
        page = pages[-1]
        assert CUT in _first_line(page) or page.data["next_offset"] == page.data["offset"] + page.data["limit"]
        pages.append(
            _follow(call, page)
            if CUT in _first_line(page)
            else invoke(tool, {**args, "offset": page.data["next_offset"]}, call)
        )
    seen: list[Any] = []
    for page in pages:
        assert approx_tokens(page.text) <= BUDGET, page.text[:300]
        assert page.data["offset"] == len(seen), (page.data["offset"], len(seen))
        seen += _sites(page, items)
    assert seen == everything[: len(seen)]
    assert any(CUT in _first_line(p) for p in pages), [_first_line(p) for p in pages]


def _sites(result: ToolResult, items: str) -> list[Any]:
    """The page's items in order: (path, line, col) of each reference or call row."""
    if items == "references":
        return [
            (path, site["range"]["start"]["line"], site["range"]["start"]["character"])
            for path, sites in result.data["references"].items()
            for site in sites
        ]
    return [(row["path"], row["range"]["start"]["line"], row["name"]) for row in result.data["calls"]]


def test_typescript_references_to_the_most_used_interface_hold_the_budget(project: tuple[Call, Targets]) -> None:
    call, _ = project
    text = TYPESCRIPT_DTS.read_text(encoding="utf-8")
    names = re.findall(r"^\s*(?:export )?interface (\w+)", text, re.MULTILINE)
    hub = max(set(names), key=lambda n: len(re.findall(rf"\b{n}\b", text)))
    lines = text.splitlines()
    line = next(i for i, ln in enumerate(lines) if re.search(rf"\binterface {hub}\b", ln))
    args = {"path": "big.d.ts", "line": line + 1, "col": lines[line].index(f"interface {hub}") + 11}
    first = invoke("analyze", {"what": "references", **args}, call)
    assert first.data["total"] > 50, first.text[:300]
    assert approx_tokens(first.text) <= BUDGET and CUT in _first_line(first), first.text[:400]
    second = _follow(call, first)
    assert second.data["offset"] == first.data["next_offset"] and approx_tokens(second.text) <= BUDGET
    hover = invoke("analyze", {"what": "hover", **args}, call)
    assert not _check("analyze", args, hover), hover.text[:300]


def test_a_server_still_loading_and_a_budget_cut_both_open_the_first_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, project: tuple[Call, Targets]
) -> None:
    """Asked before basedpyright found the workspace's files (no wait at all), the answer may
    be incomplete: that comes first, and the cut of the page right after it, on one line."""
    _, targets = project
    monkeypatch.setattr(pool_module, "READY_WAIT", 0.0)
    write_trusted_config(tmp_path, CONFIG)
    shutil.copyfile(TYPING, tmp_path / "typing_copy.py")
    call = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool), budget=BUDGET)
    try:
        line, col = targets.hub
        result = invoke("analyze", {"what": "references", "path": "typing_copy.py", "line": line, "col": col}, call)
    finally:
        call.session.close()
    first = _first_line(result)
    loading = result.data.get("incomplete")
    assert loading, f"basedpyright had loaded the workspace before the first call: {first}"
    assert first.startswith(loading + " [") and CUT in first, first
    assert approx_tokens(result.text) <= BUDGET
