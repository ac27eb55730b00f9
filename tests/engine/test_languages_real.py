"""Outline cases taken from the conformance corpus (`make conformance`, bench/README.md):
each is a small copy of what a real file does, where the outline missed a definition
universal-ctags lists, and a real file from the corpus when it is installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief import languages
from simple_brief.model import Symbol, walk_all
from simple_brief.scan import Outline, scan
from simple_brief.source import Source


def _scan(language: str, text: str) -> Outline:
    spec = languages.by_name(language)
    assert spec is not None
    return scan(Source.from_bytes(text.encode()), spec)


def _symbols(language: str, text: str) -> list[Symbol]:
    return list(walk_all(_scan(language, text).symbols))


def _names(language: str, text: str) -> list[str]:
    return [s.name for s in _symbols(language, text)]


def _real(path: Path, language: str) -> list[str]:
    if not path.is_file():
        pytest.skip(f"{path} is absent (installed by `make conformance`)")
    spec = languages.by_name(language)
    assert spec is not None
    return [s.name for s in walk_all(scan(Source.from_bytes(path.read_bytes()), spec).symbols)]


# ---------------------------------------------------------------------- lua

LUA_CONSTRUCTOR = """\
local function Channel(namespace)
  local function key(id)
    return namespace .. id
  end
  local sub = {
    options = {},
    update = function(self, options) self.options = options end,
  }
  return {
    stopped = false,
    addSubscriber = function(self, fn) return key(fn) end,
    ["has channel"] = function(self) return true end,
  }
end

local function run(opts)
  vim.api.nvim_create_autocmd("BufEnter", { callback = function() end })
  local count = 0
  return count
end
"""


def test_lua_methods_of_a_table_a_function_builds_are_listed() -> None:
    """mediator.lua's `Channel` returns `{ addSubscriber = function ... }`: its methods are
    definitions (ctags lists them); its data fields, locals and callbacks are not."""
    symbols = {s.name: s for s in _symbols("lua", LUA_CONSTRUCTOR)}
    assert {"Channel", "key", "update", "addSubscriber", "has channel", "run"} <= set(symbols)
    assert not {"options", "stopped", "sub", "count", "callback"} & set(symbols)
    channel = symbols["Channel"]
    assert {c.name for c in channel.children} == {"key", "update", "addSubscriber", "has channel"}


def test_lua_mediator_lists_its_channel_methods() -> None:
    names = _real(Path("/usr/share/lua/5.1/mediator.lua"), "lua")
    assert names.count("getChannel") == 2 and names.count("publish") == 2
    assert "setPriority" in names and "update" in names
