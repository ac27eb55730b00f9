"""Plain data the whole engine shares: positions, symbols, diagnostics, progress reports.

Positions are stored 0-based (line and character, character counting Unicode code
points) like LSP; renderers show them 1-based as Neovim does (see SPEC "Positions").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import Any

#: `progress(done, total, message)`: how far a long call is (MCP progress notifications,
#: the CLI's progress bar). `total` is None when unknown.
ProgressFn = Callable[[float, "float | None", str], None]


class SymbolKind(IntEnum):
    """LSP SymbolKind numbers (the KIND column of the symbol table)."""

    File = 1
    Module = 2
    Namespace = 3
    Package = 4
    Class = 5
    Method = 6
    Property = 7
    Field = 8
    Constructor = 9
    Enum = 10
    Interface = 11
    Function = 12
    Variable = 13
    Constant = 14
    String = 15
    Number = 16
    Boolean = 17
    Array = 18
    Object = 19
    Key = 20
    Null = 21
    EnumMember = 22
    Struct = 23
    Event = 24
    Operator = 25
    TypeParameter = 26


FUNCTION_KINDS = frozenset({SymbolKind.Function, SymbolKind.Method, SymbolKind.Constructor})
CLASS_KINDS = frozenset(
    {
        SymbolKind.Class,
        SymbolKind.Interface,
        SymbolKind.Module,
        SymbolKind.Namespace,
        SymbolKind.Object,
        SymbolKind.Package,
    }
)
#: Kinds whose bodies fold and that get a block mark (`F>`, `C>`, `S>`, `E>`).
BLOCK_KINDS = FUNCTION_KINDS | CLASS_KINDS | {SymbolKind.Struct, SymbolKind.Enum}


@dataclass(frozen=True, order=True)
class Position:
    """A 0-based line and character (code points) in a document."""

    line: int
    character: int

    def one_based(self) -> str:
        """`line:col` as Neovim shows it."""
        return f"{self.line + 1}:{self.character + 1}"


@dataclass(frozen=True)
class Range:
    """A half-open span of a document, 0-based."""

    start: Position
    end: Position

    def contains_line(self, line: int) -> bool:
        """Whether the 0-based `line` lies within the range."""
        return self.start.line <= line <= self.end.line

    def line_span(self) -> str:
        """The 1-based line span shown after block marks: `L3-5` or `L3`."""
        first, last = self.start.line + 1, self.end.line + 1
        return f"L{first}" if first == last else f"L{first}-{last}"

    def to_lsp(self) -> dict[str, dict[str, int]]:
        """LSP JSON shape, 0-based."""
        return {
            "start": {"line": self.start.line, "character": self.start.character},
            "end": {"line": self.end.line, "character": self.end.character},
        }


@dataclass
class Symbol:
    """One definition found in a document.

    `range` covers the whole definition (decorators and leading doc comments of
    the declaration included), `selection_range` the name, `body` the part that
    folds away in an outline (None for one-line members such as fields). `scope` is
    the type it belongs to when written outside it (a Go method's receiver type:
    `Terminal` for `func (t *Terminal) Loop()`), "" otherwise; it qualifies the name
    (`scoped_name`) without nesting the symbol, so its range and folds stay its own.
    """

    name: str
    kind: SymbolKind
    range: Range
    selection_range: Range
    signature: str = ""
    doc: str = ""
    body: Range | None = None
    children: list[Symbol] = field(default_factory=list)
    scope: str = ""

    @property
    def scoped_name(self) -> str:
        """The name as dotted paths show it: `Terminal.Loop` with a scope, else the name."""
        return f"{self.scope}.{self.name}" if self.scope else self.name

    def walk(self) -> Iterator[Symbol]:
        """This symbol and every descendant, depth first, in document order."""
        yield self
        for child in self.children:
            yield from child.walk()

    @property
    def is_block(self) -> bool:
        """Whether this symbol renders as a block mark rather than a member line."""
        return self.kind in BLOCK_KINDS


def walk_all(symbols: list[Symbol]) -> Iterator[Symbol]:
    """Every symbol of a forest, depth first, in document order."""
    for sym in symbols:
        yield from sym.walk()


def qualified(symbols: list[Symbol]) -> list[tuple[Symbol, str, str]]:
    """Each symbol with its dotted path and its container's, by start (the order `search`
    ranks them in). A symbol's scope is part of both (a Go method: `Terminal.Loop`, in
    `Terminal`)."""
    out: list[tuple[Symbol, str, str]] = []
    stack: list[tuple[list[Symbol], str]] = [(symbols, "")]
    while stack:
        items, prefix = stack.pop()
        for sym in items:
            container = f"{prefix}.{sym.scope}" if prefix and sym.scope else prefix or sym.scope
            qual = f"{container}.{sym.name}" if container else sym.name
            out.append((sym, qual, container))
            if sym.children:
                stack.append((sym.children, qual))
    out.sort(key=lambda t: (t[0].range.start.line, t[0].range.start.character))
    return out


def walk_with_parent(symbols: list[Symbol], parent: Symbol | None = None) -> Iterator[tuple[Symbol, Symbol | None]]:
    """Every symbol of a forest with its parent (None at top level)."""
    for sym in symbols:
        yield sym, parent
        yield from walk_with_parent(sym.children, sym)


class Severity(IntEnum):
    """LSP DiagnosticSeverity numbers."""

    Error = 1
    Warning = 2
    Information = 3
    Hint = 4

    @property
    def letter(self) -> str:
        """The one-letter tag used in `V*` lines and inline markers."""
        return {1: "E", 2: "W", 3: "I", 4: "H"}[int(self)]


@dataclass(frozen=True)
class TextEdit:
    """Replace `range` with `new_text`."""

    range: Range
    new_text: str


@dataclass(frozen=True)
class FixIt:
    """A suggested fix: a title, the edits, and how sure the source is (0.0-1.0).

    Attributes:
        title: what the fix does, as the source words it.
        edits: edits to the diagnostic's own document.
        confidence: what the numbers mean is `fixit_confidence`'s.
        kind: the LSP CodeActionKind it came from (`quickfix`, `source.fixAll` ...), or "".
        other_files: edits to other documents, as (absolute path, edits) pairs.
    """

    title: str
    edits: tuple[TextEdit, ...] = ()
    confidence: float = 0.5
    kind: str = ""
    other_files: tuple[tuple[Path, tuple[TextEdit, ...]], ...] = ()


@dataclass(frozen=True)
class Diagnostic:
    """A finding about a document, from simple-brief or another source."""

    range: Range
    message: str
    severity: Severity = Severity.Error
    code: str = ""
    source: str = "simple-brief"
    fixits: tuple[FixIt, ...] = ()
    #: The LSP diagnostic's `data`, which its server may need to offer code actions for it
    #: (python-lsp-ruff does); None when there is none.
    lsp_data: Any = field(default=None, compare=False)


#: Confidence of a quickfix the server marked `isPreferred`.
CONFIDENCE_PREFERRED = 0.95
#: Confidence of any other quickfix.
CONFIDENCE_QUICKFIX = 0.8
#: Confidence of an action of another kind (source.fixAll, refactor...).
CONFIDENCE_OTHER = 0.5
#: Confidence of a quickfix that only suppresses the finding.
CONFIDENCE_SUPPRESS = 0.3

_SUPPRESS = re.compile(r"\b(noqa|disable|ignore|suppress)\b", re.IGNORECASE)


def fixit_confidence(kind: str, preferred: bool, title: str) -> float:
    """How sure the source is that applying a code action as a fix is right (not how
    good the code becomes; shown as `fix: TITLE (0.95)`):

    - 0.95: a quickfix code action the language server marked `isPreferred` (its own pick).
    - 0.8: any other quickfix code action (a real fix offered for this very diagnostic).
    - 0.3: a quickfix that only silences the finding (`# noqa`, `disable for this line`).
    - 0.5: a code action of another kind returned for the diagnostic (`source.fixAll`,
      `source.organizeImports`, no kind): it changes more than the one finding.
      Refactorings (`refactor.*`) offered at the range are not fix-its and are left out.
    """
    if kind == "quickfix" or kind.startswith("quickfix."):
        if _SUPPRESS.search(title):
            return CONFIDENCE_SUPPRESS
        return CONFIDENCE_PREFERRED if preferred else CONFIDENCE_QUICKFIX
    return CONFIDENCE_OTHER
