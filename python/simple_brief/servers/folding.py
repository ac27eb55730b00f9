"""Folding ranges of an outline: symbol bodies, import blocks, comment blocks.

The same spans the outline view folds; `collapsed_text` is the symbol's block-mark
line, so an editor showing a closed fold shows what an agent sees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from simple_brief.model import walk_all
from simple_brief.render.blockmarks import mark_line
from simple_brief.scan import Outline

#: LSP FoldingRangeKind values.
COMMENT, IMPORTS, REGION = "comment", "imports", "region"


@dataclass(frozen=True)
class Fold:
    """A foldable span of whole lines (0-based, inclusive)."""

    start_line: int
    end_line: int
    kind: str
    collapsed_text: str = ""
    depth: int = 0


def folds(outline: Outline) -> list[Fold]:
    """Every fold of a document in line order: symbols (block kinds and Markdown sections),
    imports and comments, at least two lines each."""
    found: list[Fold] = []
    stack: list[tuple[int, int]] = []
    for sym in walk_all(outline.symbols):
        first, last = sym.range.start.line, sym.range.end.line
        if last <= first or not (sym.is_block or sym.kind.name == "String"):
            continue
        while stack and not (stack[-1][0] <= first and last <= stack[-1][1]):
            stack.pop()
        text = mark_line(sym).rsplit("  ", 1)[0]
        found.append(Fold(first, last, REGION, text, depth=len(stack)))
        stack.append((first, last))
    for first, last in outline.imports:
        if last > first:
            found.append(Fold(first, last, IMPORTS, f".. {last - first + 1} import lines"))
    found.extend(comment_folds(outline))
    found.sort(key=lambda f: (f.start_line, -f.end_line))
    return found


def comment_folds(outline: Outline) -> list[Fold]:
    """Runs of two or more comment lines (line comments, or a /* */ block)."""
    prefix = outline.language.comment.strip()
    if not prefix or prefix == "<!--":
        return []
    text = "\n".join(outline.source.lines)
    found: list[Fold] = []
    patterns = [_line_comment_runs(prefix)]
    if prefix == "//":
        patterns.append(_BLOCK_COMMENT)
    for pattern in patterns:
        line, seen = 0, 0
        for m in pattern.finditer(text):
            line += text.count("\n", seen, m.start())
            seen = m.start()
            first, last = line, line + m.group(0).count("\n")
            if last > first:
                head = m.group(0).split("\n", 1)[0]
                found.append(Fold(first, last, COMMENT, " ".join(head.split())[:60]))
    return found


@cache
def _line_comment_runs(prefix: str) -> re.Pattern[str]:
    """Two or more consecutive lines that start (after indentation) with `prefix`."""
    p = re.escape(prefix)
    return re.compile(rf"^[ \t]*{p}[^\n]*(?:\n[ \t]*{p}[^\n]*)+", re.MULTILINE)


_BLOCK_COMMENT = re.compile(r"^[ \t]*/\*.*?\*/", re.MULTILINE | re.DOTALL)
