"""Language intelligence from language servers: the interface the lsp toolset asks.

Two providers answer it: the LSP clients attached in a live Neovim (the editor backend
sends the request to every client of the buffer that supports the method), and, in disk
mode, language servers simple-brief starts itself from `.simple-brief.toml`
(`simple_brief.lsp.pool`). The tools never care which one answered.

Positions: callers give and get LSP-shaped JSON whose `character` counts Unicode code
points (like `model.Position`). A provider converts request positions to each server's
negotiated encoding before sending (`protocol.encode_positions`), and reports the server's
encoding with its reply so `protocol.convert_positions` can bring result positions back to
code points per file. The conversions themselves live in `simple_brief.intel.protocol` (LSP JSON)
and `simple_brief.positions` (columns).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

#: How long one request may wait for its servers, seconds.
DEFAULT_TIMEOUT = 5.0


@dataclass
class LspReply:
    """One server's answer to one request.

    Attributes:
        server: the server's (client's) name, e.g. `jedi_language_server`, `pyright`.
        encoding: the server's position encoding: `utf-8`, `utf-16` or `utf-32`.
        result: the JSON result (None when the server had nothing).
        error: the server's error message, or a timeout note; None on success.
        note: a caveat on a successful answer (it may be incomplete), or None.
    """

    server: str
    encoding: str
    result: Any = None
    error: str | None = None
    note: str | None = None


class LanguageIntel(Protocol):
    """Whatever can send LSP requests about a file of the workspace."""

    def servers(self, path: Path, method: str) -> list[str]:
        """Names of the servers that would answer `method` for `path` (empty: none)."""
        ...

    def request(
        self, path: Path, method: str, params: dict[str, Any], timeout: float = DEFAULT_TIMEOUT
    ) -> list[LspReply]:
        """Send `method` about `path` to every server that supports it.

        `params` are the method's params without `textDocument` (the provider adds it,
        with the file's current text synced first: unsaved buffers and overlays win).
        Every `{"line", "character"}` object in params counts code points and is
        converted for each server. Never raises for a server's failure: it becomes that
        reply's `error`.
        """
        ...

    def diagnostics(self, path: Path, timeout: float = DEFAULT_TIMEOUT) -> list[LspReply] | None:
        """The servers' published diagnostics for `path` (result = list of LSP Diagnostic
        JSON), waiting up to `timeout` for a first publish after the file is synced;
        None when this provider does not collect diagnostics (the editor reports them)."""
        ...

    def close(self) -> None:
        """Stop whatever the provider started."""
        ...


if TYPE_CHECKING:
    from simple_brief.files.config import Config
    from simple_brief.files.workspace import Workspace

#: Starts the language servers a config names for a workspace (disk mode): a LanguageIntel
#: with a `config` attribute. `simple_brief.lsp.pool.ServerPool`, handed to the host when an
#: adapter builds it (`simple_brief.host.wiring`): the engine's tools never import it.
ServerPoolFactory = Callable[["Workspace", "Config"], Any]
