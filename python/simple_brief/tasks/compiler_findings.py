"""What a compiler or checker reported, as printed: `Finding` and its `Fix`es, and the
column units tools count in (`char_column` turns one into a code-point column).

Positions stay as the tool printed them (1-based lines and columns, in the tool's unit)
until `compiler_output.to_diagnostics` reads the file and converts them; the parsers
(`compiler_output`, `compiler_json`, `compiler_python`) only read text.

Column units:
- `utf-8`: bytes (clang, gcc's parseable fix-its, mypy);
- `utf-16`: UTF-16 code units (tsc, pyright);
- `char`: code points (rustc);
- `display`: gcc's default column unit (`-fdiagnostics-column-unit=display`): a tab
  advances to the next multiple of 8, an East Asian wide or full-width character counts
  2, a combining mark 0, anything else 1;
- `char-after-indent`: code points counted from the line's first non-blank character
  (Python prints a traceback's source line without its indentation, and its carets under
  that).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from simple_brief.model import CONFIDENCE_QUICKFIX, Severity
from simple_brief.positions import from_encoding

#: The column units a Finding or Fix may be in (see the module docstring).
UNITS = ("utf-8", "utf-16", "char", "display", "char-after-indent")
#: gcc's default `-ftabstop`.
TABSTOP = 8


@dataclass(frozen=True)
class Fix:
    """A replacement the tool suggests: `text` in place of line:column-end_line:end_column
    (1-based; the end is exclusive: the column just past the replaced text).

    Attributes:
        title: what the fix does, as the tool words it (or as made from the edit).
        path: the file, as printed by the tool.
        unit: the column unit, "" for the finding's own.
        group: fixes of one finding with the same group are one fix-it (applied together).
        confidence: see `simple_brief.render.explain`.
    """

    title: str
    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    text: str
    unit: str = ""
    group: int = 0
    confidence: float = CONFIDENCE_QUICKFIX


@dataclass(frozen=True)
class Finding:
    """One diagnostic as the tool printed it.

    Attributes:
        path: as printed (relative to the run's cwd, or absolute).
        line: 1-based; 0 when the tool gave no line.
        column: 1-based; 0 when the tool gave none.
        end_line, end_column: the end (1-based, exclusive), 0 when the tool gave none.
        code: the tool's code: "-Wunused-variable", "E0308", "TS2322", "arg-type" ...
        source: "gcc", "clang", "rustc", "tsc", "mypy", "pyright", "python".
        unit: the columns' unit (`UNITS`).
    """

    path: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0
    severity: Severity = Severity.Error
    message: str = ""
    code: str = ""
    source: str = ""
    unit: str = "utf-8"
    fixes: tuple[Fix, ...] = ()


def _display_width(ch: str, at: int) -> int:
    """How far `ch` at display column `at` (0-based) moves gcc's display column."""
    if ch == "\t":
        return TABSTOP - at % TABSTOP
    if ch.isascii():
        return 1
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _from_display(line: str, col: int) -> int:
    """The code-point column of 0-based display column `col` (inside a wide character:
    that character; past the end: the overshoot kept)."""
    at = 0
    for i, ch in enumerate(line):
        step = _display_width(ch, at)
        if at + step > col or (step == 0 and at == col):
            return i
        at += step
    return len(line) + (col - at)


def char_column(line: str, column: int, unit: str) -> int:
    """The 0-based code-point column of 1-based `column` in `unit` on `line` (0 stays 0)."""
    col = max(column - 1, 0)
    if unit == "utf-8" or unit == "utf-16":
        return from_encoding(line, col, unit)
    if unit == "display":
        return col if line.isascii() and "\t" not in line else _from_display(line, col)
    if unit == "char-after-indent":
        return len(line) - len(line.lstrip(" \t\f")) + col
    return col


def fix_title(text: str, empty_range: bool) -> str:
    """A fix-it's title made from its edit, for tools that give none."""
    if empty_range:
        return f"insert {text!r}"
    return f"replace with {text!r}" if text else "delete"
