"""`expand_at … context=true`: one call gives a symbol inside its own chain — the headers of
the classes holding it, their fields, the signatures of its nearest siblings, the imports
it uses — bounded to `surroundings_room(budget)`, never the whole file's outline; the first
line says what was left out and how to see the file. Checked on the standard library's
http/server.py and TypeScript's own lib.dom.d.ts (node_modules, installed by `make test`)."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path

import pytest

from simple_brief.files.workspace import Workspace
from simple_brief.render.budget import approx_tokens
from simple_brief.tools import Call, ToolResult, invoke
from simple_brief.tools.surroundings import SURROUNDINGS_TOKENS, surroundings_room

SERVER = Path(sysconfig.get_paths()["stdlib"]) / "http" / "server.py"
DOM = Path(__file__).resolve().parents[2] / "node_modules" / "typescript" / "lib" / "lib.dom.d.ts"
SELECTOR = "SimpleHTTPRequestHandler.translate_path"


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copy(SERVER, tmp_path / "server.py")
    shutil.copy(DOM, tmp_path / "lib.dom.d.ts")
    return tmp_path


def _call(root: Path, budget: int) -> Call:
    return Call(workspace=Workspace.at(root), budget=budget)


def _ask(root: Path, budget: int, path: str = "server.py", selector: str = SELECTOR, **more: object) -> ToolResult:
    return invoke("expand_at", {"path": path, "selector": selector, "context": True, **more}, _call(root, budget))


def _added(root: Path, answer: ToolResult, path: str, selector: str) -> int:
    """Tokens the surroundings add to the symbol alone (the first line excluded)."""
    alone = invoke("expand_at", {"path": path, "selector": selector}, _call(root, 10_000)).text
    return approx_tokens(answer.text.partition("\n")[2]) - approx_tokens(alone)


def test_the_symbol_comes_with_its_own_chain_not_the_file(root: Path) -> None:
    result = _ask(root, 10_000)
    lines = (root / "server.py").read_text(encoding="utf-8").splitlines()
    imported = {lines[n - 1].strip() for n in result.data["imports"]}
    assert imported == {"import os", "import posixpath", "import urllib.parse"}
    assert result.data["containers"] == ["SimpleHTTPRequestHandler"]
    text = result.text
    first = text.split("\n")[0]
    assert first.startswith("server.py: translate_path with its surroundings (python, ")
    assert "the file's outline: simple_read server.py mode=outline]" in first
    # Not the file: other classes of the file are left to simple_read.
    assert "class HTTPServer" not in text and "def server_bind" not in text
    header = text.index("C_ class SimpleHTTPRequestHandler(BaseHTTPRequestHandler) L", text.index("imports it uses:"))
    fields = text.index('server_version = "SimpleHTTP/" + __version__ L')
    before = text.index("F> def list_directory(self, path) { ... } L")
    body = text.index("F_ def translate_path(self, path): L")
    after = text.index("F> def copyfile(self, source, outputfile) { ... } L")
    assert header < fields < before < body < after
    assert "path = urllib.parse.unquote(path, errors='surrogatepass')" in text[body:]
    assert 0 < _added(root, result, "server.py", SELECTOR) <= surroundings_room(10_000) + 20


def test_the_surroundings_stay_within_their_share_and_say_what_they_left_out(root: Path) -> None:
    assert surroundings_room(10_000) == min(SURROUNDINGS_TOKENS, 1_500)
    assert surroundings_room(2_000) == 300
    tight = _ask(root, 2_000)
    assert tight.data["left_out"], tight.data
    first = tight.text.split("\n")[0]
    assert "surroundings kept within ~300 tokens, left out: " in first
    assert "the file's outline: simple_read server.py mode=outline" in first
    assert _added(root, tight, "server.py", SELECTOR) <= 300 + 20
    assert "F_ def translate_path(self, path):" in tight.text
    assert "C_ class SimpleHTTPRequestHandler" in tight.text  # the chain's headers always stay


def test_a_declaration_in_a_huge_file_grows_by_the_share_at_most(root: Path) -> None:
    selector = "AbortController.abort"
    answer = _ask(root, 10_000, path="lib.dom.d.ts", selector=selector)
    assert answer.text.split("\n")[0].startswith("lib.dom.d.ts: abort with its surroundings (typescript, ")
    assert "interface AbortController" in answer.text
    assert _added(root, answer, "lib.dom.d.ts", selector) <= surroundings_room(10_000) + 20
    assert approx_tokens(answer.text) <= 10_000


def test_a_symbol_over_the_budget_shows_its_signature_and_says_so(root: Path) -> None:
    answer = _ask(root, 1_000, selector="SimpleHTTPRequestHandler")
    assert approx_tokens(answer.text) <= 1_000
    assert "its source is over the 1,000-token budget, so its signature is shown" in answer.text.split("\n")[0]


def test_without_context_nothing_changes(root: Path) -> None:
    plain = invoke("expand_at", {"path": "server.py", "selector": SELECTOR}, _call(root, 10_000))
    assert "imports it uses" not in plain.text and "outline" not in plain.text
    assert plain.text.startswith("F_ def translate_path(self, path):")
