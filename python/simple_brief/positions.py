"""The one position-encoding converter: a line's columns as code points, UTF-8 bytes,
UTF-16 code units or UTF-32 units.

The engine counts code points (`model.Position.character`, Python string indexes, what
people and agents see: SPEC "Positions"); tree-sitter and Neovim count UTF-8 bytes; LSP
servers count UTF-16 code units unless they negotiated otherwise; UTF-32 units are code
points. Every conversion between them goes through `LineColumns` (one line) or
`TextColumns` (the lines of a text): `source.Source`, the LSP JSON walk in `protocol`,
open documents and the language server all use it.

Rules, the same in every direction:
- a column past the line's end keeps its overshoot (LSP servers accept the line's end);
- a column inside a character (half a surrogate pair, a byte inside a UTF-8 sequence)
  counts as that character's start;
- lines are split on `\\n`, each without its `\\r` (`split_lines`).

Long lines cost time in `COLUMN_STEP`, not in their length: a line longer than that gets
marks once, every `COLUMN_STEP` code points, with the units before each mark, and a
column is counted from the nearest mark. So converting every position of a minified
line is linear, not quadratic.
"""

from __future__ import annotations

from bisect import bisect_right

#: The position encodings simple-brief can convert, in the order it offers them.
ENCODINGS = ("utf-32", "utf-16", "utf-8")
#: Code points between the marks of a long line (see `LineColumns`).
COLUMN_STEP = 4096


def split_lines(text: str) -> list[str]:
    """`text` split on `\\n`, each line without its `\\r` (a final newline adds an empty line)."""
    lines = text.split("\n")
    if "\r" not in text:
        return lines
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


def width(text: str, encoding: str) -> int:
    """The length of `text` in `encoding`'s units (`utf-8` bytes, `utf-16` code units, `utf-32`)."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", "surrogatepass")) // 2
    return len(text.encode("utf-8", "surrogatepass"))


def _index(text: str, col: int, encoding: str) -> int:
    """How many code points of `text` its first `col` units of `encoding` span (a column inside
    a character: that character's start; past the end: the overshoot kept)."""
    if encoding == "utf-8":
        data = text.encode("utf-8", "surrogatepass")
        if col >= len(data):
            return len(text) + col - len(data)
        while col > 0 and data[col] & 0xC0 == 0x80:  # a continuation byte: inside a character
            col -= 1
        return len(data[:col].decode("utf-8", "surrogatepass"))
    size = width(text, encoding)
    if size == len(text):  # no astral characters: units are code points
        return col
    if col >= size:
        return len(text) + col - size
    units = 0
    for index, ch in enumerate(text):
        units += 2 if ord(ch) > 0xFFFF else 1
        if units > col:
            return index
    return len(text)  # not reached: col < size


class LineColumns:
    """One line's columns in every encoding, each conversion in time independent of its length.

    Args:
        line: the line's text, without its line ending.
    """

    def __init__(self, line: str) -> None:
        self.line = line
        self.ascii = line.isascii()
        #: encoding -> the units before code point `k * COLUMN_STEP`, for every k (long lines).
        self._marks: dict[str, list[int]] | None = None

    def _marked(self, encoding: str) -> list[int] | None:
        if len(self.line) <= COLUMN_STEP:
            return None
        if self._marks is None:
            self._marks = {}
        marks = self._marks.get(encoding)
        if marks is None:
            marks = [0]
            for start in range(0, len(self.line), COLUMN_STEP):
                marks.append(marks[-1] + width(self.line[start : start + COLUMN_STEP], encoding))
            self._marks[encoding] = marks
        return marks

    def to_encoding(self, char_col: int, encoding: str) -> int:
        """A code-point column as a column in `encoding` (`utf-8`, `utf-16` or `utf-32`)."""
        if encoding == "utf-32" or self.ascii:
            return char_col
        line = self.line
        overshoot = max(char_col - len(line), 0)
        char_col = min(char_col, len(line))
        marks = self._marked(encoding)
        if marks is None:
            return width(line[:char_col], encoding) + overshoot
        k = char_col // COLUMN_STEP
        return marks[k] + width(line[k * COLUMN_STEP : char_col], encoding) + overshoot

    def from_encoding(self, col: int, encoding: str) -> int:
        """A column in `encoding` as a code-point column."""
        if encoding == "utf-32" or self.ascii:
            return col
        marks = self._marked(encoding)
        if marks is None:
            return _index(self.line, col, encoding)
        k = min(bisect_right(marks, col) - 1, len(marks) - 2)
        start = k * COLUMN_STEP
        return start + _index(self.line[start : start + COLUMN_STEP], col - marks[k], encoding)


class TextColumns:
    """The columns of every line of a text, each line's marks made once, when first asked.

    Args:
        lines: the text's lines (`split_lines`); see `of_text`.
    """

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self._columns: dict[int, LineColumns] = {}

    @classmethod
    def of_text(cls, text: str) -> TextColumns:
        """The columns of `text`'s lines."""
        return cls(split_lines(text))

    def line(self, row: int) -> LineColumns:
        """Line `row`'s columns (`row` must be a line of the text)."""
        found = self._columns.get(row)
        if found is None:
            found = self._columns[row] = LineColumns(self.lines[row])
        return found

    def to_encoding(self, row: int, char_col: int, encoding: str) -> int:
        """A code-point column of line `row` in `encoding`; a row past the text keeps its column."""
        if not 0 <= row < len(self.lines):
            return char_col
        return self.line(row).to_encoding(char_col, encoding)

    def from_encoding(self, row: int, col: int, encoding: str) -> int:
        """A column in `encoding` of line `row` in code points; a row past the text keeps its column."""
        if not 0 <= row < len(self.lines):
            return col
        return self.line(row).from_encoding(col, encoding)


def to_encoding(line: str, char_col: int, encoding: str) -> int:
    """A code-point column of `line` as a column in `encoding` (one conversion; for many on
    one line, keep a `LineColumns`)."""
    return LineColumns(line).to_encoding(char_col, encoding)


def from_encoding(line: str, col: int, encoding: str) -> int:
    """A column in `encoding` of `line` as a code-point column."""
    return LineColumns(line).from_encoding(col, encoding)
