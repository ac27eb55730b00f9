"""`simple-brief lsp`: the pygls language server behind Neovim's outline folds.

Serves `textDocument/foldingRange` (symbol bodies, imports and comments, each with its
kind and the block-mark line as `collapsedText`) and `textDocument/documentSymbol`
(hierarchical, `detail` = signature), with incremental sync: each change becomes a
tree-sitter edit and the next request re-parses incrementally. All logic lives in the
engine (`documents`, `folding`); the handlers only convert.
"""

from __future__ import annotations

import argparse
import logging
import threading
import time
from typing import Any

from lsprotocol import converters, types
from pygls.lsp.server import LanguageServer

from simple_brief import __version__
from simple_brief.host.core import Host
from simple_brief.intel.protocol import (
    EDITOR_DIAGNOSTIC_FIELDS,
    diagnostic_from_editor,
    document_symbol,
    uri_to_path,
)
from simple_brief.model import Diagnostic, Symbol
from simple_brief.render import blockmarks
from simple_brief.scan import Outline
from simple_brief.servers.documents import Document, Documents
from simple_brief.source import Source

log = logging.getLogger(__name__)

_CONVERTER = converters.get_converter()

#: Custom request: the outline view of an open document (used by `:SimpleBrief outline`).
RENDER_METHOD = "simpleBrief/render"

_FOLD_KINDS = {
    "comment": types.FoldingRangeKind.Comment,
    "imports": types.FoldingRangeKind.Imports,
    "region": types.FoldingRangeKind.Region,
}


class BriefServer(LanguageServer):
    """A LanguageServer holding the engine's open documents, beside the process's host (the
    rplugin's MCP server answers through the same one)."""

    def __init__(self, host: Host | None = None) -> None:
        super().__init__("simple-brief", __version__)
        self.documents = Documents()
        self.host = host

    @property
    def encoding(self) -> str:
        """The negotiated position encoding (`utf-8`, `utf-16` or `utf-32`)."""
        enc = self.workspace.position_encoding
        return str(getattr(enc, "value", enc) or "utf-16")

    def document(self, uri: str) -> Document:
        """The engine document of a URI, opened from pygls's copy if the server missed didOpen."""
        doc = self.documents.get(uri)
        if doc is None:
            text_doc = self.workspace.get_text_document(uri)
            doc = self.documents.did_open(uri, text_doc.source, text_doc.language_id, text_doc.version or 0)
        return doc

    def outline(self, uri: str) -> Outline:
        """The full outline of an open document: the host's parse of the same text when a
        workspace has one (a call read the file: one parse for both), else the document's own."""
        doc = self.document(uri)
        path = uri_to_path(uri) if self.host is not None else None
        if self.host is not None and path is not None:
            try:
                shared = self.host.parsed(path.resolve(), doc.text, doc.language)
            except (OSError, RuntimeError):  # a path that cannot be resolved: the document's own
                shared = None
            if shared is not None:
                return shared
        return doc.outline()


def _document_symbols(source: Source, symbols: list[Symbol], encoding: str) -> list[types.DocumentSymbol]:
    """The engine's DocumentSymbol JSON (`protocol.document_symbol`, columns in the client's
    encoding) as lsprotocol values; an empty `detail` is left out."""

    def column(row: int, char: int) -> int:
        return source.encode_col(row, char, encoding)

    def without_empty_detail(raw: dict[str, Any]) -> dict[str, Any]:
        out = {key: value for key, value in raw.items() if key != "detail" or value}
        if "children" in raw:
            out["children"] = [without_empty_detail(child) for child in raw["children"]]
        return out

    raw = [without_empty_detail(document_symbol(s, column=column)) for s in symbols]
    return _CONVERTER.structure(raw, list[types.DocumentSymbol])


def editor_diagnostics(items: list[Any]) -> list[Diagnostic]:
    """Neovim `vim.diagnostic` entries (0-based lnum/col, severity 1-4) as engine Diagnostics."""
    return [
        diagnostic_from_editor({key: getattr(item, key, None) for key in EDITOR_DIAGNOSTIC_FIELDS}) for item in items
    ]


def create_server(host: Host | None = None) -> BriefServer:
    """A server with every feature registered (one per process or thread), beside `host`."""
    server = BriefServer(host)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: BriefServer, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        ls.documents.did_open(item.uri, item.text, item.language_id, item.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: BriefServer, params: types.DidChangeTextDocumentParams) -> None:
        doc = ls.documents.get(params.text_document.uri)
        if doc is None:
            ls.document(params.text_document.uri)
            return
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                doc.apply_change((start.line, start.character), (end.line, end.character), change.text, ls.encoding)
            else:
                doc.replace(change.text)
        doc.version = params.text_document.version

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: BriefServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.documents.did_close(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: BriefServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
        return [
            types.FoldingRange(
                start_line=f.start_line,
                end_line=f.end_line,
                kind=_FOLD_KINDS[f.kind],
                collapsed_text=f.collapsed_text or None,
            )
            for f in ls.document(params.text_document.uri).folds()
        ]

    @server.feature(RENDER_METHOD)
    def render(ls: BriefServer, params: Any) -> dict[str, Any]:
        """The block-mark view of the live text, with the editor's diagnostics as `V*` lines."""
        doc = ls.document(params.textDocument.uri)
        outline = ls.outline(params.textDocument.uri)
        mode = getattr(params, "mode", "outline")
        if mode not in ("outline", "compact", "full"):
            mode = "outline"
        depth = int(getattr(params, "depth", 0) or 0) or None
        diags = [*outline.diagnostics, *editor_diagnostics(getattr(params, "diagnostics", None) or [])]
        if mode == "full":
            text = blockmarks.render_full(outline, diags)
        else:
            text = blockmarks.render_outline(outline, diags, mode, depth)
        return {"text": text, "version": doc.version}

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(ls: BriefServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        outline = ls.outline(params.text_document.uri)
        return _document_symbols(outline.source, outline.symbols, ls.encoding)

    return server


def serve_stdio() -> None:
    """Serve one client over stdin/stdout until it exits."""
    create_server().start_io()


def serve_tcp_thread(
    host: str = "127.0.0.1", port: int = 0, timeout: float = 10.0, engine: Host | None = None
) -> tuple[BriefServer, int, threading.Thread]:
    """Serve on a loopback TCP port from a daemon thread; return once it listens.

    Returns the server, the port bound (port 0 picks a free one) and the thread. Used by
    the Neovim remote plugin, which connects Neovim's own LSP client with
    `vim.lsp.rpc.connect(host, port)` so the editor and the engine share one process.
    pygls serves one connection per TCP server: when that client stops, the thread ends.

    Raises:
        RuntimeError: the server did not listen within `timeout` seconds.
    """
    server = create_server(engine)
    thread = threading.Thread(target=server.start_tcp, args=(host, port), name="simple-brief-lsp", daemon=True)
    thread.start()
    # pygls (pinned <3) keeps the asyncio server in `_server` once it listens; waiting for
    # it is the only way to learn the bound port without a probe using up the connection.
    deadline = time.monotonic() + timeout
    while (listener := getattr(server, "_server", None)) is None:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"simple-brief: the language server did not listen on {host} within {timeout:.0f} s")
        time.sleep(0.002)
    bound = int(listener.sockets[0].getsockname()[1])
    return server, bound, thread


def run(args: argparse.Namespace) -> int:
    """`simple-brief lsp [--tcp PORT]`: serve one client over stdio, or on a loopback port."""
    if args.tcp is None:
        serve_stdio()
    else:
        create_server().start_tcp("127.0.0.1", args.tcp)
    return 0
