"""Neovim remote plugin: Neovim's Python host runs the simple-brief engine.

Thin glue over `python/simple_brief`. The host serves the engine's language server on a
loopback port, and `lua/simple_brief/lsp.lua` connects Neovim's own LSP client to it with
`vim.lsp.rpc.connect` ('rplugin' mode); the MCP server it serves over HTTP answers through
the same engine host (`simple_brief.host`): one process, one host for the editor.

Register it once with `:UpdateRemotePlugins` (then restart Neovim). The engine must be
installed for the interpreter in `g:python3_host_prog`: the build step's venv
(`:SimpleBriefInstall`, `stdpath('data')/simple-brief/venv/bin/python`) has it and pynvim.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING, Any

import pynvim

if TYPE_CHECKING:
    from simple_brief.host.core import Host
    from simple_brief.servers.lsp import BriefServer


#: How long the first call waits for the server thread to listen.
LISTEN_TIMEOUT_S = 10.0


class EngineMissingError(RuntimeError):
    """The engine cannot be imported in Neovim's Python host."""


class ServerStartError(RuntimeError):
    """The language server thread did not come up."""


def _engine_error(exc: ImportError) -> EngineMissingError:
    missing = exc.name or "simple_brief"
    return EngineMissingError(
        f"simple-brief: cannot import {missing} in Neovim's Python host ({sys.executable}); "
        "run :SimpleBriefInstall, set g:python3_host_prog to stdpath('data') .. "
        "'/simple-brief/venv/bin/python' and restart Neovim, or set host = 'child' in setup()"
    )


@pynvim.plugin
class SimpleBriefHost:
    """The engine inside Neovim's Python host: one language server per host process."""

    def __init__(self, nvim: pynvim.Nvim) -> None:
        self.nvim = nvim
        self._lock = threading.Lock()
        self._server: BriefServer | None = None
        self._thread: threading.Thread | None = None
        self._port: int | None = None
        self._mcp: Any = None
        self._engine: Host | None = None

    def _host(self) -> Host:
        """The one engine host of this process (both servers answer through it); under `_lock`."""
        if self._engine is None:
            from simple_brief.host.wiring import build_host
            from simple_brief.index import watch

            watch.long_lived()  # indexes watch their trees from before their first walk
            self._engine = build_host(long_lived=True)
        return self._engine

    def _running_port(self) -> int | None:
        if self._thread is not None and self._thread.is_alive():
            return self._port
        return None

    @pynvim.function("SimpleBriefLspPort", sync=True)
    def lsp_port(self, args: list[Any]) -> int:
        """Start the language server (once while it runs) and return its loopback port.

        pygls serves one connection per TCP server; when that client stops, the next call
        starts a fresh server on a new port.
        """
        with self._lock:
            port = self._running_port()
            if port is not None:
                return port
            try:
                from simple_brief.servers import lsp as lsp_server
            except ImportError as exc:
                raise _engine_error(exc) from None
            try:
                self._server, self._port, self._thread = lsp_server.serve_tcp_thread(
                    timeout=LISTEN_TIMEOUT_S, engine=self._host()
                )
            except RuntimeError as err:
                raise ServerStartError(f"{err}; run :checkhealth simple_brief") from None
            return self._port

    @pynvim.function("SimpleBriefMcpServe", sync=True)
    def mcp_serve(self, args: list[Any]) -> dict[str, str]:
        """Serve MCP over HTTP from this host (once): args are the workspace root and this
        Neovim's server address, which the engine reads through a connection of its own."""
        root, address = str(args[0]), str(args[1])
        with self._lock:
            if self._mcp is None:
                try:
                    from simple_brief.defaults import DEFAULT_TOOLSETS
                    from simple_brief.files.private_files import state_dir
                    from simple_brief.host.context import attach_editor
                    from simple_brief.host.served import Served, with_editor_toolsets
                    from simple_brief.servers import mcp as mcp_server
                except ImportError as exc:
                    raise _engine_error(exc) from None
                host = self._host()
                workspace = host.state(root).workspace
                editor = attach_editor(workspace.root, address, workspace.secrets)
                state = Served(host, workspace.root, editor, toolsets=with_editor_toolsets(DEFAULT_TOOLSETS, editor))
                self._mcp = mcp_server.serve_http_thread(state, state_dir())
            return {"url": self._mcp.url, "token": self._mcp.token, "file": str(self._mcp.info_file)}

    @pynvim.function("SimpleBriefHostInfo", sync=True)
    def host_info(self, args: list[Any]) -> dict[str, Any]:
        """What `:checkhealth simple_brief` reports: engine version, interpreter, LSP port.

        `lsp_port` is left out while no server runs (Lua then sees nil).
        """
        try:
            # The server's imports (pygls, tree-sitter, grammars) are what the host needs.
            from simple_brief import __version__
            from simple_brief.servers import lsp  # noqa: F401
        except ImportError as exc:
            raise _engine_error(exc) from None
        info: dict[str, Any] = {"engine_version": __version__, "python": sys.executable}
        port = self._running_port()
        if port is not None:
            info["lsp_port"] = port
        return info
