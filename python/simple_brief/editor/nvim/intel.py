"""Language intelligence from the LSP clients attached in a live Neovim, and edits to its buffers.

`NvimIntel` is the `LanguageIntel` of an `NvimBackend`: each question is one `exec_lua`
(the helpers in nvim_rpc.lua) run on the backend's worker thread like its other calls.

- `servers(path, method)`: the clients attached to the file's loaded buffer that support
  the method (`client:supports_method`), simple-brief's own client left out. A file with
  no loaded buffer has none, so the tools fall back to the servers they start themselves.
- `request(...)`: sent to all those clients at once with `client:request` (which first
  flushes pending didChange, so servers see the unsaved buffer); Neovim waits up to the
  timeout for all of them with `vim.wait`, cancelling the late ones. Request positions are
  converted from code points to each client's `offset_encoding` on the buffer's lines;
  results come back in that encoding (`LspReply.encoding`).
- `texts(paths)`: the text of loaded buffers, the text those servers see, for bringing
  result positions back to code points.

Nothing is asked about a secrets file (`NvimBackend.secret_rule`): no servers, no
requests, no text; language servers' answers about it stay in Neovim.

`apply_edits` applies `TextEdit`s (code points) with `vim.lsp.util.apply_text_edits`,
loading files that have no buffer yet as hidden buffers; nothing is written to disk.

While Neovim waits for a server it does not read the person's keys: the timeout bounds it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from simple_brief.editor.nvim.buffers import BufferCache
from simple_brief.errors import UserError
from simple_brief.intel import DEFAULT_TIMEOUT, LspReply
from simple_brief.intel.protocol import text_edit_to_lsp
from simple_brief.model import TextEdit

T = TypeVar("T")

#: The name of simple-brief's own language-server client in Neovim (lua/simple_brief/lsp.lua):
#: never asked (it answers from the same scanner the tools already use).
OWN_CLIENT = "simple-brief"


class NvimBackend(Protocol):
    """What NvimIntel uses of `simple_brief.editor.nvim.backend.NvimBackend` (a Protocol, so that
    the backend can create its intel without an import cycle)."""

    _nvim: Any
    address: str
    call_timeout: float
    buffers: BufferCache

    def _call(self, fn: Callable[[], T], default: T, what: str, timeout: float | None = None) -> T: ...

    def secret_rule(self, path: Path) -> str | None: ...

    def status(self) -> dict[str, Any]: ...


log = logging.getLogger(__name__)

_SERVERS = "return simple_brief_rpc.intel_servers(...)"
_REQUEST = "return simple_brief_rpc.intel_request(...)"
_TEXTS = "return simple_brief_rpc.buffer_texts(...)"
_APPLY = "return simple_brief_rpc.apply_edits(...)"


class NvimIntel:
    """`LanguageIntel` over the LSP clients attached in the backend's Neovim.

    Never raises for a server's failure (it becomes the reply's `error`); when Neovim does
    not answer, every question answers empty and the backend's `status()` says why.

    Args:
        backend: the Neovim backend whose connection and worker thread are used.
    """

    def __init__(self, backend: NvimBackend) -> None:
        self._backend = backend
        self._own = OWN_CLIENT

    def servers(self, path: Path, method: str) -> list[str]:
        """Names of the clients attached to `path`'s buffer that support `method`.

        Args:
            path: an absolute (resolved) file path.
            method: an LSP method, e.g. `textDocument/hover`.

        Returns:
            Client names, oldest client first; empty when the file has no loaded buffer,
            no client supports the method, it is a secrets file, or Neovim does not answer.
        """
        be = self._backend
        if be.secret_rule(path) is not None:
            return []

        def run() -> list[str]:
            names = be._nvim.exec_lua(_SERVERS, str(path), method, self._own) or []
            return [str(name) for name in names]

        return be._call(run, [], "lsp servers")

    def request(
        self, path: Path, method: str, params: dict[str, Any], timeout: float = DEFAULT_TIMEOUT
    ) -> list[LspReply]:
        """Send `method` about `path` to every client of its buffer that supports it.

        Args:
            path: an absolute (resolved) file path with a loaded buffer.
            method: the LSP method.
            params: its params without `textDocument`; positions count code points.
            timeout: seconds Neovim waits for all the servers.

        Returns:
            One reply per client (a late one carries a timeout `error`); empty when no
            client supports the method, the file has no loaded buffer, or Neovim is gone.
        """
        be = self._backend
        if be.secret_rule(path) is not None:
            return []
        timeout_ms = max(1, int(timeout * 1000))

        def run() -> list[LspReply]:
            raw = be._nvim.exec_lua(_REQUEST, str(path), method, params, timeout_ms, self._own) or []
            return [_reply(item) for item in raw]

        return be._call(run, [], f"lsp {method}", be.call_timeout + timeout)

    def diagnostics(self, path: Path, timeout: float = DEFAULT_TIMEOUT) -> list[LspReply] | None:
        """None: the editor's diagnostics come through `EditorBackend.diagnostics`."""
        return None

    def texts(self, paths: Iterable[Path]) -> dict[Path, str]:
        """The text of each of `paths` that has a loaded buffer: what its servers see.

        Files missing from the answer are not loaded: their servers read them from disk.
        Unchanged buffers are not sent again (the backend's text cache); secrets files
        are never asked for.
        """
        be = self._backend
        wanted = [str(p) for p in dict.fromkeys(paths) if be.secret_rule(p) is None]
        if not wanted:
            return {}

        def run() -> dict[Path, str]:
            items = be._nvim.exec_lua(_TEXTS, wanted, be.buffers.known_ticks()) or []
            out: dict[Path, str] = {}
            for item in items:
                buf, tick = int(item["buf"]), int(item["tick"])
                text = be.buffers.text(buf, tick, item.get("lines"), bool(item.get("eol")))
                if text is None:  # the cache lost it meanwhile: ask for this one with lines
                    again = be._nvim.exec_lua(_TEXTS, [item["path"]], {}) or []
                    if not again:
                        continue
                    item = again[0]
                    lines, eol = item.get("lines"), bool(item.get("eol"))
                    text = be.buffers.text(int(item["buf"]), int(item["tick"]), lines, eol)
                if text is not None:
                    out[Path(str(item["path"]))] = text
            return out

        return be._call(run, {}, "buffer texts")

    def text(self, path: Path) -> str | None:
        """The text of `path`'s loaded buffer, or None when it has none (servers read the disk)."""
        return self.texts([path]).get(Path(path))

    def close(self) -> None:
        """Nothing to stop: the clients belong to Neovim."""


def _reply(item: dict[str, Any]) -> LspReply:
    error = item.get("error")
    return LspReply(
        server=str(item.get("name") or ""),
        encoding=str(item.get("encoding") or "utf-16"),
        result=item.get("result"),
        error=str(error) if error is not None else None,
    )


def apply_edits(backend: NvimBackend, edits: dict[Path, list[TextEdit]]) -> list[Path]:
    """Apply `edits` (positions in code points) to Neovim's buffers; see `EditorBackend.apply_edits`.

    Files without a buffer are loaded into hidden buffers first; every buffer is checked
    before any edit is made, so a refusal changes nothing. Nothing is written to disk.

    Returns:
        The paths whose buffers changed, in the order given.

    Raises:
        UserError: Neovim does not answer, a file cannot be loaded, or a buffer is not
            modifiable.
    """
    items = [
        {"path": str(path), "edits": [text_edit_to_lsp(e) for e in found]} for path, found in edits.items() if found
    ]
    if not items:
        return []

    def run() -> dict[str, Any]:
        answer: Any = backend._nvim.exec_lua(_APPLY, items)
        return answer if isinstance(answer, dict) else {"error": "apply", "message": repr(answer)}

    answer = backend._call(run, None, "apply edits", backend.call_timeout + 0.1 * len(items))
    if answer is None:
        why = backend.status().get("error") or backend.status().get("state")
        raise UserError(f"Neovim at {backend.address} did not take the edits ({why}); check it is running and retry.")
    changed = [Path(p) for p in answer.get("changed") or []]
    error = answer.get("error")
    if error:
        path = answer.get("path")
        done = f" ({len(changed)} buffer(s) were already changed: undo them there)" if changed else ""
        if error == "nomodifiable":
            raise UserError(
                f"Neovim's buffer for {path} is not modifiable ('nomodifiable'), so no edits were applied; "
                "run `:set modifiable` in it and retry."
            )
        if error == "load":
            raise UserError(f"Neovim could not load {path} ({answer.get('message')}), so no edits were applied.")
        raise UserError(f"Neovim refused the edits to {path} ({answer.get('message')}){done}.")
    return changed
