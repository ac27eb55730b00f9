""":SimpleBrief, :ExpandAt and the outline split in a real headless Neovim 0.11.

Each test starts its own child Neovim (tests/nvim_session.py) whose simple-brief
server runs as a child process (`python -m simple_brief lsp`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pynvim
import pytest

from nvim_session import closed_folds, nvim

PYTHON = '''import os
import sys


class Greeter:
    """Says hello."""

    def __init__(self, name):
        self.name = name

    def greet(self) -> str:
        return "hi " + self.name

    def shout(self) -> str:
        return self.greet().upper()


def main():
    print(Greeter("x").greet())
'''

LUA = """local M = {}

local function helper(x)
  return x * 2
end

function M.run(a, b)
  local total = helper(a)
  return total + b
end

M.stop = function()
  return nil
end

return M
"""

TYPESCRIPT = """import { readFile } from "fs";

export interface Shape {
  area(): number;
}

export class Circle implements Shape {
  constructor(private r: number) {}

  area(): number {
    return Math.PI * this.r * this.r;
  }
}

export function total(shapes: Shape[]): number {
  return shapes.reduce((sum, s) => sum + s.area(), 0);
}
"""


def _open(nv: pynvim.Nvim, path: Path, text: str) -> None:
    path.write_text(text)
    nv.command(f"edit {path}")


def test_python_folds_close_bodies_and_keep_classes_open(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.command("SimpleBrief")
        assert nv.exec_lua("return vim.wo.foldexpr") == "v:lua.vim.lsp.foldexpr()"
        assert closed_folds(nv) == [
            (1, 2, ".. 2 import lines  [2 lines]"),
            (8, 9, "    F> def __init__(self, name) { ... }  [2 lines]"),
            (11, 12, "    F> def greet(self) -> str { ... }  [2 lines]"),
            (14, 15, "    F> def shout(self) -> str { ... }  [2 lines]"),
            (18, 19, "F> def main() { ... }  [2 lines]"),
        ]


def test_lua_folds(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "mod.lua", LUA)
        nv.command("SimpleBrief")
        folds = closed_folds(nv)
        assert [(a, b) for a, b, _ in folds] == [(3, 5), (7, 10), (12, 14)]
        assert folds[0][2].startswith("F> local function helper(x) { ... }")
        assert folds[1][2].startswith("F> function M.run(a, b) { ... }")


def test_typescript_folds(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "shapes.ts", TYPESCRIPT)
        nv.command("SimpleBrief")
        folds = closed_folds(nv)
        spans = [(a, b) for a, b, _ in folds]
        # The interface and class stay open (containers); bodies of methods and functions close.
        assert (10, 12) in spans and (15, 17) in spans
        assert not [s for s in spans if s[0] in (3, 7)]
        assert any(t.startswith("export function total(shapes: Shape[]): number") or "F> " in t for *_, t in folds)


def test_fold_text_counts_diagnostics(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.exec_lua(
            """
            local ns = vim.api.nvim_create_namespace('test')
            vim.diagnostic.set(ns, 0, {
              { lnum = 11, col = 8, message = 'bad', severity = vim.diagnostic.severity.ERROR },
              { lnum = 11, col = 9, message = 'meh', severity = vim.diagnostic.severity.WARN },
              { lnum = 13, col = 8, message = 'meh', severity = vim.diagnostic.severity.WARN },
            })
            """
        )
        nv.command("SimpleBrief")
        texts = {a: t for a, _, t in closed_folds(nv)}
        assert texts[11] == "    F> def greet(self) -> str { ... }  [2 lines]  E1 W1"
        assert texts[14].endswith("[2 lines]  W1")


def test_expand_at_opens_that_symbol_and_no_other(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.command("SimpleBrief")
        before = closed_folds(nv)
        nv.command("ExpandAt Greeter.greet")
        after = closed_folds(nv)
        assert [f for f in before if f[0] != 11] == after
        assert nv.exec_lua("return vim.api.nvim_win_get_cursor(0)") == [11, 0]
        nv.command("ExpandAt line:18 signature")
        assert nv.exec_lua("return vim.fn.foldclosed(18)") == 18
        nv.command("ExpandAt main body")
        assert nv.exec_lua("return vim.fn.foldclosed(18)") == -1


def test_expand_at_without_argument_uses_the_cursor_and_completes_names(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.command("SimpleBrief")
        nv.exec_lua("vim.api.nvim_win_set_cursor(0, {15, 0})")
        nv.command("ExpandAt")
        assert nv.exec_lua("return vim.fn.foldclosed(14)") == -1
        assert nv.exec_lua("return vim.fn.foldclosed(11)") == 11
        completions = nv.exec_lua("return vim.fn.getcompletion('ExpandAt Greeter.', 'cmdline')")
        assert completions == ["Greeter.__init__", "Greeter.name", "Greeter.greet", "Greeter.shout"]
        assert nv.exec_lua("return vim.fn.getcompletion('ExpandAt main b', 'cmdline')") == ["body"]


def test_expand_at_unknown_name_says_so(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        with pytest.raises(Exception, match="no symbol nothing_here"):
            nv.command("ExpandAt nothing_here")


def test_bang_restores_the_windows_fold_options_exactly(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.command("setlocal foldmethod=indent foldlevel=3 foldminlines=2 foldtext=v:lua.tostring('x')")
        before = nv.exec_lua(
            "return {vim.wo.foldmethod, vim.wo.foldexpr, vim.wo.foldtext, vim.wo.foldlevel, vim.wo.foldminlines,"
            " vim.wo.foldenable, vim.wo.foldnestmax}"
        )
        nv.command("SimpleBrief")
        nv.command("SimpleBrief")  # twice: the first saved options are the ones restored
        nv.command("SimpleBrief!")
        after = nv.exec_lua(
            "return {vim.wo.foldmethod, vim.wo.foldexpr, vim.wo.foldtext, vim.wo.foldlevel, vim.wo.foldminlines,"
            " vim.wo.foldenable, vim.wo.foldnestmax}"
        )
        assert after == before


@pytest.mark.parametrize(
    ("name", "text", "method"),
    [("mod.lua", LUA, "v:lua.vim.treesitter.foldexpr()"), ("app.py", PYTHON, "indent")],
    ids=["lua-tree-sitter", "python-indent"],
)
def test_falls_back_to_neovim_folds_without_a_server(tmp_path: Path, name: str, text: str, method: str) -> None:
    # A server command that cannot start: Neovim's tree-sitter folds where it has a parser
    # (it bundles Lua's, not Python's), else indent folds; and the user is told why.
    with nvim(tmp_path, SIMPLE_BRIEF_TEST_PYTHON="") as nv:
        nv.exec_lua(
            "require('simple_brief').setup({ cmd = { 'simple-brief-does-not-exist' }, attach_timeout_ms = 500 })"
        )
        _open(nv, tmp_path / name, text)
        nv.command("SimpleBrief")
        got = nv.exec_lua("return vim.wo.foldmethod == 'expr' and vim.wo.foldexpr or vim.wo.foldmethod")
        assert got == method
        messages = nv.exec_lua("return vim.api.nvim_exec2('messages', {output = true}).output")
        assert "simple-brief: using " in messages and "folds (" in messages
        assert closed_folds(nv), "the fallback closes folds too"
        nv.command("SimpleBrief!")
        assert nv.exec_lua("return vim.wo.foldmethod") == "manual"


def test_outline_split_shows_the_live_buffer_and_follows_edits(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.chdir(str(tmp_path))
        nv.command("SimpleBrief outline")
        read_view = """
            for _, b in ipairs(vim.api.nvim_list_bufs()) do
              if vim.api.nvim_buf_get_name(b):match('^simple%-brief://outline/') then
                local lines = vim.api.nvim_buf_get_lines(b, 0, -1, false)
                if #lines > 1 then return lines end
              end
            end
            return {}
        """
        nv.exec_lua(f"vim.wait(5000, function() local f = function() {read_view} end return #f() > 1 end, 10)")
        view = nv.exec_lua(read_view)
        assert "C_ class Greeter L5-15" in view
        assert "F> def main() { ... } L18-19" in view
        names = nv.exec_lua("return vim.tbl_map(vim.api.nvim_buf_get_name, vim.api.nvim_list_bufs())")
        assert "simple-brief://outline/app.py" in names, names  # not `outline//tmp/…/app.py`
        # An unsaved edit: a new function at the end shows up after the debounce.
        nv.exec_lua("vim.api.nvim_buf_set_lines(0, -1, -1, false, {'', 'def added(x):', '    return x'})")
        nv.exec_lua(
            f"vim.wait(5000, function() local f = function() {read_view} end "
            "return vim.tbl_contains(f(), 'F> def added(x) { ... } L21-22') end, 20)"
        )
        assert "F> def added(x) { ... } L21-22" in nv.exec_lua(read_view)


MARKDOWN = """# Title

Intro.

## Usage

Run it.
Twice.

## Install

Copy it.
"""


def test_markdown_top_section_stays_open_and_subsections_close(tmp_path: Path) -> None:
    # Sections are region folds without a block mark, which only Markdown has; elsewhere
    # such a fold is a multi-line value and closes (tests/nvim/test_folds_real.py).
    with nvim(tmp_path) as nv:
        _open(nv, tmp_path / "README.md", MARKDOWN)
        nv.command("SimpleBrief")
        # A section ends at its last text line: the blank line before the next heading shows.
        assert [(a, b) for a, b, _ in closed_folds(nv)] == [(5, 8), (10, 12)]


def test_an_engine_that_is_not_installed_is_reported_when_the_server_exits(tmp_path: Path) -> None:
    """`python3 -m simple_brief lsp` without the engine exits at once with `No module named …`:
    :SimpleBrief says so then, with the fix. With a 2 s attach timeout, a message that says the
    server exited (not "did not answer in time") arrived before those 2 s were out."""
    with nvim(tmp_path, SIMPLE_BRIEF_TEST_PYTHON="") as nv:
        nv.exec_lua(
            "require('simple_brief').setup({ cmd = { ... , '-m', 'simple_brief_not_installed', 'lsp' },"
            " attach_timeout_ms = 2000 })",
            sys.executable,
        )
        _open(nv, tmp_path / "app.py", PYTHON)
        nv.command("SimpleBrief")
        messages = nv.exec_lua("return vim.api.nvim_exec2('messages', {output = true}).output")
    assert "did not answer in time" not in messages
    assert "exited at once (" in messages and "No module named simple_brief_not_installed" in messages
    assert "run :SimpleBriefInstall (:help simple-brief-install)" in messages
