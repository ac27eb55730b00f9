"""The README's and `:help`'s tables of the Neovim options and commands come from one source
each (`make docs`, doc/tables.py): the options from lua/simple_brief/config.lua (LuaCATS
`---@field` lines and `M.defaults`), the commands from plugin/simple_brief.lua. This fails
while the documents differ from the sources."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _tables() -> ModuleType:
    spec = importlib.util.spec_from_file_location("doc_tables", ROOT / "doc" / "tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (dataclasses look their module up there)
    spec.loader.exec_module(module)
    return module


tables = _tables()


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the files the tables are read from and written to."""
    for name in (tables.CONFIG, tables.PLUGIN, "README.md", "doc/simple-brief.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, tmp_path / name)
    return tmp_path


def test_the_readme_and_help_tables_are_their_sources() -> None:
    assert tables.stale(ROOT) == [], "run `make docs`"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    help_text = (ROOT / "doc" / "simple-brief.txt").read_text(encoding="utf-8")
    options = tables.options(ROOT)
    assert [o.name for o in options] == [
        "filetypes",
        "cmd",
        "host",
        "attach_timeout_ms",
        "view_debounce_ms",
        "keep_open",
        "reload",
        "checktime_ms",
    ]
    for option in options:
        assert f"  {option.name} = {option.default}, -- {option.summary}" in readme
        assert f"*simple-brief-config-{option.name}*" in help_text, f"{option.name} has no :help entry"
    for command in tables.commands(ROOT):
        assert f"*:{command.name}*" in help_text, f":{command.name} has no :help entry"
        assert f"`:{command.name}" in readme


def test_a_new_option_and_a_new_command_join_both_documents(tree: Path) -> None:
    config = tree / tables.CONFIG
    text = config.read_text(encoding="utf-8")
    text = text.replace(
        "---@field keep_open string[] Block marks",
        "---@field fold_imports boolean Whether imports fold.\n---@field keep_open string[] Block marks",
    )
    config.write_text(text.replace("  keep_open = { 'C' },\n", "  keep_open = { 'C' },\n  fold_imports = true,\n"))
    plugin = tree / tables.PLUGIN
    plugin.write_text(
        plugin.read_text(encoding="utf-8")
        + "\nvim.api.nvim_create_user_command('SimpleBriefTour', function()\nend, { nargs = '?', desc = 'A tour' })\n"
    )
    assert tables.main(["--check", str(tree)]) == 1
    assert tables.main([str(tree)]) == 0
    readme = (tree / "README.md").read_text(encoding="utf-8")
    help_text = (tree / "doc/simple-brief.txt").read_text(encoding="utf-8")
    assert "  fold_imports = true, -- Whether imports fold." in readme
    assert "| `:SimpleBriefTour [{arg}]` | A tour |" in readme
    assert "      fold_imports = true,  -- boolean" in help_text
    assert "    |:SimpleBriefTour| [{arg}]\n        A tour" in help_text
    assert tables.stale(tree) == []


def test_a_source_it_cannot_read_is_one_sentence(tree: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tree / tables.CONFIG
    config.write_text(config.read_text(encoding="utf-8").replace("  host = 'auto',\n", ""))
    assert tables.main([str(tree)]) == 2
    err = capsys.readouterr().err
    assert err == "make docs: lua/simple_brief/config.lua: the field `host` has no default in M.defaults\n"
    shutil.copyfile(ROOT / tables.CONFIG, config)
    readme = tree / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8").replace(tables.README_COMMANDS[1], ""))
    assert tables.main([str(tree)]) == 2
    assert "README.md has no" in capsys.readouterr().err


def test_the_readme_starts_with_the_set_up_then_install_use_and_agents() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.splitlines()[2:5] == [
        "```sh",
        "make demo    # creates .venv, installs, outlines a standard-library file, searches this repo",
        "make test    # installs the dev dependencies and runs every test",
    ]
    first = readme[: readme.index("## Reference")]
    for needed in ("lazy.nvim", "pckr", "vim-plug", "Native packages", ":SimpleBrief", "claude mcp add", '"hooks"'):
        assert needed in first, needed
