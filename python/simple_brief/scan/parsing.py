"""A text's tree as its language's grammar reads it: the crash `guard` applied (same
length), the `unparsed_lines` left out by tree-sitter's included ranges; the text itself
is never changed, so every range in the tree is the real text's."""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING

from simple_brief import languages

if TYPE_CHECKING:
    from tree_sitter import Range as TreeRange
    from tree_sitter import Tree

    from simple_brief.languages import LanguageSpec
    from simple_brief.source import Source


def parse(source: Source, language: LanguageSpec, old_tree: Tree | None = None) -> Tree:
    """The text's tree as the grammar reads it (after the language's crash `guard`, same
    length: the tree's ranges are the real text's; without its `unparsed_lines`),
    `old_tree` reused when given."""
    from tree_sitter import Parser

    parser = Parser(languages.grammar(language))
    data = languages.parseable(language, source.data)
    if language.unparsed_lines:
        included = _included_ranges(data, _unparsed(language.unparsed_lines))
        if included:
            parser.included_ranges = included
    return parser.parse(data, old_tree) if old_tree is not None else parser.parse(data)


@cache
def _unparsed(pattern: str) -> re.Pattern[bytes]:
    return re.compile(pattern.encode(), re.MULTILINE)


def _included_ranges(data: bytes, unparsed: re.Pattern[bytes]) -> list[TreeRange]:
    """The ranges of `data` around the lines `unparsed` matches ([] when it matches none)."""
    from tree_sitter import Point
    from tree_sitter import Range as TreeRange

    ranges: list[TreeRange] = []
    start, start_point = 0, Point(0, 0)
    row, row_start = 0, 0  # the row of `start`'s line, counted as far as needed

    def point(offset: int) -> Point:
        nonlocal row, row_start
        row += data.count(b"\n", row_start, offset)
        row_start = data.rfind(b"\n", row_start, offset) + 1 or row_start
        return Point(row, offset - row_start)

    for match in unparsed.finditer(data):
        if match.end() == match.start():
            continue
        if match.start() > start:
            ranges.append(TreeRange(start_point, point(match.start()), start, match.start()))
        start = match.end()
        start_point = point(start)
    if start == 0:
        return []
    if start < len(data):
        ranges.append(TreeRange(start_point, point(len(data)), start, len(data)))
    return ranges
