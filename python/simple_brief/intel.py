"""Language intelligence from language servers: the interface the lsp toolset asks.

Two providers answer it: the LSP clients attached in a live Neovim (the editor backend
sends the request to every client of the buffer that supports the method), and, in disk
mode, language servers simple-brief starts itself from `.simple-brief.toml`
(`simple_brief.lsp.pool`). The tools never care which one answered.

Positions: callers give and get LSP-shaped JSON whose `character` counts Unicode code
points (like `model.Position`). A provider converts request positions to each server's
negotiated encoding before sending (`encode_positions`), and reports the server's encoding
with its reply so `convert_positions` can bring result positions back to code points per
file. `ENCODINGS`, `to_encoding`/`from_encoding` convert one column; `path_to_uri`/
`uri_to_path` map files and `file://` URIs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlparse

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
    """

    server: str
    encoding: str
    result: Any = None
    error: str | None = None


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
    from simple_brief.config import Config
    from simple_brief.workspace import Workspace

#: Starts the language servers a config names for a workspace (disk mode): a LanguageIntel
#: with a `config` attribute. Provided by `simple_brief.lsp` when an adapter imports it.
ServerPoolFactory = Callable[["Workspace", "Config"], Any]
_server_pool_factory: ServerPoolFactory | None = None


def provide_server_pool(factory: ServerPoolFactory) -> None:
    """Make `factory` start the session's language servers (`simple_brief.lsp` calls this on
    import: the engine asks through this hook and never imports its adapters)."""
    global _server_pool_factory
    _server_pool_factory = factory


def server_pool_factory() -> ServerPoolFactory | None:
    """What starts the session's language servers, if an adapter provided it."""
    return _server_pool_factory


#: The position encodings simple-brief can convert, in the order it offers them.
ENCODINGS = ("utf-32", "utf-16", "utf-8")


def path_to_uri(path: Path) -> str:
    """The `file://` URI of an absolute path."""
    return path.as_uri()


def uri_to_path(uri: str) -> Path | None:
    """The path of a `file://` URI (percent-decoded); None for other schemes."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    return Path(unquote(parsed.path))


def to_encoding(line: str, char_col: int, encoding: str) -> int:
    """A code-point column of `line` as a column in `encoding` (`utf-8`/`utf-16`/`utf-32`).

    Columns past the line's end keep their overshoot (servers accept the line's end).
    """
    if encoding == "utf-32" or line.isascii():
        return char_col
    prefix = line[:char_col]
    extra = max(char_col - len(line), 0)
    if encoding == "utf-16":
        return len(prefix) + sum(1 for ch in prefix if ord(ch) > 0xFFFF) + extra
    return len(prefix.encode("utf-8", "surrogatepass")) + extra


def from_encoding(line: str, col: int, encoding: str) -> int:
    """A column in `encoding` of `line` as a code-point column.

    A column inside a character (half a surrogate pair, a byte inside a UTF-8 sequence)
    counts as that character's start.
    """
    if encoding == "utf-32" or line.isascii():
        return col
    units = 0
    for index, ch in enumerate(line):
        if units >= col:
            return index
        units += (2 if ord(ch) > 0xFFFF else 1) if encoding == "utf-16" else len(ch.encode("utf-8", "surrogatepass"))
        if units > col:
            return index
    return len(line) + (col - units)


def _lines(text: str) -> list[str]:
    return [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]


def _is_position(obj: dict[str, Any]) -> bool:
    line, character = obj.get("line"), obj.get("character")
    return isinstance(line, int) and isinstance(character, int) and not isinstance(character, bool)


def _convert(obj: Any, uri: str | None, lines_of: Callable[[str | None], list[str] | None], col: Callable) -> Any:
    if isinstance(obj, list):
        return [_convert(item, uri, lines_of, col) for item in obj]
    if not isinstance(obj, dict):
        return obj
    if _is_position(obj):
        lines = lines_of(uri)
        if lines is None or not 0 <= obj["line"] < len(lines):
            return dict(obj)
        return {**obj, "character": col(lines[obj["line"]], obj["character"])}
    # The document a range belongs to: its own `uri`/`targetUri` (Location, LocationLink,
    # Diagnostic related information), the sibling `textDocument` (TextDocumentEdit).
    for key in ("uri", "targetUri"):
        if isinstance(obj.get(key), str):
            uri = obj[key]
    document = obj.get("textDocument")
    if isinstance(document, dict) and isinstance(document.get("uri"), str):
        uri = document["uri"]
    out: dict[str, Any] = {}
    for key, value in obj.items():
        if key == "changes" and isinstance(value, dict):
            # WorkspaceEdit.changes: {uri: [TextEdit]} — the keys are the documents.
            out[key] = {u: _convert(edits, u, lines_of, col) for u, edits in value.items()}
        else:
            out[key] = _convert(value, uri, lines_of, col)
    return out


def convert_positions(obj: Any, text_of: Callable[[str], str | None], encoding: str, uri: str | None = None) -> Any:
    """A copy of an LSP JSON result with every Position's `character` in code points.

    Walks Locations, LocationLinks, TextEdits, WorkspaceEdits (`changes` and
    `documentChanges`), hover and completion ranges and Diagnostics: each position is
    converted with the text of its document — the nearest enclosing `uri`/`targetUri`/
    `textDocument.uri`/`changes` key, else `uri` (the requested file, for results such as
    a hover that carry no URI of their own). `text_of(uri)` gives a document's text (None:
    unknown, positions kept). `encoding` is the server's (`LspReply.encoding`).
    """
    if encoding == "utf-32":
        return obj
    cache: dict[str | None, list[str] | None] = {}

    def lines_of(doc: str | None) -> list[str] | None:
        if doc not in cache:
            text = text_of(doc) if doc is not None else None
            cache[doc] = _lines(text) if text is not None else None
        return cache[doc]

    return _convert(obj, uri, lines_of, lambda line, col: from_encoding(line, col, encoding))


def encode_positions(obj: Any, text: str, encoding: str) -> Any:
    """A copy of request params with every Position's code-point `character` in `encoding`,
    all positions being in the one document whose text is `text`."""
    if encoding == "utf-32":
        return obj
    lines = _lines(text)
    return _convert(obj, None, lambda _uri: lines, lambda line, col: to_encoding(line, col, encoding))
