"""The workspace config `.simple-brief.toml`: defaults, the schema, and each refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief import config
from simple_brief.errors import UserError
from simple_brief.render.budget import DEFAULT_BUDGET_TOKENS

FULL = """
[servers.python]
command = ["jedi-language-server", "--log-file", "x.log"]
filetypes = ["python", "py"]
init_options = { diagnostics = { enable = false } }
settings = { pylsp = { plugins = { ruff = { enabled = true } } } }

[servers.lua]
command = ["lua-language-server"]
filetypes = ["lua"]

[tasks]
test = ["pytest", "-q"]
lint = ["ruff", "check", "."]

[limits]
budget = 4000

[mcp]
toolsets = ["read", "lsp", "docs", "tasks"]
"""


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / config.FILENAME).write_text(text, encoding="utf-8")
    return tmp_path


def refusal(tmp_path: Path, text: str) -> str:
    with pytest.raises(UserError) as info:
        config.load(write(tmp_path, text))
    message = str(info.value)
    assert config.FILENAME in message, message
    assert "\n" not in message
    return message


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    loaded = config.load(tmp_path)
    assert loaded.servers == [] and loaded.tasks == {}
    assert loaded.budget == DEFAULT_BUDGET_TOKENS
    assert loaded.toolsets == ["read", "lsp", "docs"]
    assert loaded.path is None


def test_full_config(tmp_path: Path) -> None:
    loaded = config.load(write(tmp_path, FULL))
    assert [s.name for s in loaded.servers] == ["python", "lua"]
    jedi = loaded.servers[0]
    assert jedi.command == ("jedi-language-server", "--log-file", "x.log")
    assert jedi.filetypes == ("python",)  # the alias `py` is the registry's `python`
    assert jedi.init_options == {"diagnostics": {"enable": False}}
    assert jedi.settings["pylsp"]["plugins"]["ruff"]["enabled"] is True
    assert loaded.servers_for("python") == [jedi]
    assert loaded.servers_for("lua")[0].settings == {}
    assert loaded.servers_for("rust") == []
    assert loaded.tasks == {"test": ["pytest", "-q"], "lint": ["ruff", "check", "."]}
    assert loaded.budget == 4000
    assert loaded.toolsets == ["read", "lsp", "docs", "tasks"]
    assert loaded.path == tmp_path / config.FILENAME


def test_bad_toml_names_the_line(tmp_path: Path) -> None:
    message = refusal(tmp_path, '[servers.python]\ncommand = ["pylsp"]\nfiletypes = python\n')
    assert "not valid TOML" in message and "line 3" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[server.python]\ncommand = ['pylsp']\n", "unknown key `server`"),
        ("[servers.py]\ncommand = ['pylsp']\nfiletypes = ['python']\nargs = []\n", "unknown key `servers.py.args`"),
        ("[limits]\nbudget = 10\ntimeout = 3\n", "unknown key `limits.timeout`"),
        ("[mcp]\ntools = ['read']\n", "unknown key `mcp.tools`"),
    ],
)
def test_unknown_keys_are_named(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in refusal(tmp_path, text)


def test_string_command_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, '[servers.py]\ncommand = "pylsp --verbose"\nfiletypes = ["python"]\n')
    assert "`servers.py.command`" in message and "never run through a shell" in message
    assert "['pylsp', '--verbose']" in message


def test_string_task_is_refused(tmp_path: Path) -> None:
    message = refusal(tmp_path, '[tasks]\ntest = "pytest -q && rm -rf /"\n')
    assert "`tasks.test`" in message and "shell" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[servers.py]\nfiletypes = ['python']\n", "has no `command`"),
        ("[servers.py]\ncommand = []\nfiletypes = ['python']\n", "`servers.py.command`"),
        ("[servers.py]\ncommand = ['pylsp', 3]\nfiletypes = ['python']\n", "list of strings"),
        ("[servers.py]\ncommand = ['pylsp']\n", "`servers.py.filetypes`"),
        ("[servers.py]\ncommand = ['pylsp']\nfiletypes = ['cobol']\n", "`cobol`"),
        ("[servers.py]\ncommand = ['pylsp']\nfiletypes = ['python']\nsettings = 3\n", "`servers.py.settings`"),
        ("servers = 3\n", "`servers`"),
        ("[servers]\npy = 3\n", "`servers.py`"),
        ("[limits]\nbudget = 0\n", "`limits.budget`"),
        ("[limits]\nbudget = true\n", "`limits.budget`"),
        ("[mcp]\ntoolsets = ['read', 'magic']\n", "magic"),
        ("[tasks]\ntest = []\n", "`tasks.test`"),
    ],
)
def test_schema_refusals(tmp_path: Path, text: str, expected: str) -> None:
    assert expected in refusal(tmp_path, text)
