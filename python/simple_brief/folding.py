"""Folding ranges of an outline: symbol bodies, import blocks, comment blocks.

The same spans the outline view folds; `collapsed_text` is the symbol's block-mark
line, so an editor showing a closed fold shows what an agent sees.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    lines = outline.source.lines
    out: list[Fold] = []
    i = 0
    while i < len(lines):
        text = lines[i].lstrip()
        if text.startswith("/*") and prefix == "//":
            end = i
            while end < len(lines) and "*/" not in lines[end][(2 if end == i else 0) :]:
                end += 1
            end = min(end, len(lines) - 1)
            if end > i:
                out.append(Fold(i, end, COMMENT, " ".join(text.split())[:60]))
            i = end + 1
            continue
        if prefix and text.startswith(prefix) and prefix != "<!--":
            end = i
            while end + 1 < len(lines) and lines[end + 1].lstrip().startswith(prefix):
                end += 1
            if end > i:
                out.append(Fold(i, end, COMMENT, " ".join(text.split())[:60]))
            i = end + 1
            continue
        i += 1
    return out
