"""Issue 6's "done when", end to end: an agent, through the MCP server over stdio (the SDK's
`Client` running `simple-brief mcp --nvim ADDR`), hovers, jumps, finds references, previews
and applies a rename, formats and parses on the person's UNSAVED buffers in a live headless
Neovim, whose attached clients (jedi-language-server and python-lsp-server with ruff) answer.

One Neovim and one MCP session serve the module; the calls run once, in order, and each
test below checks one of their answers.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pynvim
import pytest
from mcp import Client, StdioServerParameters

from nvim_session import nvim

BIN = Path(sys.executable).parent
SAVED = '"""Saved module."""\n'
UNSAVED = [
    "import os",
    "",
    "",
    "def greet_person(name):",
    '    """Say hello (unsaved)."""',
    '    return "greet_person " + name  # greet_person in a comment',
    "",
    "",
    'result = greet_person("ada")',
]
MESSY = ["def tidy(a,b):", "    return a+b", "x=1"]
#: (label, tool, arguments): the agent's calls, in order.
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("hover", "analyze", {"what": "hover", "path": "app.py", "line": 9, "col": 10}),
    ("definition", "analyze", {"what": "definition", "path": "app.py", "line": 9, "col": 10}),
    (
        "references",
        "analyze",
        {"what": "references", "path": "app.py", "line": 4, "col": 5, "include_declaration": True},
    ),
    ("preview", "refactor", {"action": "rename", "path": "app.py", "line": 4, "col": 5, "new_name": "hail"}),
    ("parse", "diagnostics", {"path": "app.py", "only": "parse"}),
    ("fixits", "diagnostics", {"path": "app.py", "fixits": True}),
    ("format", "refactor", {"action": "format", "path": "messy.py", "apply": True}),
    ("format again", "refactor", {"action": "format", "path": "messy.py", "apply": True}),
    (
        "rename",
        "refactor",
        {"action": "rename", "path": "app.py", "line": 4, "col": 5, "new_name": "hail", "apply": True},
    ),
]


class Session:
    def __init__(self, root: Path, nv: pynvim.Nvim, answers: dict[str, Any]) -> None:
        self.root, self.nv, self.answers = root, nv, answers

    def text(self, label: str) -> str:
        result = self.answers[label]
        assert not result.is_error, "\n".join(b.text for b in result.content)
        return "\n\n".join(b.text for b in result.content)

    def buffer(self, name: str) -> list[str]:
        lines: list[str] = self.nv.exec_lua(
            "return vim.api.nvim_buf_get_lines(vim.fn.bufnr(...), 0, -1, false)", str(self.root / name)
        )
        return lines


async def _agent(root: Path, address: str) -> dict[str, Any]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "simple_brief", "mcp", "--root", str(root), "--nvim", address],
        env={**os.environ, "NVIM": ""},
    )
    answers: dict[str, Any] = {}
    async with Client(params, raise_exceptions=True) as client:
        with anyio.fail_after(120):
            for label, name, args in CALLS:
                answers[label] = await client.call_tool(name, args)
    return answers


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    root = tmp_path_factory.mktemp("agent-lsp")
    (root / "app.py").write_text(SAVED)
    (root / "messy.py").write_text(SAVED)
    sockets = Path(tempfile.mkdtemp(prefix="sb-agent-"))  # a short path: sockets have a length limit
    address = str(sockets / "nvim.sock")
    # pylsp's ruff plugin runs `ruff`, which lives beside the venv's python.
    path = f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"
    try:
        with nvim(tmp_path_factory.mktemp("agent-nvim"), "--listen", address, PATH=path) as nv:
            nv.command(f"cd {root}")
            attached = nv.exec_lua(
                """
                local root, servers, buffers = ...
                local ids = {}
                for _, file in ipairs(buffers) do
                  vim.cmd.edit(file[1])
                  vim.api.nvim_buf_set_lines(0, 0, -1, false, file[2])
                  local buf = vim.api.nvim_get_current_buf()
                  for _, cmd in ipairs(servers) do
                    ids[#ids + 1] = { buf, vim.lsp.start({ name = vim.fs.basename(cmd), cmd = { cmd },
                      root_dir = root }, { bufnr = buf }) }
                  end
                end
                vim.cmd.buffer(vim.fn.bufnr(buffers[1][1]))
                return vim.wait(30000, function()
                  for _, pair in ipairs(ids) do
                    local c = vim.lsp.get_client_by_id(pair[2])
                    if not (c and c.initialized and vim.lsp.buf_is_attached(pair[1], pair[2])) then return false end
                  end
                  return true
                end, 20)
                """,
                str(root),
                [str(BIN / "jedi-language-server"), str(BIN / "pylsp")],
                [[str(root / "app.py"), UNSAVED], [str(root / "messy.py"), MESSY]],
            )
            assert attached, "the language servers did not attach in Neovim"
            # pylsp publishes ruff's findings a moment after the buffer is attached.
            published = nv.exec_lua(
                "return vim.wait(20000, function() return #vim.diagnostic.get(0, { lnum = 0 }) > 0 end, 50)"
            )
            assert published, "pylsp published no diagnostics for the unused import"
            answers = anyio.run(_agent, root, address)
            yield Session(root, nv, answers)
    finally:
        shutil.rmtree(sockets, ignore_errors=True)


def test_every_answer_starts_with_the_editor_context(session: Session) -> None:
    for label, _, _ in CALLS:
        first = session.answers[label].content[0].text
        assert first.startswith("editor: app.py:"), (label, first)
        assert "modified" in first, (label, first)


def test_hover_shows_the_unsaved_function_and_its_docstring(session: Session) -> None:
    body = session.text("hover").split("\n\n", 1)[1]
    assert body.splitlines()[0].startswith("app.py:9:10 `greet_person` (")
    assert "def greet_person(name)" in body and "Say hello (unsaved)." in body


def test_definition_is_the_unsaved_def(session: Session) -> None:
    lines = session.text("definition").split("\n\n", 1)[1].splitlines()
    assert lines[0] == "1 definition of `greet_person` (from app.py:9:10)"
    assert lines[1].startswith("app.py:4:5 def greet_person(name):")


def test_references_are_grouped_by_file_with_each_line_and_skip_strings_and_comments(session: Session) -> None:
    text = session.text("references")
    assert "app.py (2)\n  4:5 in greet_person: def greet_person(name):\n" in text
    assert '\n  9:10 in <module>: result = greet_person("ada")' in text


def test_rename_preview_has_exactly_the_two_code_edits_and_changes_nothing(session: Session) -> None:
    text = session.text("preview")
    assert "rename `greet_person` -> `hail` (" in text and "): 2 edits in 1 file (preview" in text
    assert "+ def hail(name):" in text and '+ result = hail("ada")' in text
    data = session.answers["preview"].structured_content
    assert data["edits"]["app.py"] == [
        {"range": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": 16}}, "newText": "hail"},
        {"range": {"start": {"line": 8, "character": 9}, "end": {"line": 8, "character": 21}}, "newText": "hail"},
    ]


def test_parse_sees_the_unsaved_function(session: Session) -> None:
    text = session.text("parse")
    assert "app.py (python, 9 lines): no syntax errors (python-compile)" in text
    assert "  4:5 greet_person  def greet_person(name)" in text


def test_diagnostics_of_the_buffer_carry_ruffs_fixit(session: Session) -> None:
    lines = session.text("fixits").splitlines()
    unused = next(line for line in lines if "F401" in line)
    assert unused.startswith("  1:8 E ruff F401 `os` imported but unused")
    assert "fix: Ruff (F401): Remove unused import: `os` (0.8)" in unused


def test_format_edits_the_buffer_and_a_second_format_changes_nothing(session: Session) -> None:
    assert "applied to the Neovim buffers of messy.py." in session.text("format")
    assert session.text("format again").endswith("messy.py is already formatted (pylsp); nothing to change.")
    assert session.buffer("messy.py") == ["def tidy(a, b):", "    return a + b", "", "", "x = 1"]
    assert (session.root / "messy.py").read_text() == SAVED


def test_applied_rename_edits_the_buffer_and_never_the_disk(session: Session) -> None:
    assert "applied to the Neovim buffers of app.py." in session.text("rename")
    assert session.buffer("app.py") == [
        "import os",
        "",
        "",
        "def hail(name):",
        UNSAVED[4],
        UNSAVED[5],
        "",
        "",
        'result = hail("ada")',
    ]
    assert (session.root / "app.py").read_text() == SAVED
