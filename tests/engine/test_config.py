"""The workspace config `.simple-brief.toml`: defaults, the schema, and each refusal."""

from __future__ import annotations

from pathlib import Path

import pytest

from simple_brief.defaults import DEFAULT_BUDGET_TOKENS
from simple_brief.errors import UserError
from simple_brief.files import config, trust
from simple_brief.files.secret_files import DEFAULT_DENY

from conftest import write_trusted_config

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
    write_trusted_config(tmp_path, FULL)
    loaded = config.load(tmp_path)
    assert loaded.untrusted is None
    assert [s.name for s in loaded.servers] == ["python", "lua"]
    jedi = loaded.servers[0]
    assert jedi.command == ("jedi-language-server", "--log-file", "x.log")
    assert jedi.filetypes == ("python",)  # the alias `py` is the registry's `python`
    assert jedi.init_options == {"diagnostics": {"enable": False}}
    assert jedi.settings["pylsp"]["plugins"]["ruff"]["enabled"] is True
    assert loaded.servers_for("python") == [jedi]
    assert loaded.servers_for("lua")[0].settings == {}
    assert loaded.servers_for("rust") == []
    assert {name: task.steps for name, task in loaded.tasks.items()} == {
        "test": (("pytest", "-q"),),
        "lint": (("ruff", "check", "."),),
    }
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
        ("[servers.py]\nfiletypes = ['python']\n", "has no `argv`"),
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


# ---------------------------------------------------------------- trust (issue 11, item 2)

SERVER = '[servers.evil]\ncommand = ["./evil.sh"]\nfiletypes = ["python"]\n[tasks]\nbuild = ["make"]\n'


def test_untrusted_workspace_config_names_programs_that_are_ignored(tmp_path: Path) -> None:
    loaded = config.load(write(tmp_path, SERVER + "[limits]\nbudget = 700\n"))
    assert loaded.servers == [] and loaded.tasks == {}
    assert loaded.budget == 700  # what runs nothing needs no trust
    assert loaded.untrusted is not None and "\n" not in loaded.untrusted
    assert "servers.evil = ./evil.sh" in loaded.untrusted and "tasks.build = make" in loaded.untrusted
    assert "simple-brief trust" in loaded.untrusted and ":SimpleBrief trust" in loaded.untrusted


def test_trust_covers_the_exact_content_only(tmp_path: Path) -> None:
    path = write_trusted_config(tmp_path, SERVER)
    assert [s.name for s in config.load(tmp_path).servers] == ["evil"]
    path.write_text(SERVER.replace("./evil.sh", "./worse.sh"), encoding="utf-8")
    changed = config.load(tmp_path)
    assert changed.servers == [] and changed.untrusted is not None and "worse.sh" in changed.untrusted


def test_neovim_trust_database_counts_and_a_denial_wins(tmp_path: Path) -> None:
    path = write(tmp_path, SERVER) / config.FILENAME
    nvim_db = trust.neovim_database()
    nvim_db.parent.mkdir(parents=True, exist_ok=True)
    nvim_db.write_text(f"{trust.digest(path.read_bytes())} {path.resolve()}\n", encoding="utf-8")
    try:
        assert [s.name for s in config.load(tmp_path).servers] == ["evil"]  # as after Neovim's :trust
        trust.deny(path.resolve())
        denied = config.load(tmp_path)
        assert denied.servers == [] and denied.untrusted is not None and "you denied it" in denied.untrusted
    finally:
        nvim_db.unlink()
        trust.remove(path.resolve())


def test_trust_database_is_private(tmp_path: Path) -> None:
    write_trusted_config(tmp_path, SERVER)
    database = trust.database()
    assert database.stat().st_mode & 0o777 == 0o600
    assert database.parent.stat().st_mode & 0o777 == 0o700


def test_user_config_needs_no_trust_and_only_it_may_allow_secrets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "user.toml"
    user.write_text(
        SERVER.replace("evil", "mine") + '[secrets]\nallow = ["src/credentials.py"]\ndeny = ["*.vault"]\n'
        '[docs]\nfolders = ["~/lib"]\n',
        encoding="utf-8",
    )
    monkeypatch.setenv(config.USER_CONFIG_ENV, str(user))
    root = tmp_path / "ws"
    root.mkdir()
    loaded = config.load(write(root, '[secrets]\ndeny = ["*.private"]\n'))
    assert [s.name for s in loaded.servers] == ["mine"] and loaded.untrusted is None
    assert loaded.docs_folders == [Path("~/lib").expanduser()]
    assert loaded.secrets.deny[: len(DEFAULT_DENY)] == DEFAULT_DENY
    assert {"*.vault", "*.private"} <= set(loaded.secrets.deny)
    assert loaded.secrets.rule_for("src/credentials.py") is None and loaded.secrets.rule_for("a.private") == "*.private"
    message = refusal(root, '[secrets]\nallow = [".env"]\n')
    assert "not honoured in a workspace config" in message and str(user) in message


def test_workspace_docs_folders_need_trust(tmp_path: Path) -> None:
    loaded = config.load(write(tmp_path, '[docs]\nfolders = ["/usr/share"]\n'))
    assert (
        loaded.docs_folders == [] and loaded.untrusted is not None and "docs.folders = /usr/share" in loaded.untrusted
    )
    assert "absolute path" in refusal(tmp_path, '[docs]\nfolders = ["vendor"]\n')


def test_symlinked_workspace_config_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.toml"
    outside.write_text(SERVER, encoding="utf-8")
    root = tmp_path / "ws"
    root.mkdir()
    (root / config.FILENAME).symlink_to(outside)
    with pytest.raises(UserError, match="symlink"):
        config.load(root)


def test_argv_is_the_one_spelling_and_the_older_keys_are_read_with_a_note(tmp_path: Path) -> None:
    """`argv` names the program of a server, a task and a debug adapter alike; a server's
    `command` and an adapter's `adapter` are still read, each with a one-line note."""
    new = config.parse(
        '[servers.jedi]\nargv = ["jedi-language-server"]\nfiletypes = ["python"]\n'
        '[debug.lldb]\nargv = ["lldb-dap"]\n[tasks.test]\nargv = ["pytest"]\n',
        tmp_path / "new.toml",
    )
    assert new.servers[0].command == ("jedi-language-server",) and new.debug["lldb"].argv == ("lldb-dap",)
    assert new.notes == []
    old = config.parse(
        '[servers.jedi]\ncommand = ["jedi-language-server"]\nfiletypes = ["python"]\n'
        '[debug.lldb]\nadapter = ["lldb-dap"]\n',
        tmp_path / "old.toml",
    )
    assert old.servers[0].command == ("jedi-language-server",) and old.debug["lldb"].argv == ("lldb-dap",)
    assert old.notes == [
        f"`servers.jedi.command` in {tmp_path / 'old.toml'} is the old spelling of `argv`, still read; "
        "rename it to `argv`.",
        f"`debug.lldb.adapter` in {tmp_path / 'old.toml'} is the old spelling of `argv`, still read; "
        "rename it to `argv`.",
    ]
    with pytest.raises(UserError, match="has both `argv` and `command`"):
        config.parse('[servers.x]\nargv = ["a"]\ncommand = ["a"]\nfiletypes = ["python"]\n', tmp_path / "b.toml")


def test_server_status_says_which_keys_are_spelled_the_old_way(tmp_path: Path) -> None:
    from simple_brief import tools as registry
    from simple_brief.files.workspace import Workspace
    from simple_brief.tools import Call

    (tmp_path / config.FILENAME).write_text('[debug.lldb]\nadapter = ["lldb-dap"]\n', encoding="utf-8")
    call = Call(workspace=Workspace.at(tmp_path))
    try:
        result = registry.invoke("server_status", {}, call)
    finally:
        call.session.close()
    assert "config: `debug.lldb.adapter` in " in result.text and "old spelling of `argv`" in result.text
