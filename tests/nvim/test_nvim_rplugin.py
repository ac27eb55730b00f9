"""Both places the engine runs: Neovim's Python host (rplugin mode) and a child process.

rplugin mode follows the documented steps: `g:python3_host_prog` names an interpreter with
pynvim and the engine, `:UpdateRemotePlugins` writes the manifest, and a restarted Neovim
connects its LSP client to the host's loopback server (no child process). Child mode runs
`python -m simple_brief lsp`. Both must close the same folds with the same fold text.
"""

from __future__ import annotations

import importlib.util
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pynvim
import pytest

from simple_brief import __version__

from nvim_session import ROOT, closed_folds, nvim

SOURCE = '''"""Shapes and their areas."""

import math
from dataclasses import dataclass


@dataclass
class Circle:
    radius: float

    def area(self) -> float:
        return math.pi * self.radius**2

    def scaled(self, k: float) -> "Circle":
        r = self.radius * k
        return Circle(r)


def total_area(shapes: list[Circle]) -> float:
    def one(s: Circle) -> float:
        return s.area()

    return sum(one(s) for s in shapes)
'''

#: The outline: imports and every body closed; the class stays open so its methods show.
EXPECTED_FOLDS = [
    (3, 4, ".. 2 import lines  [2 lines]"),
    (11, 12, "    F> def area(self) -> float { ... }  [2 lines]"),
    (14, 16, '    F> def scaled(self, k: float) -> "Circle" { ... }  [3 lines]'),
    (19, 23, "F> def total_area(shapes: list[Circle]) -> float { ... }  [5 lines]"),
]

HOST_FILE = ROOT / "rplugin" / "python3" / "simple_brief_host.py"

#: What the LSP client of the current buffer is: its mode, how its cmd is given, its pid.
CLIENT_INFO = """
local c = require('simple_brief.lsp').client(0)
return {
  mode = require('simple_brief.lsp').mode(),
  cmd = c and type(c.config.cmd) or vim.NIL,
  clients = #vim.lsp.get_clients({ name = 'simple-brief' }),
}
"""


def host_args() -> list[str]:
    """nvim arguments that make this venv's interpreter Neovim's Python host."""
    return ["--cmd", f"let g:python3_host_prog = '{sys.executable}'"]


def host_env(manifest: Path | None = None, **extra: str) -> dict[str, str]:
    """Keep the Python provider on and let setup() pick the mode (no forced child cmd)."""
    env = {"SIMPLE_BRIEF_TEST_HOST": "rplugin", "SIMPLE_BRIEF_TEST_PYTHON": "", **extra}
    if manifest is not None:
        env["NVIM_RPLUGIN_MANIFEST"] = str(manifest)
    return env


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A manifest written by `:UpdateRemotePlugins` (once for the module)."""
    tmp = tmp_path_factory.mktemp("rplugin")
    path = tmp / "rplugin.vim"
    with nvim(tmp, *host_args(), **host_env(path)) as nv:
        nv.command("UpdateRemotePlugins")
    return path


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "shapes.py"
    path.write_text(SOURCE)
    return path


def brief(nv: pynvim.Nvim, path: Path) -> tuple[dict[str, Any], list[tuple[int, int, str]]]:
    """Open `path`, run :SimpleBrief; return the client's description and the closed folds."""
    nv.command(f"edit {path}")
    nv.command("SimpleBrief")
    return nv.exec_lua(CLIENT_INFO), closed_folds(nv)


def test_update_remote_plugins_registers_the_host_functions(manifest: Path) -> None:
    text = manifest.read_text()
    assert str(HOST_FILE) in text
    assert "'name': 'SimpleBriefLspPort'" in text
    assert "'name': 'SimpleBriefHostInfo'" in text


def test_rplugin_mode_folds_through_the_python_host(tmp_path: Path, manifest: Path, source: Path) -> None:
    with nvim(tmp_path, *host_args(), **host_env(manifest)) as nv:
        client, folds = brief(nv, source)
        info = nv.call("SimpleBriefHostInfo")
    assert client == {"mode": "rplugin", "cmd": "function", "clients": 1}  # connect(): no child
    assert folds == EXPECTED_FOLDS
    assert info["engine_version"] == __version__
    assert info["python"] == sys.executable
    assert isinstance(info["lsp_port"], int)


def test_child_mode_folds_the_same(tmp_path: Path, source: Path) -> None:
    # The harness's default: setup({ host = 'child', cmd = { python, '-m', 'simple_brief', 'lsp' } }).
    with nvim(tmp_path) as nv:
        client, folds = brief(nv, source)
        has_host = nv.exec_lua("return vim.fn.exists('*SimpleBriefLspPort')")
    assert client == {"mode": "child", "cmd": "table", "clients": 1}
    assert folds == EXPECTED_FOLDS
    assert has_host == 0


def test_auto_mode_without_the_remote_plugin_uses_a_child(tmp_path: Path, source: Path) -> None:
    # A working Python host but no :UpdateRemotePlugins yet: the Lua side starts the child.
    with nvim(tmp_path, *host_args(), **host_env(tmp_path / "none.vim")) as nv:
        client, folds = brief(nv, source)
    assert client == {"mode": "child", "cmd": "table", "clients": 1}
    assert folds == EXPECTED_FOLDS


def test_documented_update_remote_plugins_step_from_a_clean_xdg_dir(tmp_path: Path) -> None:
    # No NVIM_RPLUGIN_MANIFEST: the manifest lands in $XDG_DATA_HOME/nvim/rplugin.vim.
    with nvim(tmp_path, *host_args(), **host_env()) as nv:
        before = nv.exec_lua("return require('simple_brief.lsp').mode()")
        nv.command("UpdateRemotePlugins")
    written = tmp_path / "xdg-data" / "nvim" / "rplugin.vim"
    assert before == "child"
    assert "'name': 'SimpleBriefLspPort'" in written.read_text()
    # After the restart the plugin is registered and chosen (its host starts on first use).
    with nvim(tmp_path, *host_args(), **host_env()) as nv:
        registered = nv.exec_lua("return vim.fn.exists('#FuncUndefined#SimpleBriefLspPort')")
        mode = nv.exec_lua("return require('simple_brief.lsp').mode()")
    assert (registered, mode) == (1, "rplugin")


def test_missing_engine_in_the_host_is_one_clear_sentence(tmp_path: Path, manifest: Path) -> None:
    # A package that shadows the engine and fails as a missing dependency would.
    fake = tmp_path / "fake" / "simple_brief"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named tree_sitter', name='tree_sitter')\n")
    with nvim(tmp_path, *host_args(), **host_env(manifest, PYTHONPATH=str(fake.parent))) as nv:
        ok, err = nv.exec_lua("return { pcall(vim.fn.SimpleBriefLspPort) }")
    assert ok is False
    last = err.strip().splitlines()[-1]
    assert last == (
        "simple_brief_host.EngineMissingError: simple-brief: cannot import tree_sitter in Neovim's Python host "
        f"({sys.executable}); run :SimpleBriefInstall, set g:python3_host_prog to stdpath('data') .. "
        "'/simple-brief/venv/bin/python' and restart Neovim, or set host = 'child' in setup()"
    )
    assert "During handling" not in err  # raised `from None`: no chained import traceback
    assert "fake" not in err


# The remote plugin's class, driven directly (no Neovim): its state per host process.


@pytest.fixture
def host_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("simple_brief_host", HOST_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def host(host_module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    import threading

    from simple_brief.index import watch

    # The plugin's engine host makes its process long-lived (its indexes watch their trees):
    # this test process is so for the test only.
    monkeypatch.setattr(watch, "_long_lived", threading.Event())
    plugin = host_module.SimpleBriefHost(None)
    yield plugin
    port = plugin._running_port()
    if port is not None:  # a client that connects and leaves ends the server's thread
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        plugin._thread.join(timeout=10)


def test_host_starts_one_server_and_restarts_it_after_its_client_left(host: Any) -> None:
    assert "lsp_port" not in host.host_info([])
    port = host.lsp_port([])
    assert host.lsp_port([]) == port
    assert host.host_info([]) == {"engine_version": __version__, "python": sys.executable, "lsp_port": port}
    # pygls serves one connection per TCP server: a client that connects and leaves ends it.
    with socket.create_connection(("127.0.0.1", port), timeout=5):
        pass
    host._thread.join(timeout=10)
    assert not host._thread.is_alive()
    assert "lsp_port" not in host.host_info([])
    assert host.lsp_port([]) != port


def test_host_reports_a_missing_engine_in_one_sentence(host: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "simple_brief" or m.startswith("simple_brief.")]:
        monkeypatch.setitem(sys.modules, name, None)  # importing simple_brief (or any part) now fails
    for call in (host.lsp_port, host.host_info):
        with pytest.raises(
            Exception, match=r"cannot import simple_brief(\.servers)? in Neovim's Python host"
        ) as caught:
            call([])
        assert caught.value.__cause__ is None
        assert caught.value.__suppress_context__


def test_host_serves_its_lsp_and_mcp_servers_over_one_engine_host(
    host: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neovim's Python host runs one engine host: the fold server and the MCP server it
    serves share it (the rplugin built a second, MCP-only state before)."""
    from simple_brief.servers import mcp as mcp_server

    served: list[Any] = []

    class Running:
        url, token, info_file = "http://127.0.0.1:1/mcp", "token", tmp_path / "server.json"

    def serve(state: Any, state_dir: Path) -> Running:
        served.append(state)
        return Running()

    monkeypatch.setattr(mcp_server, "serve_http_thread", serve)
    host.lsp_port([])
    assert host.mcp_serve([str(tmp_path), str(tmp_path / "no-nvim.sock")])["url"] == Running.url
    engine = host._server.host
    assert engine is not None and served[0].host is engine
    answer = served[0].call("simple_read", {"path": "."})
    assert answer.is_error and "is a directory" in answer.blocks[-1]
    assert engine.roots() == [str(tmp_path.resolve())]
