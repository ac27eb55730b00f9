"""The tree of a text whose grammar reads some of it as errors the compiler never reports:
C and C++ macro invocations masked (`languages/_c_macros.py`), syntax newer than the grammar
repaired (a language's `repair`); every byte offset kept, so the tree's ranges are the real
text's. (Issue 28 replaces these text rewrites; until then they live here, apart from the
generic scan.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from simple_brief import languages
from simple_brief.source import Source

if TYPE_CHECKING:
    from tree_sitter import Node, Parser, Tree

    from simple_brief.languages import LanguageSpec


def parse(source: Source, language: LanguageSpec, old_tree: Tree | None) -> Tree:
    """The text's tree, C macros masked and newer syntax repaired where they read as errors."""
    from tree_sitter import Parser

    parser = Parser(languages.grammar(language))
    data = languages.parseable(language, source.data)
    tree = parser.parse(data, old_tree) if old_tree is not None else parser.parse(data)
    if tree.root_node.has_error and language.name in _MACRO_LANGUAGES:
        tree = _parse_unexpanded_macros(parser, data, tree, c_only=language.name == "c")
    if tree.root_node.has_error and language.repair:
        tree = _parse_repaired(parser, data, tree, language.repair)
    return tree


#: Languages whose macro invocations read as syntax errors (`languages/c.py: mask_macros`).
_MACRO_LANGUAGES = frozenset({"c", "cpp"})
#: Masking rounds: each masks the macros on the lines the last parse still finds wrong.
_MACRO_ROUNDS = 8


def _parse_unexpanded_macros(parser: Parser, data: bytes, tree: Tree, c_only: bool) -> Tree:
    """Parse again with the macro invocations on erroneous lines blanked (C, C++).

    tree-sitter cannot expand macros, so `__BEGIN_DECLS`, `PyObject_HEAD` or `__THROW`
    read as errors the compiler never reports. Masking keeps every byte offset, so the
    tree's ranges are the real text's; a round is kept only when it leaves fewer errors.
    """
    from simple_brief.languages._c_macros import mask_macros

    errors = _error_nodes(tree.root_node)
    best, best_cost = tree, _error_cost(errors)
    for round_ in range(_MACRO_ROUNDS):
        rows: set[int] = set()
        for node in errors:
            first, last = node.start_point[0], node.end_point[0]
            rows.update(range(max(0, first - 3), min(last, first + 40) + 1))
            if last - first > 40 and round_:  # a long ERROR left: its stray tokens show where parsing failed
                for child in node.children:
                    if child.has_error or (child.child_count == 0 and child.type != "comment"):
                        row = child.start_point[0]
                        rows.update(range(max(0, row - 3), row + 2))
        masked = mask_macros(data, rows, c_only=c_only)
        if masked == data:
            break
        tree = _reparse_masked(parser, data, masked, tree, errors) if c_only else parser.parse(masked)
        data = masked
        errors = _error_nodes(tree.root_node) if tree.root_node.has_error else []
        if _error_cost(errors) < best_cost:
            best, best_cost = tree, _error_cost(errors)
        if not errors:
            break
    return best


def _reparse_masked(parser: Parser, data: bytes, masked: bytes, tree: Tree, errors: list[Node]) -> Tree:
    """`masked` parsed again, reusing what it can of `tree` (the parse of `data`, same length,
    whose ERROR and MISSING nodes are `errors`). C only: in C++ the trees still differ.

    The tree is edited where the bytes differ and around each error node (`_around_error`):
    nodes parsed while the parser recovered from an error are not reused (reusing them gave
    another tree than a fresh parse on 22 of 7,758 system headers, 5 of them C++ still with
    this; `bench/c_mask_guard.py`). With more errors than `_error_nodes` lists, or a line
    break masked, it parses from scratch.
    """
    before, after = data.split(b"\n"), masked.split(b"\n")
    if len(errors) >= _ERROR_LIMIT or [len(line) for line in before] != [len(line) for line in after]:
        return parser.parse(masked)  # the lines moved: `#if\` + `a ? b : c` is masked to `#if\1`
    tree = tree.copy()
    for node in errors:
        first, last = _around_error(node)
        tree.edit(
            first.start_byte, last.end_byte, last.end_byte,
            first.start_point, last.end_point, last.end_point,
        )  # fmt: skip
    offset = 0
    for row, (old, new) in enumerate(zip(before, after, strict=True)):
        if old != new:
            left = next(i for i in range(len(old)) if old[i] != new[i])
            right = next(i for i in range(len(old) - 1, -1, -1) if old[i] != new[i]) + 1
            tree.edit(offset + left, offset + right, offset + right, (row, left), (row, right), (row, right))
        offset += len(old) + 1
    return parser.parse(masked, tree)


def _around_error(node: Node, siblings: int = 2) -> tuple[Node, Node]:
    """The first and last node re-parsed around an error node: its parent, or in the file or
    a long block (an `#ifdef` around the whole file) `siblings` nodes either side."""
    parent = node.parent
    if parent is not None and parent.parent is not None and parent.end_byte - parent.start_byte <= _SMALL_PARENT:
        return parent, parent
    first = last = node
    for _ in range(siblings):
        first = first.prev_sibling or first
        last = last.next_sibling or last
    return first, last


#: A parent of an error up to this many bytes is parsed again whole (`_around_error`).
_SMALL_PARENT = 4000


def _parse_repaired(parser: Parser, data: bytes, tree: Tree, repair: str) -> Tree:
    """Parse again with the language's `repair` rewriting syntax newer than its grammar
    (same length: the tree's ranges stay the real text's); kept when it has fewer errors."""
    repaired = languages.function(repair)(data)
    if repaired == data or len(repaired) != len(data):
        return tree
    again = parser.parse(repaired)
    if not again.root_node.has_error:
        return again
    return again if _error_cost(_error_nodes(again.root_node)) < _error_cost(_error_nodes(tree.root_node)) else tree


def _error_cost(errors: list[Node]) -> int:
    """How much of the text is in error: the bytes under ERROR nodes, one per MISSING node."""
    return sum(max(1, node.end_byte - node.start_byte) for node in errors)


#: At most this many error nodes are listed (`_error_nodes`).
_ERROR_LIMIT = 500


def _error_nodes(root: Node, limit: int = _ERROR_LIMIT) -> list[Node]:
    """The ERROR and MISSING nodes under `root` (outermost ones), at most `limit`."""
    found: list[Node] = []
    stack = [root]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.is_missing or node.type == "ERROR":
            found.append(node)
        elif node.has_error:
            stack.extend(reversed(node.children))  # in document order: the first `limit`
    return found
