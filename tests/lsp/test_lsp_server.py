"""The language server end to end over stdio, driven by pygls's own LanguageClient."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import anyio
import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient

from simple_brief.servers.folding import folds

from conftest import outline_of

URI = "file:///work/app.py"
TEXT = '''import os
import sys


class User:
    """A user."""

    def __init__(self, name):
        self.name = name

    def greet(self) -> str:
        # Say hello
        # to the user.
        return "hi " + self.name


def main():
    print(User("é").greet())
'''


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client() -> AsyncIterator[LanguageClient]:
    lc = LanguageClient("test-client", "1")
    await lc.start_io(sys.executable, "-m", "simple_brief", "lsp")
    with anyio.fail_after(30):
        await lc.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    general=types.GeneralClientCapabilities(position_encodings=[types.PositionEncodingKind.Utf8]),
                    text_document=types.TextDocumentClientCapabilities(
                        document_symbol=types.DocumentSymbolClientCapabilities(
                            hierarchical_document_symbol_support=True
                        )
                    ),
                ),
                root_uri="file:///work",
            )
        )
    lc.initialized(types.InitializedParams())
    lc.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=URI, language_id="python", version=1, text=TEXT))
    )
    yield lc
    with anyio.fail_after(10):
        await lc.shutdown_async(None)
    lc.exit(None)
    await lc.stop()


async def folding(lc: LanguageClient) -> list[tuple[int, int, str, str | None]]:
    with anyio.fail_after(10):
        ranges = await lc.text_document_folding_range_async(types.FoldingRangeParams(types.TextDocumentIdentifier(URI)))
    return [(r.start_line, r.end_line, str(r.kind or ""), r.collapsed_text) for r in ranges or []]


@pytest.mark.anyio
async def test_folding_ranges_have_kinds_and_block_mark_text(client: LanguageClient) -> None:
    assert await folding(client) == [
        (0, 1, "imports", ".. 2 import lines"),
        (4, 13, "region", "C> class User { name, 2 methods }"),
        (7, 8, "region", "F> def __init__(self, name) { ... }"),
        (10, 13, "region", "F> def greet(self) -> str { ... }"),
        (11, 12, "comment", "# Say hello"),
        (16, 17, "region", "F> def main() { ... }"),
    ]


@pytest.mark.anyio
async def test_document_symbols_are_hierarchical_with_signatures(client: LanguageClient) -> None:
    with anyio.fail_after(10):
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(types.TextDocumentIdentifier(URI))
        )
    assert symbols is not None
    user = symbols[0]
    assert isinstance(user, types.DocumentSymbol)
    assert (user.name, user.kind, user.detail) == ("User", types.SymbolKind.Class, "class User")
    assert [c.name for c in user.children or []] == ["__init__", "name", "greet"]
    assert user.children and user.children[2].detail == "def greet(self) -> str"
    assert user.selection_range.start == types.Position(4, 6)


@pytest.mark.anyio
async def test_incremental_edits_refold(client: LanguageClient) -> None:
    # Insert a new method after greet, then delete the imports, as two incremental changes.
    new_method = "\n    def bye(self):\n        return 'bye'\n"
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            [
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(13, 32), types.Position(13, 32)), text=new_method
                ),
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(0, 0), types.Position(2, 0)), text=""
                ),
            ],
        )
    )
    got = await folding(client)
    assert (2, 13, "region", "C> class User { name, 3 methods }") in got
    assert (12, 13, "region", "F> def bye(self) { ... }") in got
    assert not [f for f in got if f[2] == "imports"]
    # The incremental result is what a fresh parse of the final text gives.
    lines = TEXT.split("\n")
    lines[13] += new_method
    final = "\n".join(lines).split("\n", 2)[2]
    fresh = [(f.start_line, f.end_line, f.kind, f.collapsed_text) for f in folds(outline_of(final, "python"))]
    assert got == fresh


@pytest.mark.anyio
async def test_utf8_columns_count_bytes(client: LanguageClient) -> None:
    # `main` has no multibyte text before a symbol; check a multibyte line's symbol column directly.
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(uri=URI, version=3),
            [types.TextDocumentContentChangeWholeDocument(text="é = 1; ü = 2\nclass Ä:\n    pass\n")],
        )
    )
    with anyio.fail_after(10):
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(types.TextDocumentIdentifier(URI))
        )
    assert symbols is not None
    cls = next(s for s in symbols if s.name == "Ä")
    assert isinstance(cls, types.DocumentSymbol)
    assert cls.selection_range.end == types.Position(1, 8)  # `class Ä` is 8 bytes in UTF-8


def _spans(text: str, language: str) -> list[tuple[int, int, str]]:
    return [(f.start_line, f.end_line, f.kind) for f in folds(outline_of(text, language))]


def test_folds_nest_with_one_per_start_line() -> None:
    # Neovim's vim.lsp.foldexpr() makes ranges starting on one line one fold start with
    # two levels, and closing it closes the inner one: a doc comment inside its function's
    # range folds together with the function, never as a second fold on the same line.
    lua = "--[==[\nlicence\n]==]\n\n--- Adds.\n-- @param a\nlocal function add(a)\n  return a\nend\n"
    assert _spans(lua, "lua") == [(0, 2, "comment"), (4, 8, "region")]
    # A class stays open: its doc comment folds on its own and the class from after it.
    ts = "/**\n * A shape.\n */\nexport class Shape {\n  area(): number {\n    return 1;\n  }\n}\n"
    assert _spans(ts, "typescript") == [(0, 2, "comment"), (3, 7, "region"), (4, 6, "region")]
    # Docstrings and long literal lists fold; a class with a long docstring stays a container.
    py = '"""Module.\n\nMore.\n"""\n__all__ = [\n    "a",\n    "b",\n]\n\n\n'
    py += 'class A:\n    """Doc.\n\n    More.\n    """\n'
    assert _spans(py, "python") == [(0, 3, "comment"), (4, 7, "region"), (10, 14, "region"), (11, 14, "comment")]


def test_a_definition_starting_where_the_last_one_ends_keeps_its_own_fold() -> None:
    """`} function b() {` (and minified HTML: `</style>…<h2>`): the earlier fold ends a line
    early so closing it does not hide the next definition, and both fold."""
    text = "function a() {\n  return 1;\n} function b() {\n  return 2;\n}\n"
    found = [(f.start_line, f.end_line) for f in folds(outline_of(text, "javascript"))]
    assert found == [(0, 1), (2, 4)]
