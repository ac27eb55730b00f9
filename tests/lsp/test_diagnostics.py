"""Structured diagnostics: the one model and its line format, simple-brief's own codes and
their explanations, the diagnostics tool with a real language server's findings (pylsp with
ruff) and fix-its from its quickfix code actions."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.languages import detect
from simple_brief.lsp.pool import ServerPool
from simple_brief.model import Diagnostic, FixIt, Position, Range, Severity, TextEdit, fixit_confidence
from simple_brief.render import explain
from simple_brief.render.diagnostics import diagnostic_line, render_diagnostics
from simple_brief.scan import scan
from simple_brief.tools import Call, Session, ToolResult, invoke

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
CONFIG = f"""
[servers.pylsp]
command = ["{BIN / "pylsp"}"]
filetypes = ["python"]
"""
LINTED = "import os\n\n\ndef f(a):\n    return a\n"


def at(line: int, col: int) -> Range:
    return Range(Position(line, col), Position(line, col + 1))


def run(call: Call, name: str, **args: Any) -> ToolResult:
    return invoke(name, args, call)


# --- the line format ------------------------------------------------------------------------


def test_a_line_is_position_severity_source_code_message_and_the_best_fix() -> None:
    removal = FixIt("Remove unused import: `os`", (TextEdit(at(0, 0), ""),), 0.8, "quickfix")
    silence = FixIt("Disable for this line", (), 0.3, "quickfix")
    diag = Diagnostic(at(11, 4), "`os` imported\n but unused", Severity.Warning, "F401", "ruff", (silence, removal))
    assert (
        diagnostic_line(diag)
        == "12:5 W ruff F401 `os` imported but unused  fix: Remove unused import: `os` (0.8) +1 more"
    )
    own = Diagnostic(at(0, 6), "the grammar could not read line 1", Severity.Hint, "H003")
    assert diagnostic_line(own) == "1:7 H H003 the grammar could not read line 1"
    bare = Diagnostic(at(4, 8), "unused variable key", Severity.Warning, "", "pyflakes")
    assert diagnostic_line(bare) == "5:9 W pyflakes unused variable key"


def test_files_are_grouped_in_name_order_positions_first() -> None:
    a = Diagnostic(at(9, 0), "late", Severity.Warning, "W1", "lint")
    b = Diagnostic(at(1, 0), "early", Severity.Hint, "H1", "lint")
    blocks = render_diagnostics({"z.py": [a, b], "a.py": [], "m.py": [a]})
    assert blocks == [
        "3 diagnostics in 2 files (0E 2W 1H)",
        "m.py (1)\n  10:1 W lint W1 late",
        "z.py (2)\n  2:1 H lint H1 early\n  10:1 W lint W1 late",
    ]
    assert render_diagnostics({"a.py": []}) == ["No diagnostics in 1 file"]


# --- own codes and diagnostics explain= ----------------------------------------------------


def test_every_code_the_engine_emits_is_explained() -> None:
    emitted = {"W001", "H001", "H002", "H003", "W002"}
    src = scan("def f(:\n    pass\n)\n", detect("x.py"))
    emitted |= {d.code for d in src.diagnostics}
    assert emitted <= set(explain.CATALOGUE)


@pytest.mark.parametrize("code", sorted(explain.CATALOGUE))
def test_diagnostics_explain_gives_cause_rule_example_and_fix(tmp_path: Path, code: str) -> None:
    result = run(Call(workspace=Workspace.at(tmp_path)), "diagnostics", explain=code.lower())
    text = result.text
    assert text.startswith(f"{code} {explain.CATALOGUE[code].severity.letter} ")
    for part in ("cause: ", "rule: ", "example (error):", "example (fixed):", "fix: "):
        assert part in text, (code, part)
    data = result.data
    assert data["code"] == code and data["cause"] and data["rule"] and data["fix"]
    assert data["example"]["error"] and data["example"]["fixed"]
    assert data["example"]["error"] != data["example"]["fixed"]


def test_unknown_codes_get_one_sentence(tmp_path: Path) -> None:
    call = Call(workspace=Workspace.at(tmp_path))
    with pytest.raises(UserError) as other:
        run(call, "diagnostics", explain="F401")
    assert str(other.value) == (
        "`F401` is not one of simple-brief's codes (E001, E002, W001, W002, W003, H001, H002, H003); a code shown "
        "next to another source (ruff, pyflakes, pyright ...) is explained by that tool's documentation."
    )
    with pytest.raises(UserError, match="simple-brief has no diagnostic E999; its codes are E001, E002"):
        run(call, "diagnostics", explain="E999")


def test_fixit_confidence_means_what_the_docs_say() -> None:
    assert fixit_confidence("quickfix", True, "Remove unused import") == 0.95
    assert fixit_confidence("quickfix", False, "Remove unused import") == 0.8
    assert fixit_confidence("quickfix", False, "Ruff (F401): Disable for this line") == 0.3
    assert fixit_confidence("source.fixAll", False, "Fix all") == 0.5
    for number in ("0.95", "0.8", "0.5", "0.3"):
        assert number in (fixit_confidence.__doc__ or "")


# --- the diagnostics tool -------------------------------------------------------------------


def test_own_findings_use_the_one_format(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    (tmp_path / "bad.py").write_text("def f(:\n    pass\n")
    result = run(Call(workspace=Workspace.at(tmp_path)), "diagnostics")
    assert result.blocks == [
        "1 diagnostic in 1 file (0E 0W 1H)",
        "bad.py (1)\n  1:7 H H003 the grammar could not read line 1 (it expected `)`)",
        "[syntax is judged one file at a time: diagnostics path=FILE]",
    ]
    assert result.data["files"]["bad.py"][0]["code"] == "H003"
    assert result.data["files"]["bad.py"][0]["source"] == "simple-brief"


@pytest.fixture(scope="module")
def linted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Call]:
    root = tmp_path_factory.mktemp("diag-project")
    write_trusted_config(root, CONFIG)
    (root / "app.py").write_text(LINTED)
    (root / "other.py").write_text("import sys\n")
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    try:
        yield call
    finally:
        call.session.close()


def test_one_file_shows_the_servers_findings_with_fixits(linted: Call) -> None:
    result = run(linted, "diagnostics", path="app.py")
    assert result.blocks[0] == "1 diagnostic in 1 file (1E 0W); syntax judged by python-compile, also checked by pylsp"
    assert result.blocks[1].splitlines() == [
        "app.py (1)",
        "  1:8 E ruff F401 `os` imported but unused  fix: Ruff (F401): Remove unused import: `os` (0.8) +1 more",
    ]
    found = result.data["files"]["app.py"][0]
    assert (found["source"], found["code"]) == ("ruff", "F401")
    assert found["range"] == {"start": {"line": 0, "character": 7}, "end": {"line": 0, "character": 9}}
    best = found["fixits"][0]
    assert best["title"] == "Ruff (F401): Remove unused import: `os`" and best["confidence"] == 0.8
    assert best["edits"] == [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}, "newText": ""}
    ]
    # Applying the preferred fix-it's edits removes the finding.
    linted.workspace.set_overlay("app.py", LINTED.split("\n", 1)[1])
    try:
        assert run(linted, "diagnostics", path="app.py").blocks == [
            "No diagnostics in 1 file; syntax judged by python-compile, also checked by pylsp"
        ]
    finally:
        linted.workspace.remove_overlay("app.py")


def test_fixits_only_when_asked(linted: Call) -> None:
    without = run(linted, "diagnostics", path="app.py", fixits=False)
    assert "fix:" not in without.text and "ruff F401" in without.text
    assert "fixits" not in without.data["files"]["app.py"][0]


def test_the_workspace_listing_does_not_start_requests_per_file(linted: Call) -> None:
    # Whole workspace, disk mode: only the engine's findings (servers are asked per file).
    result = run(linted, "diagnostics")
    assert result.blocks == [  # app.py, other.py, .simple-brief.toml
        "No diagnostics in 3 files",
        "[syntax is judged one file at a time: diagnostics path=FILE]",
    ]
