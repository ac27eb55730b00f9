"""refactor action=extract_function|extract_variable through the registry in disk mode, against
jedi-language-server (named in the workspace's `.simple-brief.toml`), which offers extract-function and
extract-variable."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simple_brief.errors import UserError
from simple_brief.files.workspace import Workspace
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, invoke

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
CONFIG = f'[servers.jedi]\ncommand = ["{BIN / "jedi-language-server"}"]\nfiletypes = ["python"]\n'
PRICES = """def total(prices, tax):
    subtotal = sum(prices)
    return subtotal + subtotal * tax + 1
"""
#: `subtotal + subtotal * tax` on line 3: columns 12 to 37 (exclusive).
RANGE = {"line": 3, "col": 12, "end_line": 3, "end_col": 37}


@pytest.fixture(scope="module")
def call(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Call]:
    root = tmp_path_factory.mktemp("refactor")
    write_trusted_config(root, CONFIG)
    (root / "prices.py").write_text(PRICES)
    (root / "taken.py").write_text("jls_extract_def = 1\n" + PRICES)
    one = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    try:
        yield one
    finally:
        one.session.close()


def test_extract_function_previews_named_edits_and_changes_nothing(call: Call) -> None:
    result = invoke("refactor", {"action": "extract_function", "path": "prices.py", **RANGE, "new_name": "taxed"}, call)
    text = result.text
    assert text.startswith("extract function `taxed` from prices.py:3:12-3:37 (jedi): ")
    assert "(preview: nothing changed; apply=true applies it)" in text
    assert "+ def taxed(subtotal, tax):" in text and "+     return taxed(subtotal, tax) + 1" in text
    assert "jls_extract" not in text
    assert call.workspace.read("prices.py")[1].text == PRICES


def test_extract_variable_applied_goes_to_the_overlay_not_the_disk(call: Call) -> None:
    result = invoke(
        "refactor",
        {"action": "extract_variable", "path": "prices.py", **RANGE, "new_name": "gross", "apply": True},
        call,
    )
    assert "applied to the in-memory overlays of prices.py" in result.text
    try:
        assert call.workspace.read("prices.py")[1].text == (
            "def total(prices, tax):\n"
            "    subtotal = sum(prices)\n"
            "    gross = subtotal + subtotal * tax\n"
            "    return gross + 1\n"
        )
        assert (call.workspace.root / "prices.py").read_text() == PRICES
    finally:
        call.workspace.remove_overlay(call.workspace.root / "prices.py")


def test_without_a_name_the_servers_placeholder_stays(call: Call) -> None:
    result = invoke("refactor", {"action": "extract_function", "path": "prices.py", **RANGE}, call)
    assert result.data["name"] == "jls_extract_def"
    assert "+ def jls_extract_def(subtotal, tax):" in result.text


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        ({**RANGE, "end_col": 12}, "the range 3:12-3:12 is empty or backwards"),
        ({**RANGE, "end_line": 9}, "line 9 is outside prices.py, which has 3 lines"),
        ({**RANGE, "action": "extract_class"}, "parameter `action` must be one of rename, extract_function"),
        ({**RANGE, "new_name": "2x"}, "`2x` is not a name"),
    ],
)
def test_bad_ranges_and_names_are_one_sentence(call: Call, args: dict[str, object], sentence: str) -> None:
    with pytest.raises(UserError, match=re.escape(sentence)):
        invoke("refactor", {"action": "extract_function", "path": "prices.py"} | args, call)


def test_a_name_already_in_the_file_is_not_confused_with_the_placeholder(call: Call) -> None:
    shifted = {**RANGE, "line": 4, "end_line": 4}
    with pytest.raises(UserError, match="`jls_extract_def` already appears in the file"):
        invoke("refactor", {"action": "extract_function", "path": "taken.py", **shifted, "new_name": "taxed"}, call)
