"""Zero-config language servers (issue 18): with no `[servers]` for a language, the servers
installed for it are found on the person's PATH (no trust needed) or in the workspace's own
virtual environment (only once the workspace is trusted), and `server_status` says which.

The servers are the real ones from PyPI in this interpreter's bin folder; each test builds
the PATH it searches (a folder of symlinks to them), so it controls what is found.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from simple_brief.errors import UserError
from simple_brief.files import config
from simple_brief.files.workspace import Workspace
from simple_brief.intel import server_discovery
from simple_brief.lsp import pool as pool_module
from simple_brief.lsp.pool import ServerPool
from simple_brief.tools import Call, Session, ToolResult, invoke

from conftest import write_trusted_config

BIN = Path(sys.executable).parent
APP = '''from helpers import greet


def total(items: list[int]) -> int:
    """Add the items."""
    return sum(items)


print(greet("x"), total([1]))
'''
HELPERS = 'def greet(name: str) -> str:\n    return "hi " + name\n'
TRUST_HINT = (
    "review the workspace's .simple-brief.toml (create an empty one if there is none), then run "
    "`simple-brief trust` (in Neovim `:SimpleBrief trust`) to use it."
)


def run(call: Call, name: str, **args: Any) -> ToolResult:
    """One call of the tool, on `call`'s workspace and session (each call reads the configs anew)."""
    return invoke(name, args, Call(call.workspace, session=call.session))


def links(folder: Path, *programs: str) -> Path:
    """`folder` holding a symlink to each real program of this interpreter's bin folder."""
    folder.mkdir(parents=True, exist_ok=True)
    for program in programs:
        (folder / program).symlink_to(BIN / program)
    return folder


@pytest.fixture
def workspace(tmp_path: Path) -> Iterator[Call]:
    """A Python project with no config at all, and a session on it (closed afterwards)."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text(APP)
    (root / "helpers.py").write_text(HELPERS)
    call = Call(workspace=Workspace.at(root), session=Session(server_pool=ServerPool))
    try:
        yield call
    finally:
        call.session.close()


def status_lines(call: Call) -> list[str]:
    """The `language servers …` lines, without whether each server has loaded the workspace yet
    (`, ready` or `, loading the workspace (…)`: a matter of timing, tested on its own below)."""
    lines = [line for line in run(call, "server_status").text.splitlines() if line.startswith("language servers")]
    return [re.sub(r", (?:ready|loading the workspace \(.*?\))\]", "]", line) for line in lines]


def test_a_server_on_path_answers_with_no_config(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path_bin = links(tmp_path / "bin", "jedi-language-server", "pylsp")
    monkeypatch.setenv("PATH", str(path_bin))
    assert status_lines(workspace) == [
        "language servers: none asked for yet (each language's are found on its first request)"
    ]
    hover = run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert hover.blocks[0].splitlines()[:2] == [
        "app.py:9:20 `total` (jedi-language-server)",
        "def total(items: list[int]) -> int",
    ]
    definition = run(workspace, "analyze", what="definition", path="app.py", line=9, col=8)
    assert "helpers.py:1:5 def greet(name: str) -> str:" in definition.text
    # jedi-language-server comes before pylsp: only the chosen one starts.
    assert status_lines(workspace) == [
        f"language servers for python: found jedi-language-server (on PATH: {path_bin}/jedi-language-server, "
        f"chosen) [running]; pylsp (on PATH: {path_bin}/pylsp)"
    ]
    data = run(workspace, "server_status").data
    assert data["language_servers"]["python"]["chosen"] == "jedi-language-server"
    # Only the chosen server answers: what it does not offer is refused with what else was found.
    with pytest.raises(UserError) as err:
        run(workspace, "refactor", action="format", path="app.py")
    assert str(err.value) == (
        "no language server answers textDocument/formatting for app.py; jedi-language-server (on PATH: "
        f"{path_bin}/jedi-language-server, chosen) does not offer it (pylsp found too: a [servers.NAME] table "
        "can name it); attach one in Neovim or name one in .simple-brief.toml ([servers.NAME] command = [...])."
    )
    assert [s["name"] for s in data["servers"]] == ["jedi-language-server"]


def test_the_order_of_preference_is_basedpyright_pyright_jedi_pylsp(tmp_path: Path) -> None:
    root = tmp_path / "project"
    root.mkdir()
    path_bin = links(tmp_path / "bin", "pylsp", "jedi-language-server", "basedpyright-langserver")
    found = server_discovery.discover("python", root, config.Config(), str(path_bin))
    assert [f.server.name for f in found.found] == ["basedpyright", "jedi-language-server", "pylsp"]
    assert found.chosen == config.ServerConfig(
        "basedpyright", (str(path_bin / "basedpyright-langserver"), "--stdio"), ("python",)
    )
    (path_bin / "basedpyright-langserver").unlink()
    found = server_discovery.discover("python", root, config.Config(), str(path_bin))
    assert found.chosen is not None and found.chosen.command == (str(path_bin / "jedi-language-server"),)
    only_pylsp = server_discovery.discover("python", root, config.Config(), str(links(tmp_path / "p", "pylsp")))
    # pylsp counts code points without saying so: set as a configured pylsp gets it.
    assert only_pylsp.chosen is not None and only_pylsp.chosen.position_encoding == "utf-32"
    assert server_discovery.discover("toml", root, config.Config(), str(path_bin)).servers == []


def test_the_workspace_venv_is_used_only_once_the_workspace_is_trusted(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = workspace.workspace.root
    links(root / ".venv" / "bin", "pylsp")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(UserError) as err:
        run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert str(err.value) == (
        "no language server answers textDocument/hover for app.py; pylsp was found in the workspace "
        f"(.venv/bin/pylsp) but the workspace is not trusted, so it is not run; {TRUST_HINT}"
    )
    assert status_lines(workspace) == [
        "language servers for python: found pylsp (in the workspace: .venv/bin/pylsp, "
        "not used: the workspace is not trusted)"
    ]
    # A config file that is there but not trusted says so.
    (root / config.FILENAME).write_text("")
    with pytest.raises(UserError, match=r"\.simple-brief\.toml is not trusted \(or changed since\), so it is not run"):
        run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    write_trusted_config(root, "")  # an empty config, trusted: the workspace is trusted
    hover = run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert hover.blocks[0].splitlines()[0] == "app.py:9:20 `total` (pylsp)"
    assert status_lines(workspace) == [
        "language servers for python: found pylsp (in the workspace: .venv/bin/pylsp, chosen) [running]"
    ]


def test_the_trusted_venv_comes_before_path_and_the_server_path_chose_is_stopped(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = workspace.workspace.root
    monkeypatch.setenv("PATH", str(links(tmp_path / "bin", "jedi-language-server")))
    first = run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert "(jedi-language-server)" in first.blocks[0].splitlines()[0]
    pool = workspace.session.language_servers
    links(root / "venv" / "bin", "pylsp")
    write_trusted_config(root, "")
    second = run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert "(pylsp)" in second.blocks[0].splitlines()[0]
    assert workspace.session.language_servers is pool  # the same pool: only the chosen server changed
    assert [s["name"] for s in pool.status()] == ["pylsp"]


def test_path_entries_inside_the_workspace_or_relative_are_never_used(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = workspace.workspace.root
    planted = links(root / "bin", "jedi-language-server", "pylsp")
    (tmp_path / "looks-outside").symlink_to(planted)  # an outside name for a folder inside
    monkeypatch.chdir(root)
    monkeypatch.setenv("PATH", f"bin::./bin:{planted}:{tmp_path / 'looks-outside'}")
    write_trusted_config(root, "")  # even a trusted workspace runs its programs only from its venv
    with pytest.raises(UserError) as err:
        run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    # The whole sentence: tests/lsp/test_lsp_tools.py.
    assert "; none of basedpyright, pyright, jedi-language-server, pylsp was found on PATH" in str(err.value)
    assert server_discovery.on_path("pylsp", root) is None
    (tmp_path / "other").mkdir()  # from another workspace, the same PATH finds the program
    assert server_discovery.on_path("pylsp", tmp_path / "other") == planted / "pylsp"


def test_a_configured_server_wins(workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = workspace.workspace.root
    monkeypatch.setenv("PATH", str(links(tmp_path / "bin", "jedi-language-server")))
    write_trusted_config(root, f'[servers.mine]\ncommand = ["{BIN / "pylsp"}"]\nfiletypes = ["python"]\n')
    hover = run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert hover.blocks[0].splitlines()[0] == "app.py:9:20 `total` (mine)"
    assert status_lines(workspace) == ["language servers for python: configured mine [running]"]
    assert run(workspace, "server_status").data["language_servers"]["python"] == {
        "configured": ["mine"],
        "discover": True,
        "found": [],
        "chosen": None,
    }


def test_discovery_off_by_config(workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = workspace.workspace.root
    monkeypatch.setenv("PATH", str(links(tmp_path / "bin", "jedi-language-server")))
    own = tmp_path / "own.toml"
    own.write_text("[servers]\ndiscover = false\n")
    monkeypatch.setenv(config.USER_CONFIG_ENV, str(own))
    off = (
        "no language server answers textDocument/hover for app.py; finding installed servers is off "
        "([servers] discover = false); attach one in Neovim or name one in .simple-brief.toml "
        "([servers.NAME] command = [...])."
    )
    with pytest.raises(UserError) as err:
        run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert str(err.value) == off
    assert status_lines(workspace) == [
        "language servers for python: none configured; finding installed ones is off ([servers] discover = false)"
    ]
    # The workspace's own file may turn it off too (that runs nothing: no trust needed).
    monkeypatch.delenv(config.USER_CONFIG_ENV)
    (root / config.FILENAME).write_text("[servers]\ndiscover = false\n")
    with pytest.raises(UserError) as err:
        run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    assert str(err.value) == off
    (root / config.FILENAME).unlink()
    assert "(jedi-language-server)" in run(workspace, "analyze", what="hover", path="app.py", line=9, col=20).text


def test_the_switch_is_validated(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"`servers.discover` in .* must be true or false, not 'no'"):
        config.parse('[servers]\ndiscover = "no"\n', tmp_path / config.FILENAME)
    assert config.parse("[servers]\ndiscover = false\n", tmp_path / "x.toml").discover is False
    assert config.parse("", tmp_path / "x.toml").discover is True


@pytest.mark.skipif(shutil.which("rustup") is None, reason="needs rustup")
def test_a_rustup_proxy_without_its_component_is_found_but_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rustup = Path(str(shutil.which("rustup")))
    folder = tmp_path / "cargo-bin"
    folder.mkdir()
    (folder / "rustup").symlink_to(rustup)
    (folder / "rust-analyzer").symlink_to(rustup)  # what rustup installs: the same program
    toolchain = tmp_path / "rustup-home" / "toolchains" / "stable-x86_64-unknown-linux-gnu" / "bin"
    links(toolchain, "pylsp")  # a toolchain without rust-analyzer
    monkeypatch.setenv("RUSTUP_HOME", str(tmp_path / "rustup-home"))
    found = server_discovery.discover("rust", tmp_path / "project", config.Config(), str(folder))
    assert found.chosen is None
    assert found.line({}) == (
        f"language servers for rust: found rust-analyzer (on PATH: {folder}/rust-analyzer, not used: a rustup "
        "proxy; `rustup component add rust-analyzer` installs it)"
    )
    (toolchain / "rust-analyzer").symlink_to(BIN / "pylsp")  # the component installed: the proxy runs it
    found = server_discovery.discover("rust", tmp_path / "project", config.Config(), str(folder))
    assert found.chosen is not None and found.chosen.command == (str(folder / "rust-analyzer"),)


def test_the_first_references_of_a_just_started_basedpyright_cover_the_other_files(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """basedpyright finds the workspace's files only after it started, and answers
    references meanwhile from the open file alone: the first call in a workspace missed
    app.py's uses. Such requests now wait for its "Found N source files"."""
    monkeypatch.setenv("PATH", str(links(tmp_path / "bin", "basedpyright-langserver")))
    found = run(workspace, "analyze", what="references", path="helpers.py", line=1, col=5)
    assert found.data["references"].keys() == {"app.py", "helpers.py"}, found.blocks
    assert found.blocks[0].startswith("3 references to `greet` in 2 files"), found.blocks


def test_references_asked_before_basedpyright_found_the_files_say_they_may_be_incomplete(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server that has not said it found the workspace's files within the wait (here no
    wait at all) is asked anyway, and the answer's first line says it may be incomplete
    and how to get the rest; the wait is not paid again while the answers still say so."""
    monkeypatch.setattr(pool_module, "READY_WAIT", 0.0)
    monkeypatch.setenv("PATH", str(links(tmp_path / "bin", "basedpyright-langserver")))
    first = run(workspace, "analyze", what="references", path="helpers.py", line=1, col=5)
    notice = (
        "[basedpyright had not finished loading the workspace (finding the workspace's source files) after "
        "waiting up to 0 s, so this answer may be incomplete; ask the same again in a few seconds for the "
        "whole answer.]"
    )
    assert first.blocks[0].splitlines()[0] == notice, first.blocks
    assert first.data["incomplete"] == notice
    again = run(workspace, "analyze", what="references", path="helpers.py", line=1, col=5)
    assert again.blocks[0].splitlines()[0] == notice or again.data["total"] == 3, again.blocks


def test_server_status_says_whether_each_server_is_still_loading_the_workspace(
    workspace: Call, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent that sees an incomplete answer can ask `server_status` whether to ask again:
    it says per server `ready`, or `loading the workspace (N s so far; work: TITLE)`. The
    server is the real jedi-language-server; the loading is the work-done progress clangd
    sends while it indexes, handed to its connection (jedi reports none)."""
    monkeypatch.setenv("PATH", str(links(tmp_path / "bin", "jedi-language-server")))
    run(workspace, "analyze", what="hover", path="app.py", line=9, col=20)
    server = workspace.session.language_servers._servers["jedi-language-server"]  # type: ignore[union-attr]
    server.workspace_ready.progressed("backgroundIndexProgress", {"kind": "begin", "title": "indexing"})
    status = run(workspace, "server_status")
    line = next(x for x in status.text.splitlines() if x.startswith("language servers for python"))
    assert re.search(r"\[running, loading the workspace \(\d+(\.\d)? s so far; work: indexing\)\]", line), line
    (found,) = status.data["servers"]
    assert (found["ready"], found["loading"]) == (False, ["indexing"]) and f"[running, {found['workspace']}]" in line
    assert isinstance(found["loading_s"], float)
    server.workspace_ready.progressed("backgroundIndexProgress", {"kind": "end"})
    server.workspace_ready._last_sign = -1e9  # its quiet period over (`SETTLE` after the end)
    status = run(workspace, "server_status")
    assert "[running, ready]" in status.text, status.text
    assert status.data["servers"][0]["ready"] is True and status.data["servers"][0]["loading_s"] is None
