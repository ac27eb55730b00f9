"""Open documents edited in place: text changes become tree-sitter edits, re-parsed lazily.

Editors send changes as ranges in a negotiated position encoding (`utf-8`, `utf-16`
or `utf-32`); a Document turns each into a byte-offset edit of its tree so the next
outline re-parses incrementally (a keystroke in a 10,000-line file costs milliseconds).

Folds need no doc comments: `folds` scans without them (`scan(for_folds=True)`), and a
later `outline` (the rendered views, documentSymbol) reuses that scan's tree, so each text
is parsed once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from simple_brief import languages
from simple_brief.scan import Outline, scan
from simple_brief.servers.folding import Fold, folds
from simple_brief.source import Source

if TYPE_CHECKING:
    from tree_sitter import Tree

    from simple_brief.languages import LanguageSpec


@dataclass
class Document:
    """One open document: its text, language, and the latest outline (made on demand).

    Attributes:
        text: current full text.
        language: how it is read.
        version: the editor's version number of the text.
    """

    text: str
    language: LanguageSpec
    version: int = 0
    _outline: Outline | None = field(default=None, repr=False)
    _fold_outline: Outline | None = field(default=None, repr=False)
    _folds: list[Fold] | None = field(default=None, repr=False)
    _source: Source | None = field(default=None, repr=False)
    _tree: Tree | None = field(default=None, repr=False)

    @property
    def source(self) -> Source:
        """The current text with its position maps."""
        if self._source is None:
            self._source = Source(self.text)
        return self._source

    def outline(self) -> Outline:
        """The current outline, re-parsing incrementally after edits."""
        if self._outline is None:
            if self._fold_outline is not None and self._fold_outline.tree is not None:
                self._outline = scan(self.source, self.language, parsed=self._fold_outline.tree)
            else:
                self._outline = scan(self.source, self.language, old_tree=self._tree)
            self._tree = self._outline.tree
            self._fold_outline = None  # the full outline serves folds from now on
        return self._outline

    def folds(self) -> list[Fold]:
        """The current folds (`folding.folds`), from an outline made for them (no doc
        comments) unless the full one is already made."""
        if self._folds is None:
            outline = self._outline
            if outline is None:
                if self._fold_outline is None:
                    self._fold_outline = scan(self.source, self.language, old_tree=self._tree, for_folds=True)
                    self._tree = self._fold_outline.tree
                outline = self._fold_outline
            self._folds = folds(outline)
        return self._folds

    def _forget_outlines(self) -> None:
        self._outline = None
        self._fold_outline = None
        self._folds = None

    def replace(self, text: str, version: int | None = None) -> None:
        """New full text (a full-sync change): the next outline parses from scratch."""
        self.text = text
        self._source = None
        self._forget_outlines()
        self._tree = None
        if version is not None:
            self.version = version

    def apply_change(
        self, start: tuple[int, int], end: tuple[int, int], new_text: str, encoding: str = "utf-16"
    ) -> None:
        """Replace the text between two (line, column) positions, columns in `encoding` units."""
        source = self.source
        start_byte, start_point = source.byte_point(*start, encoding)
        end_byte, end_point = source.byte_point(*end, encoding)
        if end_byte < start_byte:
            start_byte, end_byte, start_point, end_point = end_byte, start_byte, end_point, start_point
        data = source.data
        inserted = new_text.encode("utf-8", "surrogatepass")
        new_data = data[:start_byte] + inserted + data[end_byte:]
        new_end_byte = start_byte + len(inserted)
        rows = inserted.count(b"\n")
        if rows:
            new_end_point = (start_point[0] + rows, len(inserted) - inserted.rfind(b"\n") - 1)
        else:
            new_end_point = (start_point[0], start_point[1] + len(inserted))
        tree = next((o.tree for o in (self._outline, self._fold_outline) if o is not None), self._tree)
        if tree is not None:
            tree.edit(
                start_byte=start_byte,
                old_end_byte=end_byte,
                new_end_byte=new_end_byte,
                start_point=start_point,
                old_end_point=end_point,
                new_end_point=new_end_point,
            )
        self._tree = tree
        self.text = new_data.decode("utf-8", "surrogatepass")
        self._source = Source(self.text, data=new_data)
        self._forget_outlines()


@dataclass
class Documents:
    """The documents an editor has open, by URI or path."""

    open: dict[str, Document] = field(default_factory=dict)

    def did_open(self, key: str, text: str, filetype: str | None = None, version: int = 0) -> Document:
        """Track a newly opened document; its language from `filetype`, else the name's ending."""
        doc = Document(text, languages.detect(key, filetype), version)
        self.open[key] = doc
        return doc

    def get(self, key: str) -> Document | None:
        """An open document, or None."""
        return self.open.get(key)

    def did_close(self, key: str) -> None:
        """Forget a document."""
        self.open.pop(key, None)
