"""Haskell: functions by equation run, data/newtype/class/instance, Haddock `-- |`.

`.hsc` (hsc2hs input, Neovim's filetype `haskell` too) is not claimed: its `#{...}`
directives are not Haskell and read as syntax errors.

The grammar (tree-sitter-haskell 0.24) does not take a tab as whitespace in several
places GHC does: inside a line (`f = [1,\t2]`, `x,\t-- note`), at the start of a
continuation line (`data T = A\n\t| B`), and at the start of the line after a comment.
Files indented with tabs (Hugs' libraries) then read as syntax errors from the first
one on, and lose their definitions. `untab` (the `repair`, tried only on a parse with
errors) rewrites them byte for byte: first Hugs' `primitive` declarations and the
top-level declarations whose tabs the grammar misreads, re-indented with their layout
kept (`_haskell_syntax.py`; where no re-indent keeps it, a tab-indented `if`'s keywords
read as names, or the first item of a layout opened after a mid-line tab blanked, and
what still has no reading, not judged: the right-hand side holding it read as a string);
then a tab inside a line or in a comment line becomes a space, comments right above a
tab-indented line become blanks, and, a few rounds at most, the tabs the parser still
stops at become spaces while that lowers the errors.
Leading tabs elsewhere stay: they decide the layout.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from simple_brief.languages._haskell_syntax import primitives, relayout
from simple_brief.languages.spec import LanguageSpec

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

SPEC = LanguageSpec(
    "haskell",
    (".hs", ".hs-boot", ".hsig"),
    "tree_sitter_haskell:language",
    comment="--",
    block_comment=("{-", "-}"),
    aliases=("hs",),
    repair="simple_brief.languages.haskell:untab",
)

_SYMBOL = rb"!#$%&*+./<=>?@\\^|~:"
#: A line that is only a comment: `-- ...` (not an operator such as `-->`) or a `{- -}`
#: closed on the line (not a `{-# pragma #-}`).
_COMMENT_LINE = re.compile(rb"[ \t]*(?:--+(?![" + _SYMBOL + rb"])|\{-(?!#)(?:(?!-\}).)*-\}[ \t]*$)")
#: A comment ending a code line.
_TRAILING_COMMENT = re.compile(rb"(?<![" + _SYMBOL + rb"-])--+(?![" + _SYMBOL + rb"])")
_STRING = re.compile(rb'"(?:[^"\\\n]|\\.)*"')
_ROUNDS = 8
_PARSER: list[Parser] = []


#: hsc2hs's `{-# LINE 82 "Unistd.hsc" #-}` at column 1, inside a `do` block's layout.
_LINE_PRAGMA = re.compile(rb"(?m)^\{-#[ \t]*LINE\b[^\n]*#-\}[ \t]*$")
#: Haskell 98's as-pattern written with spaces, `ls @ (Left s1)`: read as `ls  @(Left s1)`.
_SPACED_AS_PATTERN = re.compile(rb"(?<=[\w']) @ (?=[(\[\w])")


def untab(data: bytes) -> bytes:
    """`data` with the tabs the grammar stops at turned into spaces, hsc2hs's LINE pragmas
    blanked and spaced as-patterns closed up (same length)."""
    data = _LINE_PRAGMA.sub(lambda m: b" " * len(m.group(0)), data)
    data = _SPACED_AS_PATTERN.sub(b"  @", data)
    data = relayout(primitives(data))
    if b"\t" not in data:
        return data
    fixed = _untab_lines(data)
    parser = _parser()
    tree = parser.parse(fixed)
    cost = _error_cost(tree.root_node)
    for _ in range(_ROUNDS):
        starts = _error_tabs(tree.root_node, fixed) if cost else []
        if not starts:
            break
        again = bytearray(fixed)
        for at in starts:
            while at < len(again) and again[at] == 0x09:
                again[at] = 0x20
                at += 1
        tree_again = parser.parse(bytes(again))
        cost_again = _error_cost(tree_again.root_node)
        if cost_again >= cost:
            break
        fixed, tree, cost = bytes(again), tree_again, cost_again
    return fixed


def _untab_lines(data: bytes) -> bytes:
    """Tabs inside lines and in comment lines as spaces; the comments right above a line
    indented with a tab (comment lines, or the end of the code line before) as blanks."""
    out: list[bytes] = []
    for line in data.split(b"\n"):
        if _COMMENT_LINE.match(line):
            out.append(line.replace(b"\t", b" "))
            continue
        body = line.lstrip(b" \t")
        lead = line[: len(line) - len(body)]
        if body and b"\t" in lead:
            above = len(out) - 1
            while above >= 0 and (not out[above].strip() or _COMMENT_LINE.match(out[above])):
                out[above] = b" " * len(out[above])
                above -= 1
            if above >= 0:
                code = _STRING.sub(lambda m: b"x" * len(m.group(0)), out[above])
                comment = _TRAILING_COMMENT.search(code)
                if comment is not None:
                    out[above] = out[above][: comment.start()] + b" " * (len(code) - comment.start())
        out.append(lead + body.replace(b"\t", b" "))
    return b"\n".join(out)


def _parser() -> Parser:
    if not _PARSER:
        from tree_sitter import Parser

        from simple_brief import languages

        _PARSER.append(Parser(languages.grammar(SPEC)))
    return _PARSER[0]


def _error_cost(root: Node) -> int:
    """Bytes under ERROR nodes, one per MISSING node."""
    total, stack = 0, [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            total += max(1, node.end_byte - node.start_byte)
        elif node.has_error:
            stack.extend(node.children)
    return total


def _error_tabs(root: Node, data: bytes) -> list[int]:
    """Where an ERROR node starts at a tab."""
    found, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" and data[node.start_byte : node.start_byte + 1] == b"\t":
            found.append(node.start_byte)
        if node.has_error:
            stack.extend(node.children)
    return found
