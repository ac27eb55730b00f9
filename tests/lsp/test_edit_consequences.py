"""An applied edit answers with the diagnostics of the files it touched, so the agent need
not ask again: the engine's own findings on the new text and the language servers' (real
jedi-language-server for the edit, pylsp with pyflakes for the findings, from PyPI)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
CONFIG = (
    f'[servers.jedi]\ncommand = ["{BIN / "jedi-language-server"}"]\nfiletypes = ["python"]\n'
    f'[servers.pylsp]\ncommand = ["{BIN / "pylsp"}"]\nfiletypes = ["python"]\n'
)
PRICES = """import os


def total(prices, tax):
    subtotal = sum(prices)
    return subtotal + subtotal * tax + 1
"""
#: `subtotal + subtotal * tax` on line 6.
RANGE = {"line": 6, "col": 12, "end_line": 6, "end_col": 37}


@pytest.fixture
def call(tmp_path: Path) -> Iterator[Call]:
    write_trusted_config(tmp_path, CONFIG)
    (tmp_path / "prices.py").write_text(PRICES)
    one = Call(workspace=Workspace.at(tmp_path), session=Session(server_pool=ServerPool))
    try:
        yield one
    finally:
        one.session.close()


def test_an_applied_rename_answers_with_the_servers_findings_on_the_new_text(call: Call) -> None:
    result = invoke(
        "refactor",
        {"action": "rename", "path": "prices.py", "line": 4, "col": 5, "new_name": "os", "apply": True},
        call,
    )
    assert "applied to the in-memory overlays of prices.py" in result.blocks[0]
    after = result.data["diagnostics_after"]["prices.py"]
    # Renaming `total` to `os` redefines the import: a finding only the new text has.
    assert any(d["code"] == "F811" and "os" in d["message"] for d in after), after
    assert result.blocks[1].startswith("after the edit: ")
    assert "F811" in result.text


def test_an_edit_that_breaks_the_syntax_says_so_at_once(call: Call) -> None:
    args = {"action": "extract_variable", "path": "prices.py", **RANGE, "new_name": "class", "apply": True}
    result = invoke("refactor", args, call)
    after = result.data["diagnostics_after"]["prices.py"]
    # Python's compile() judges the new text at once; the grammar's region is a hint beside it.
    judged = [d for d in after if d["source"] == "python"]
    assert judged and judged[0]["severity"] == 1, after
    assert "E python invalid syntax" in result.text


def test_a_preview_checks_nothing(call: Call) -> None:
    result = invoke(
        "refactor", {"action": "rename", "path": "prices.py", "line": 4, "col": 5, "new_name": "grand"}, call
    )
    assert "diagnostics_after" not in result.data
    assert "after the edit" not in result.text
