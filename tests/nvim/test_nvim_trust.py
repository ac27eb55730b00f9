""":SimpleBrief trust / untrust in a real headless Neovim, read back by Python's config.load.

The Neovim's XDG_STATE_HOME (tests/nvim_session.py puts it under the test's folder) is
also the Python side's here, so `trust.neovim_database()` reads the file `vim.secure`
writes, and simple-brief's own database is the one the Lua registry module names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pynvim
import pytest

from simple_brief.files import config, trust

from nvim_session import nvim

SERVER = '[servers.jedi]\ncommand = ["jedi-language-server"]\nfiletypes = ["python"]\n'


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[pynvim.Nvim, Path]]:
    """A Neovim whose current directory is a workspace root; Python shares its state folder."""
    root = tmp_path / "ws"
    root.mkdir()
    home = tmp_path / "nvim"
    monkeypatch.setenv("XDG_STATE_HOME", str(home / "xdg-state"))
    monkeypatch.delenv("SIMPLE_BRIEF_STATE_DIR", raising=False)
    with nvim(home) as nv:
        nv.command(f"cd {root}")
        yield nv, root


def run(nv: pynvim.Nvim, command: str) -> str:
    """The messages a command prints (its own lines only)."""
    nv.command("messages clear")
    nv.command(command)
    return str(nv.exec_lua("return vim.api.nvim_exec2('messages', { output = true }).output")).strip()


def servers(root: Path) -> list[str]:
    return [s.name for s in config.load(root).servers]


def test_trust_lets_python_use_the_servers_until_the_file_changes(workspace: tuple[pynvim.Nvim, Path]) -> None:
    nv, root = workspace
    path = root / config.FILENAME
    path.write_text(SERVER)
    assert servers(root) == [] and config.load(root).untrusted is not None

    said = run(nv, "SimpleBrief trust")
    assert said.splitlines() == [said]
    assert said.startswith(f"simple-brief: trusted {path.resolve()} as it is now (sha256 ")
    assert trust.digest(path.read_bytes())[:12] in said
    assert servers(root) == ["jedi"] and config.load(root).untrusted is None
    assert trust.neovim_database().read_text().splitlines() == [f"{trust.digest(path.read_bytes())} {path.resolve()}"]

    # Any change to the file needs a new trust.
    path.write_text(SERVER + "# edited\n")
    assert servers(root) == [] and "not trusted (or changed since)" in str(config.load(root).untrusted)
    run(nv, "SimpleBrief trust")
    assert servers(root) == ["jedi"]

    said = run(nv, "SimpleBrief untrust")
    assert said == (
        f"simple-brief: {path.resolve()} is no longer trusted; "
        "its servers and tasks are ignored until you trust it again"
    )
    assert servers(root) == []
    assert run(nv, "SimpleBrief untrust").endswith("was not trusted; nothing changed")


def test_untrust_also_forgets_simple_brief_trust_and_trust_lifts_a_denial(workspace: tuple[pynvim.Nvim, Path]) -> None:
    nv, root = workspace
    path = root / config.FILENAME
    path.write_text(SERVER)
    trust.allow(path.resolve(), path.read_bytes())  # `simple-brief trust`, simple-brief's own database
    assert servers(root) == ["jedi"]
    run(nv, "SimpleBrief untrust")
    assert servers(root) == []
    assert str(path.resolve()) not in trust.database().read_text()

    trust.deny(path.resolve())  # `simple-brief trust --deny`
    assert "you denied it" in str(config.load(root).untrusted)
    run(nv, "SimpleBrief trust")
    assert servers(root) == ["jedi"]


def test_windows_line_ends_and_a_file_without_a_last_newline_are_trusted_as_they_are(
    workspace: tuple[pynvim.Nvim, Path],
) -> None:
    nv, root = workspace
    path = root / config.FILENAME
    for data in (SERVER.replace("\n", "\r\n").encode(), SERVER.rstrip("\n").encode()):
        path.write_bytes(data)
        run(nv, "SimpleBrief trust")
        assert servers(root) == ["jedi"], data


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "there is no .simple-brief.toml in {root}; create it there first"),
        ("symlink", "{root}/.simple-brief.toml is a symlink, which simple-brief never reads; make it a plain file"),
        ("bom", "reads differently in a buffer than on disk (a byte-order mark"),
        ("unsaved", "has unsaved changes; write it first"),
        ("empty", "is empty, so there is nothing to trust"),
    ],
)
def test_what_cannot_be_trusted_is_one_sentence_and_trusts_nothing(
    workspace: tuple[pynvim.Nvim, Path], setup: str, message: str
) -> None:
    nv, root = workspace
    path = root / config.FILENAME
    if setup == "symlink":
        (root / "real.toml").write_text(SERVER)
        path.symlink_to(root / "real.toml")
    elif setup == "bom":
        path.write_bytes(b"\xef\xbb\xbf" + SERVER.encode())
    elif setup == "unsaved":
        path.write_text(SERVER)
        nv.command(f"edit {path}")
        nv.current.buffer.append("# not written")
    elif setup == "empty":
        path.write_text("")
    with pytest.raises(pynvim.NvimError) as caught:
        nv.command("SimpleBrief trust")
    error = str(caught.value)
    assert "\n" not in error.strip() and message.format(root=root) in error, error
    assert not trust.neovim_database().exists()
    assert (
        nv.exec_lua(
            "return #vim.tbl_filter(function(b) return vim.api.nvim_buf_is_loaded(b) end, vim.api.nvim_list_bufs())"
        )
        == 1
    )


def test_completion_offers_trust_and_untrust(workspace: tuple[pynvim.Nvim, Path]) -> None:
    nv, _ = workspace
    assert nv.exec_lua("return vim.fn.getcompletion('SimpleBrief ', 'cmdline')") == [
        "outline",
        "compact",
        "mcp",
        "trust",
        "untrust",
    ]
    assert nv.exec_lua("return vim.fn.getcompletion('SimpleBrief u', 'cmdline')") == ["untrust"]
