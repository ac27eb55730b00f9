"""Tree-sitter nodes and positions for the scanner, in time independent of the file's size.

Some primitives cost time in the size of what surrounds a node, so asking them once per
definition makes a scan quadratic: `Node.parent` walks down from the root (linear in the
node's depth) and `Node.prev_sibling` scans its parent's children. `Family` answers the
same questions from what one scan has already seen; `Columns` turns tree-sitter points
into character ranges (`clamp` keeps a selection inside its range, `trim_end` drops the
trailing newline a node may end with).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simple_brief.model import Position, Range
from simple_brief.source import Source

if TYPE_CHECKING:
    from tree_sitter import Node


class Family:
    """Parents and siblings of definition nodes, found without asking tree-sitter for them.

    `Node.parent` walks down from the root (time linear in the node's depth) and
    `Node.prev_sibling` scans its parent's children: asked per definition, both are
    quadratic in a deeply nested or a long file. Here a definition's ancestors are noted
    on the way down from where its query pass started (a few levels, see `descend`), and
    each parent's children are listed once per scan.
    """

    def __init__(self) -> None:
        self._parents: dict[int, Node] = {}
        self._by_parent: dict[int, tuple[list[Node], dict[int, int]]] = {}

    def descend(self, ancestor: Node, node: Node) -> int:
        """Note the parent of every node from `ancestor` down to `node`; return the levels
        between them. Each step is the one `Node.parent` takes from the root, so the
        parents noted are the ones it would give."""
        depth = 0
        current = ancestor
        while current.id != node.id:
            child = current.child_with_descendant(node)
            if child is None:
                break
            self._parents[child.id] = current
            current = child
            depth += 1
        return depth

    def parent(self, node: Node) -> Node | None:
        """`node.parent`, from the notes when the node was passed on the way down."""
        known = self._parents.get(node.id)
        return known if known is not None else node.parent

    def before(self, node: Node) -> tuple[list[Node], int]:
        """`node`'s parent's children and `node`'s index among them (`([], 0)` at the root):
        its preceding siblings are `children[index - 1]`, `children[index - 2]` ... (nearest
        first). No list is copied: a copy per definition would be quadratic in a long file."""
        parent = self.parent(node)
        if parent is None:
            return [], 0
        entry = self._by_parent.get(parent.id)
        if entry is None:
            children = parent.children
            entry = (children, {child.id: i for i, child in enumerate(children)})
            self._by_parent[parent.id] = entry
        children, index = entry
        return children, index.get(node.id, 0)


class Columns:
    """Ranges of tree-sitter points for one scan: byte columns as characters through
    `Source.char_col` (the one converter, `positions`, which stays linear on long lines)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self._lines = source.lines

    def range(self, start: tuple[int, int], end: tuple[int, int]) -> Range:
        """A Range from tree-sitter points, columns in characters and never past the line's end
        (a token may hold the `\r` of a CRLF line ending)."""
        return Range(Position(start[0], self._column(*start)), Position(end[0], self._column(*end)))

    def _column(self, row: int, byte_col: int) -> int:
        lines = self._lines
        if row < len(lines):
            line = lines[row]
            # An ASCII line's byte columns are its characters (`str.isascii` reads a flag).
            col = byte_col if line.isascii() else self.source.char_col(row, byte_col)
            size = len(line)
            return col if col < size else size  # `min`, without a call: once per position
        return min(self.source.char_col(row, byte_col), _line_len(self.source, row))


def _line_len(source: Source, row: int) -> int:
    return len(source.lines[row]) if row < len(source.lines) else 0


def clamp(inner: Range, outer: Range) -> Range:
    """`inner` cut to lie within `outer` (LSP requires a selection inside its range)."""
    a, b, c, d = outer.start, inner.start, inner.end, outer.end
    if (a.line, a.character) <= (b.line, b.character) <= (c.line, c.character) <= (d.line, d.character):
        return inner  # already inside (most selections): what the cut below gives
    start = min(max(inner.start, outer.start), outer.end)
    end = max(min(inner.end, outer.end), start)
    return Range(start, end)


def trim_end(source: Source, node: Node) -> tuple[int, int]:
    """End point without the trailing newline some grammars include (Markdown sections)."""
    row, col = node.end_point
    if col == 0 and row > node.start_point[0]:
        row -= 1
        while row > node.start_point[0] and not source.lines[row].strip():
            row -= 1  # blank lines a grammar keeps at a node's end (Make's rules and variables)
        return (row, len(source.lines[row].encode("utf-8", "surrogatepass")))
    return (row, col)
