"""`expand_at … context=true`: one call gives a symbol with what an agent otherwise reads the
file around it for — the headers of the classes holding it, the imports it uses, and the
file's outline — within the budget. Checked on the standard library's http/server.py."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest

from simple_brief.tools import Call, invoke
from simple_brief.workspace import Workspace

SERVER = Path(sysconfig.get_paths()["stdlib"]) / "http" / "server.py"
SELECTOR = "SimpleHTTPRequestHandler.translate_path"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copy(SERVER, tmp_path / "server.py")
    return tmp_path


def _call(root: Path, budget: int) -> Call:
    return Call(workspace=Workspace.at(root), budget=budget)


def test_the_symbol_comes_with_its_class_header_its_imports_and_the_outline(root: Path) -> None:
    result = invoke("expand_at", {"path": "server.py", "selector": SELECTOR, "context": True}, _call(root, 10_000))
    lines = (root / "server.py").read_text(encoding="utf-8").splitlines()
    imported = {lines[n - 1].strip() for n in result.data["imports"]}
    assert imported == {"import os", "import posixpath", "import urllib.parse"}
    assert result.data["containers"] == ["SimpleHTTPRequestHandler"]
    assert result.data["outline_depth"] == 0
    text = result.text
    assert text.startswith("server.py: translate_path with its surroundings (python, ")
    assert "\noutline:\n" in text and "C_ class HTTPServer(socketserver.TCPServer)" in text
    header = text.index("C_ class SimpleHTTPRequestHandler(BaseHTTPRequestHandler)", text.index("imports it uses:"))
    assert text[header:].split("\n")[0] == "C_ class SimpleHTTPRequestHandler(BaseHTTPRequestHandler) L646-902"
    body = text.index("F_ def translate_path(self, path):")
    assert text[body:].split("\n")[0] == "F_ def translate_path(self, path): L833-861"
    assert header < body
    assert "path = urllib.parse.unquote(path, errors='surrogatepass')" in text[body:]


def test_a_small_budget_shrinks_the_outline_first(root: Path) -> None:
    args = {"path": "server.py", "selector": SELECTOR, "context": True}
    roomy = invoke("expand_at", args, _call(root, 10_000))
    tight = invoke("expand_at", args, _call(root, 1_500))
    tighter = invoke("expand_at", args, _call(root, 1_000))
    assert (roomy.data["outline_depth"], tight.data["outline_depth"], tighter.data["outline_depth"]) == (0, 1, None)
    assert "class HTTPServer(socketserver.TCPServer)" in tight.text and "def server_bind" not in tight.text
    assert "the file's outline did not fit the 1,000-token budget" in tighter.text
    for answer in (tight, tighter):  # the symbol, its class header and its imports always stay
        assert "F_ def translate_path(self, path):" in answer.text
        assert "imports it uses:" in answer.text and "C_ class SimpleHTTPRequestHandler" in answer.text


def test_without_context_nothing_changes(root: Path) -> None:
    plain = invoke("expand_at", {"path": "server.py", "selector": SELECTOR}, _call(root, 10_000))
    assert "imports it uses" not in plain.text and "outline:" not in plain.text
    assert plain.text.startswith("F_ def translate_path(self, path):")
