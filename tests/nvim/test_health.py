""":checkhealth simple_brief passes in both modes and says plainly which one is active."""

from __future__ import annotations

import sys
from pathlib import Path

import pynvim
import pytest

from simple_brief import __version__

from nvim_session import nvim

#: Lines of the report that only a failed or crashed check writes.
FAILURE_MARKS = ("ERROR", "Failed to run healthcheck")


def checkhealth(nv: pynvim.Nvim) -> list[str]:
    """The lines of the :checkhealth simple_brief report (its buffer becomes the current one)."""
    nv.command("checkhealth simple_brief")
    lines: list[str] = nv.current.buffer[:]
    assert nv.current.buffer.options["filetype"] == "checkhealth"
    return lines


def failures(lines: list[str]) -> list[str]:
    return [line for line in lines if any(mark in line for mark in FAILURE_MARKS)]


def ok_line(lines: list[str], start: str) -> str:
    """The one OK line whose message starts with `start`."""
    found = [line for line in lines if line.startswith("- ✅ OK " + start)]
    assert len(found) == 1, "\n".join(lines)
    return found[0]


def host_args() -> list[str]:
    return ["--cmd", f"let g:python3_host_prog = '{sys.executable}'"]


def host_env(manifest: Path) -> dict[str, str]:
    return {"SIMPLE_BRIEF_TEST_HOST": "rplugin", "SIMPLE_BRIEF_TEST_PYTHON": "", "NVIM_RPLUGIN_MANIFEST": str(manifest)}


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("rplugin")
    path = tmp / "rplugin.vim"
    with nvim(tmp, *host_args(), **host_env(path)) as nv:
        nv.command("UpdateRemotePlugins")
    return path


def test_health_in_child_mode(tmp_path: Path) -> None:
    with nvim(tmp_path) as nv:
        lines = checkhealth(nv)
        clients_left = nv.exec_lua(
            "return vim.wait(5000, function() return #vim.lsp.get_clients({ name = 'simple-brief' }) == 0 end, 10)"
        )
    assert failures(lines) == [], "\n".join(lines)
    assert "mode: child — " in ok_line(lines, "mode: child")
    assert f"engine simple-brief {__version__}" in ok_line(lines, "engine simple-brief")
    assert "python" in ok_line(lines, "grammars in ")
    # Every default filetype's grammar loads: a wheel's, the offline bundle's
    # (`tree_sitter_language_pack.bindings.perl`), Neovim's own vimdoc parser (`neovim:vimdoc`).
    assert not [line for line in lines if "without a grammar" in line], "\n".join(lines)
    assert "(child mode)" in ok_line(lines, "the language server started and answered foldingRange")
    ok_line(lines, "state directory ")
    assert clients_left is True  # the check stops the client it started


def test_health_in_rplugin_mode(tmp_path: Path, manifest: Path) -> None:
    source = tmp_path / "a.py"
    source.write_text("import os\n\n\ndef f():\n    return os.sep\n")
    with nvim(tmp_path, *host_args(), **host_env(manifest)) as nv:
        lines = checkhealth(nv)
        # The check leaves the editor working: :SimpleBrief still folds through the host.
        nv.command(f"tabnew {source}")
        nv.command("SimpleBrief")
        folded = nv.exec_lua("return { vim.fn.foldclosed(4), require('simple_brief.lsp').mode() }")
    assert failures(lines) == [], "\n".join(lines)
    ok_line(lines, "mode: rplugin")
    assert sys.executable in ok_line(lines, "Python host ")
    ok_line(lines, "the remote plugin is registered")
    assert f"engine simple-brief {__version__} in the Python host ({sys.executable})" in "\n".join(lines)
    assert "(rplugin mode)" in ok_line(lines, "the language server started and answered foldingRange")
    assert folded == [4, "rplugin"]


def test_health_without_the_engine_gives_advice_that_works_here(tmp_path: Path) -> None:
    """The engine is not on PyPI: the advice is the build step, which installs it from this
    plugin's folder (tests/install/test_install_e2e.py runs it)."""
    with nvim(tmp_path, SIMPLE_BRIEF_TEST_PYTHON="") as nv:
        nv.exec_lua(
            "require('simple_brief').setup({ cmd = { ... , '-m', 'simple_brief_not_installed', 'lsp' } })",
            sys.executable,
        )
        text = "\n".join(checkhealth(nv))
        command_exists = nv.funcs.exists(":SimpleBriefInstall")
    assert "pip install" not in text
    assert "Run :SimpleBriefInstall (the build step" in text
    assert command_exists == 2
