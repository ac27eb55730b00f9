"""The one LSP translation layer (issue 12): the position-encoding converter against Python's
own codecs, Symbol -> DocumentSymbol as the table and the language server give it, and a
Neovim diagnostic -> Diagnostic."""

from __future__ import annotations

from typing import Any

import pytest
from lsprotocol import converters

from simple_brief import languages, positions
from simple_brief.editor.nvim import buffers
from simple_brief.intel.protocol import (
    convert_positions,
    diagnostic_from_editor,
    document_symbol,
    encode_positions,
    range_from_lsp,
)
from simple_brief.model import Diagnostic, Position, Range, Severity, Symbol, SymbolKind
from simple_brief.positions import COLUMN_STEP, LineColumns, TextColumns, from_encoding, split_lines, to_encoding
from simple_brief.render.table import document_symbols_json, render_standard
from simple_brief.scan import scan
from simple_brief.servers import lsp as server
from simple_brief.servers.documents import Document
from simple_brief.source import Source

#: ASCII, Latin-1, a combining mark, CJK (BMP, 3 UTF-8 bytes), astral emoji and a math letter
#: (4 UTF-8 bytes, 2 UTF-16 units), a ZWJ sequence.
MIXED = "aé\u0301中文😀x👩\u200d💻𝔣 ñ🎉"
ENCODINGS = ("utf-8", "utf-16", "utf-32")


def python_width(text: str, encoding: str) -> int:
    """The column Python's codecs give: bytes, UTF-16 units, code points."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le")) // 2
    return len(text)


def python_index(line: str, col: int, encoding: str) -> int:
    """Code points whose whole encoding fits before `col` (a column inside a character is that
    character's start), overshoot kept past the end."""
    total = python_width(line, encoding)
    if col >= total:
        return len(line) + col - total
    return max(k for k in range(len(line) + 1) if python_width(line[:k], encoding) <= col)


# --- the converter -------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_column_of_a_mixed_line_matches_pythons_codecs(encoding: str) -> None:
    columns = LineColumns(MIXED)
    for c in range(len(MIXED) + 3):
        expected = python_width(MIXED[:c], encoding) + max(c - len(MIXED), 0)
        assert columns.to_encoding(c, encoding) == expected == to_encoding(MIXED, c, encoding), (c, encoding)
        assert columns.from_encoding(expected, encoding) == c  # round trip
    for unit in range(python_width(MIXED, encoding) + 3):
        assert (
            columns.from_encoding(unit, encoding)
            == python_index(MIXED, unit, encoding)
            == from_encoding(MIXED, unit, encoding)
        ), (unit, encoding)


def test_columns_inside_a_character_are_its_start() -> None:
    line = "a😀b"
    assert from_encoding(line, 2, "utf-16") == 1  # between the surrogates
    assert [from_encoding(line, b, "utf-8") for b in range(7)] == [0, 1, 1, 1, 1, 2, 3]
    assert from_encoding("中", 1, "utf-8") == from_encoding("中", 2, "utf-8") == 0


def test_columns_past_the_end_keep_their_overshoot() -> None:
    assert to_encoding("é", 3, "utf-8") == 4  # 2 bytes, then 2 past the end
    assert to_encoding("😀", 2, "utf-16") == 3
    assert from_encoding("😀", 6, "utf-8") == 3
    assert from_encoding("ab", 5, "utf-16") == 5


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_long_lines_use_marks_and_agree_with_pythons_codecs(encoding: str, monkeypatch: pytest.MonkeyPatch) -> None:
    line = "aé中😀" * (COLUMN_STEP // 2) + "xyz"  # over two COLUMN_STEPs of code points
    seen: list[int] = []
    width, index = positions.width, positions._index

    def counted_width(text: str, enc: str) -> int:
        seen.append(len(text))
        return width(text, enc)

    def counted_index(text: str, col: int, enc: str) -> int:
        seen.append(len(text))
        return index(text, col, enc)

    monkeypatch.setattr(positions, "width", counted_width)
    monkeypatch.setattr(positions, "_index", counted_index)
    columns = LineColumns(line)
    probes = sorted({*range(0, len(line) + 2, 997), *(k * COLUMN_STEP + d for k in range(4) for d in (-1, 0, 1))})
    for c in (p for p in probes if p >= 0):
        expected = python_width(line[:c], encoding) + max(c - len(line), 0)
        assert columns.to_encoding(c, encoding) == expected, c
        assert columns.from_encoding(expected, encoding) == c, c
    if encoding != "utf-32":
        # Each conversion looked at one stretch between marks, never the line from its start.
        assert seen and max(seen) <= COLUMN_STEP


def test_source_columns_are_the_converter(monkeypatch: pytest.MonkeyPatch) -> None:
    text = f"{MIXED}\r\nplain\n{MIXED * 2}"
    source = Source(text)
    assert source.lines == split_lines(text) == [MIXED, "plain", MIXED * 2]
    for row, line in enumerate(source.lines):
        for c in range(len(line) + 2):
            assert source.byte_col(row, c) == to_encoding(line, c, "utf-8")
            assert source.utf16_col(row, c) == to_encoding(line, c, "utf-16")
            assert source.encode_col(row, c, "utf-32") == c
            assert source.char_col(row, source.byte_col(row, c)) == c
    assert source.char_col(9, 4) == 4  # a row past the text keeps its column
    # CRLF: the `\r` is not part of the line; a byte column on it is one past the end.
    assert source.char_col(0, len(MIXED.encode()) + 1) == len(MIXED) + 1


def test_byte_points_clamp_to_the_line_and_the_text() -> None:
    source = Source("é😀b\r\nz\n")
    assert source.byte_point(0, 3, "utf-16") == (6, (0, 6))  # after é😀
    assert source.byte_point(0, 99, "utf-16") == (7, (0, 7))  # clamped before the \r
    assert source.byte_point(0, 2, "utf-16") == (2, (0, 2))  # inside the pair: its start
    assert source.byte_point(1, 1, "utf-8") == (10, (1, 1))
    assert source.byte_point(7, 0, "utf-8") == (len(source.data), (2, 0))


def test_documents_edit_through_the_converter() -> None:
    doc = Document("x = '😀é'\n", languages.detect("a.py", None))
    doc.apply_change((0, 7), (0, 8), "e", "utf-16")  # é is UTF-16 unit 7 (😀 takes two)
    assert doc.text == "x = '😀e'\n"
    doc.apply_change((0, 5), (0, 9), "ok", "utf-8")  # 😀 is bytes 5-8
    assert doc.text == "x = 'oke'\n"


def test_text_columns_on_crlf_text() -> None:
    columns = TextColumns.of_text("😀a\r\nb")
    assert columns.lines == ["😀a", "b"]
    assert columns.to_encoding(0, 2, "utf-16") == 3
    assert columns.from_encoding(0, 3, "utf-16") == 2
    assert columns.to_encoding(5, 2, "utf-8") == 2  # no such line: kept


def test_lsp_json_walks_convert_both_ways() -> None:
    text = "é😀ab\n中x\n"
    params = {"position": {"line": 0, "character": 3}, "range": {"start": {"line": 1, "character": 1}}}
    sent = encode_positions(params, text, "utf-8")
    assert sent == {"position": {"line": 0, "character": 7}, "range": {"start": {"line": 1, "character": 3}}}
    assert convert_positions(sent, {"file:///a": text}.get, "utf-8", uri="file:///a") == params


# --- Symbol -> DocumentSymbol --------------------------------------------------------------

OUTLINE = '''class Café:
    """Un café ☕."""

    def naïve(self, s="😀"): return s

    class Inner:
        flag = "😀"; size = 2

        def g(self, t="😀😀"): pass


def top(a: int) -> int:
    return a
'''


def rng(a: int, b: int, c: int, d: int) -> dict[str, dict[str, int]]:
    return {"start": {"line": a, "character": b}, "end": {"line": c, "character": d}}


#: What `document_symbols --format standard` gave before issue 12 (code points).
STANDARD: list[dict[str, Any]] = [
    {
        "name": "Café",
        "detail": "class Café",
        "kind": 5,
        "range": rng(0, 0, 8, 33),
        "selectionRange": rng(0, 6, 0, 10),
        "children": [
            {
                "name": "naïve",
                "detail": 'def naïve(self, s="😀")',
                "kind": 6,
                "range": rng(3, 4, 3, 36),
                "selectionRange": rng(3, 8, 3, 13),
            },
            {
                "name": "Inner",
                "detail": "class Inner",
                "kind": 5,
                "range": rng(5, 4, 8, 33),
                "selectionRange": rng(5, 10, 5, 15),
                "children": [
                    {
                        "name": "flag",
                        "detail": 'flag = "😀"',
                        "kind": 8,
                        "range": rng(6, 8, 6, 18),
                        "selectionRange": rng(6, 8, 6, 12),
                    },
                    {
                        "name": "size",
                        "detail": "size = 2",
                        "kind": 8,
                        "range": rng(6, 20, 6, 28),
                        "selectionRange": rng(6, 20, 6, 24),
                    },
                    {
                        "name": "g",
                        "detail": 'def g(self, t="😀😀")',
                        "kind": 6,
                        "range": rng(8, 8, 8, 33),
                        "selectionRange": rng(8, 12, 8, 13),
                    },
                ],
            },
        ],
    },
    {
        "name": "top",
        "detail": "def top(a: int) -> int",
        "kind": 12,
        "range": rng(11, 0, 12, 12),
        "selectionRange": rng(11, 4, 11, 7),
    },
]

#: What the language server answered before issue 12 to a UTF-16 client (lsprotocol JSON).
SERVER_UTF16: list[dict[str, Any]] = [
    {
        "name": "Café",
        "kind": 5,
        "range": rng(0, 0, 8, 35),
        "selectionRange": rng(0, 6, 0, 10),
        "detail": "class Café",
        "children": [
            {
                "name": "naïve",
                "kind": 6,
                "range": rng(3, 4, 3, 37),
                "selectionRange": rng(3, 8, 3, 13),
                "detail": 'def naïve(self, s="😀")',
            },
            {
                "name": "Inner",
                "kind": 5,
                "range": rng(5, 4, 8, 35),
                "selectionRange": rng(5, 10, 5, 15),
                "detail": "class Inner",
                "children": [
                    {
                        "name": "flag",
                        "kind": 8,
                        "range": rng(6, 8, 6, 19),
                        "selectionRange": rng(6, 8, 6, 12),
                        "detail": 'flag = "😀"',
                    },
                    {
                        "name": "size",
                        "kind": 8,
                        "range": rng(6, 21, 6, 29),
                        "selectionRange": rng(6, 21, 6, 25),
                        "detail": "size = 2",
                    },
                    {
                        "name": "g",
                        "kind": 6,
                        "range": rng(8, 8, 8, 35),
                        "selectionRange": rng(8, 12, 8, 13),
                        "detail": 'def g(self, t="😀😀")',
                    },
                ],
            },
        ],
    },
    {
        "name": "top",
        "kind": 12,
        "range": rng(11, 0, 12, 12),
        "selectionRange": rng(11, 4, 11, 7),
        "detail": "def top(a: int) -> int",
    },
]


def outline_symbols() -> tuple[Source, list[Symbol]]:
    source = Source(OUTLINE)
    return source, scan(source, languages.detect("m.py", None)).symbols


def test_document_symbol_is_what_the_table_gave() -> None:
    _, symbols = outline_symbols()
    assert [document_symbol(s) for s in symbols] == STANDARD
    assert document_symbols_json(symbols, "yes") == STANDARD
    assert render_standard(symbols, "yes").startswith('[{"name":"Café","detail":"class Café","kind":5,')


def test_document_symbol_is_what_the_language_server_gave() -> None:
    source, symbols = outline_symbols()
    unstructure = converters.get_converter().unstructure
    assert unstructure(server._document_symbols(source, symbols, "utf-16")) == SERVER_UTF16
    utf8 = unstructure(server._document_symbols(source, symbols, "utf-8"))
    assert utf8[0]["range"] == rng(0, 0, 8, 39) and utf8[0]["selectionRange"] == rng(0, 6, 0, 11)
    assert utf8[0]["children"][1]["children"][1]["range"] == rng(6, 23, 6, 31)


def test_an_empty_signature_is_an_empty_detail_in_json_and_none_from_the_server() -> None:
    sym = Symbol("x", SymbolKind.Variable, Range(Position(0, 0), Position(0, 1)), Range(Position(0, 0), Position(0, 1)))
    assert document_symbol(sym) == {
        "name": "x",
        "detail": "",
        "kind": 13,
        "range": rng(0, 0, 0, 1),
        "selectionRange": rng(0, 0, 0, 1),
    }
    (served,) = server._document_symbols(Source("x\n"), [sym], "utf-16")
    assert served.detail is None and served.children is None


# --- Neovim diagnostic -> Diagnostic ------------------------------------------------------


def test_a_neovim_diagnostic_becomes_a_diagnostic() -> None:
    item = {
        "lnum": 4,
        "col": 2,
        "end_lnum": 4,
        "end_col": 9,
        "severity": 2,
        "message": "unused",
        "source": "ruff",
        "code": "F401",
        "lsp_data": {"fix": 1},
    }
    expected = Diagnostic(
        Range(Position(4, 2), Position(4, 9)), "unused", Severity.Warning, "F401", "ruff", lsp_data={"fix": 1}
    )
    assert diagnostic_from_editor(item) == expected
    # The list nvim/rpc.lua sends, and the objects the render request carries: the same one.
    sent = [4, 2, 4, 9, 2, "unused", "ruff", "F401", {"fix": 1}]
    assert buffers._diagnostic(sent) == expected

    class Entry:
        lnum, col, end_lnum, end_col, severity, message, source, code = 4, 2, 4, 9, 2, "unused", "ruff", "F401"

    assert server.editor_diagnostics([Entry()]) == [
        Diagnostic(Range(Position(4, 2), Position(4, 9)), "unused", Severity.Warning, "F401", "ruff")
    ]


def test_a_neovim_diagnostic_without_end_or_severity() -> None:
    found = diagnostic_from_editor({"lnum": 3, "col": 1, "message": "m", "code": 7})
    assert found.range == Range(Position(3, 1), Position(3, 1))
    assert found.severity == Severity.Error and found.code == "7" and found.source == ""
    backwards = diagnostic_from_editor({"lnum": 3, "col": 5, "end_lnum": 2, "end_col": 0, "severity": 9})
    assert backwards.range == Range(Position(3, 5), Position(3, 5)) and backwards.severity == Severity.Error


def test_an_lsp_range_never_ends_before_it_starts() -> None:
    assert range_from_lsp(rng(2, 5, 2, 1)) == Range(Position(2, 5), Position(2, 5))
    assert range_from_lsp({}) == Range(Position(0, 0), Position(0, 0))
