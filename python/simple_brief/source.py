"""Source text as the engine sees it: decoded once, split once, with position maps.

Tree-sitter reports byte columns; people and agents see character columns (SPEC
"Positions"); Neovim's LSP client negotiates UTF-8 byte columns. `Source` converts, through
the one converter (`positions.TextColumns`: linear on long non-ASCII lines).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import accumulate

from simple_brief.defaults import DEFAULT_MAX_BYTES
from simple_brief.errors import UserError
from simple_brief.positions import TextColumns, split_lines

#: Bytes sniffed for a NUL to tell binary files from text.
BINARY_SNIFF = 8192


def human_size(n: int) -> str:
    """`812 bytes`, `14.2 KB`, `10.5 MB`."""
    if n < 1000:
        return f"{n} bytes"
    if n < 1_000_000:
        return f"{n / 1000:.1f} KB"
    return f"{n / 1_000_000:.1f} MB"


@dataclass
class Source:
    """A document's text with byte/character position conversion.

    Attributes:
        text: the decoded text (BOM removed, line endings kept).
        data: the UTF-8 bytes tree-sitter parses (of `text`, not of the file).
        lines: `text` split on `\\n`, each without its `\\r`.
        lossy: the input was not valid UTF-8 and replacement characters were used.
    """

    text: str
    data: bytes = b""
    lines: list[str] = field(default_factory=list)
    lossy: bool = False
    _line_starts: list[int] = field(default_factory=list, repr=False)
    _ascii: list[bool] = field(default_factory=list, repr=False)
    _columns: TextColumns = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.data:
            self.data = self.text.encode("utf-8", "surrogatepass")
        self.lines = split_lines(self.text)
        self._columns = TextColumns(self.lines)
        byte_lines = self.data.split(b"\n")
        self._line_starts = [0, *accumulate(map((1).__add__, map(len, byte_lines[:-1])))]
        self._ascii = [True] * len(byte_lines) if self.data.isascii() else [bl.isascii() for bl in byte_lines]

    @classmethod
    def from_bytes(cls, raw: bytes, name: str = "input", max_bytes: int = DEFAULT_MAX_BYTES) -> Source:
        """Decode file bytes, refusing binary and oversized input with one sentence.

        Raises:
            UserError: the data looks binary or is larger than `max_bytes`.
        """
        if len(raw) > max_bytes:
            raise UserError(
                f"{name} is {human_size(len(raw))}, over the {human_size(max_bytes)} limit; "
                "open a smaller file or raise the limit with --max-bytes."
            )
        if b"\0" in raw[:BINARY_SNIFF]:
            raise UserError(f"{name} looks like a binary file (it contains NUL bytes); simple-brief reads text only.")
        lossy = False
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("utf-8-sig", errors="replace")
            lossy = True
        return cls(text=text, lossy=lossy)

    @property
    def line_count(self) -> int:
        """Number of lines as an editor counts them (a final newline adds none)."""
        n = len(self.lines)
        return n - 1 if n > 1 and self.lines[-1] == "" else n

    def line_start(self, row: int) -> int:
        """Byte offset where line `row` begins."""
        return self._line_starts[row]

    def char_col(self, row: int, byte_col: int) -> int:
        """Character column of a tree-sitter (row, byte column) point."""
        return self.decode_col(row, byte_col, "utf-8")

    def byte_col(self, row: int, char_col: int) -> int:
        """UTF-8 byte column of a character column (for LSP `utf-8` positions)."""
        return self.encode_col(row, char_col, "utf-8")

    def utf16_col(self, row: int, char_col: int) -> int:
        """UTF-16 code-unit column of a character column (LSP's default encoding)."""
        return self.encode_col(row, char_col, "utf-16")

    def encode_col(self, row: int, char_col: int, encoding: str) -> int:
        """A character column of line `row` in `encoding` (`utf-8`, `utf-16`, `utf-32`)."""
        if row >= len(self._ascii) or self._ascii[row]:
            return char_col
        return self._columns.to_encoding(row, char_col, encoding)

    def decode_col(self, row: int, col: int, encoding: str) -> int:
        """A column in `encoding` of line `row` as a character column."""
        if row >= len(self._ascii) or self._ascii[row]:
            return col
        return self._columns.from_encoding(row, col, encoding)

    def byte_point(self, row: int, col: int, encoding: str) -> tuple[int, tuple[int, int]]:
        """Byte offset and tree-sitter point (row, byte column) of a (row, column in
        `encoding`) position, clamped to the line's end; a row past the text: its end."""
        if row >= len(self.lines):
            last = len(self.lines) - 1
            return len(self.data), (last, self.encode_col(last, len(self.lines[last]), "utf-8"))
        chars = min(self.decode_col(row, col, encoding), len(self.lines[row]))
        byte_col = self.encode_col(row, chars, "utf-8")
        return self.line_start(row) + byte_col, (row, byte_col)

    def slice_bytes(self, start: int, end: int) -> str:
        """Text between two byte offsets."""
        return self.data[start:end].decode("utf-8", "replace")
