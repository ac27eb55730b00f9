"""Folding ranges of an outline: symbol bodies, import blocks, comment blocks.

The same spans the outline view folds; `collapsed_text` is the symbol's block-mark
line, so an editor showing a closed fold shows what an agent sees.

The ranges nest properly and no two start on the same line: Neovim's
`vim.lsp.foldexpr()` turns them into fold levels line by line, so two ranges starting on
one line become one line with two fold starts, and closing it closes the inner one only.
A doc comment inside its definition's range therefore folds together with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from typing import NamedTuple

from simple_brief.model import BLOCK_KINDS, CLASS_KINDS, Symbol, SymbolKind
from simple_brief.render.blockmarks import mark_text
from simple_brief.scan import Outline

#: LSP FoldingRangeKind values.
COMMENT, IMPORTS, REGION = "comment", "imports", "region"


class Fold(NamedTuple):
    """A foldable span of whole lines (0-based, inclusive); a named tuple, made several
    times faster than a frozen dataclass (one per fold and comment run)."""

    start_line: int
    end_line: int
    kind: str
    collapsed_text: str = ""
    depth: int = 0
    container: bool = False


def folds(outline: Outline) -> list[Fold]:
    """Every fold of a document in line order: symbols (block kinds and Markdown sections),
    imports and comments, at least two lines each."""
    found: list[Fold] = []
    stack: list[tuple[int, int]] = []
    for sym in _preorder(outline.symbols):
        first, last = sym.range.start.line, sym.range.end.line
        if last <= first or not _folds_alone(sym):
            continue
        while stack and not (stack[-1][0] <= first and last <= stack[-1][1]):
            stack.pop()
        text = mark_text(sym)
        found.append(Fold(first, last, REGION, text, depth=len(stack), container=sym.kind in CLASS_KINDS))
        stack.append((first, last))
    for first, last in outline.imports:
        if last > first:
            found.append(Fold(first, last, IMPORTS, f".. {last - first + 1} import lines"))
    notes = comment_folds(outline) + docstring_folds(outline)
    _after_leading_comments(found, notes)
    found.extend(notes)
    found.sort(key=lambda f: (f.start_line, -f.end_line, f.kind == COMMENT))
    return _nested(found)


def _preorder(symbols: list[Symbol]) -> list[Symbol]:
    """Every symbol of a forest, depth first, in document order (`model.walk_all`, without
    a generator per symbol)."""
    ordered: list[Symbol] = []
    todo = symbols[::-1]
    while todo:
        sym = todo.pop()
        ordered.append(sym)
        if sym.children:
            todo.extend(reversed(sym.children))
    return ordered


def _folds_alone(sym: Symbol) -> bool:
    """Blocks, Markdown sections, and multi-line values (long literal lists, tables) that
    hold no block of their own: a value holding methods is a container, left unfolded."""
    if sym.kind in BLOCK_KINDS or sym.kind == SymbolKind.String or not sym.children:
        return True
    return not any(c.is_block for c in sym.walk() if c is not sym)


def _after_leading_comments(found: list[Fold], notes: list[Fold]) -> None:
    """A container (a class, which stays open) whose range opens with its doc comment
    folds from the line after it, so the comment closes on its own."""
    containers = {f.start_line: i for i, f in enumerate(found) if f.container}
    for note in notes:
        i = containers.get(note.start_line)
        if i is not None and note.end_line < found[i].end_line - 1:
            found[i] = found[i]._replace(start_line=note.end_line + 1)


def _nested(found: list[Fold]) -> list[Fold]:
    """Properly nested folds, at most one starting on a line (the longest, a definition
    before a comment). A comment that runs into a definition ends before it, and so does a
    definition whose last line the next one starts on; a comment that runs out of its
    enclosing fold ends with it; other overlaps are dropped."""
    kept: list[Fold | None] = []
    stack: list[int] = []
    for f in found:
        while True:
            while stack and (kept[stack[-1]] is None or _end(kept[stack[-1]]) < f.start_line):
                stack.pop()
            if not stack:
                break
            top = kept[stack[-1]]
            assert top is not None
            if f.end_line <= top.end_line or top.start_line == f.start_line:
                break
            if top.kind == COMMENT and f.kind != COMMENT:
                trimmed = top._replace(end_line=f.start_line - 1)
                kept[stack.pop()] = trimmed if trimmed.end_line > trimmed.start_line else None
                continue
            if f.kind == REGION and top.kind == REGION and f.start_line == top.end_line > top.start_line + 1:
                # `} function g() {`, `</style><h2>`: the next definition starts on the
                # line this one ends on; closing this one must not hide it.
                kept[stack.pop()] = top._replace(end_line=f.start_line - 1)
                continue
            break
        top = kept[stack[-1]] if stack else None
        if top is not None:
            if top.start_line == f.start_line:
                continue
            if f.end_line > top.end_line:
                if f.kind != COMMENT or top.end_line - f.start_line < 1:
                    continue
                f = f._replace(end_line=top.end_line)
        kept.append(f if f.depth == len(stack) else _at_depth(f, len(stack)))
        stack.append(len(kept) - 1)
    return [f for f in kept if f is not None]


def _at_depth(f: Fold, depth: int) -> Fold:
    """`f` at `depth`, made directly (`_replace` costs more, once per fold)."""
    return Fold(f.start_line, f.end_line, f.kind, f.collapsed_text, depth, f.container)


def _end(f: Fold | None) -> int:
    return -1 if f is None else f.end_line


def comment_folds(outline: Outline) -> list[Fold]:
    """Runs of two or more comment lines (line comments, or a multi-line block comment)."""
    language = outline.language
    prefix = language.comment.strip()
    patterns: list[tuple[re.Pattern[str], str]] = []  # each with the text its matches open with
    if prefix and not language.comment_end:
        patterns.append((_line_comment_runs(prefix), prefix))
    if language.block_comment:
        patterns.append((_block_comments(*language.block_comment), language.block_comment[0]))
    elif prefix == "//":
        patterns.append((_block_comments("/*", "*/"), "/*"))
    elif prefix == "--":
        patterns.append((_LONG_COMMENT, "--["))
    if not patterns:
        return []
    text = _lf_text(outline)
    found: list[Fold] = []
    for pattern, opening in patterns:
        found.extend(_matches(text, pattern, opening))
    return found


def docstring_folds(outline: Outline) -> list[Fold]:
    """Triple-quoted strings standing as statements (docstrings) in languages that write
    them, or doc attributes' heredocs (Elixir's `@moduledoc \"\"\"`): a module's or
    class's docstring closes while the class stays open."""
    rules = outline.language.docs
    if rules.doc_attribute:
        return _matches(_lf_text(outline), _attribute_heredocs(rules.doc_attribute), "@")
    if not rules.docstrings:
        return []
    text = _lf_text(outline)
    found: list[Fold] = []
    line, seen = 0, 0
    for start, end in _multiline_strings(text):
        line += text.count("\n", seen, start)
        seen = start
        if text[text.rfind("\n", 0, start) + 1 : start].strip():
            continue  # a value (`x = """…"""`), not a statement
        token = text[start:end]
        head = token.split("\n", 1)[0]
        found.append(Fold(line, line + token.count("\n"), COMMENT, " ".join(head.split())[:60]))
    return found


def _lf_text(outline: Outline) -> str:
    """The text with LF line ends (`Source.lines` joined), without a copy when it has no CR."""
    text = outline.source.text
    return text if "\r" not in text else "\n".join(outline.source.lines)


def _multiline_strings(text: str) -> Iterator[tuple[int, int]]:
    """The (start, end) offsets of Python's string literals that span lines, prefix (`r`,
    `b`, `f` …) included, read in order with the comments and the other strings so that a
    quote inside one is not read as the start of another."""
    at = 0
    for m in _PY_TOKENS.finditer(text):
        start, end = m.start(), m.end()
        if text[start] != "#" and text.find("\n", start, end) >= 0:
            low = max(at, start - 2)  # the prefix: at most two letters, after the last token
            while start > low and text[start - 1] in _STRING_PREFIX:
                start -= 1
            yield start, end
        at = end


def _matches(text: str, pattern: re.Pattern[str], opening: str) -> list[Fold]:
    """Folds of the multi-line matches of `pattern` in `text` (`_line_matches`)."""
    found: list[Fold] = []
    line, seen = 0, 0
    for m in _line_matches(text, pattern, opening):
        line += text.count("\n", seen, m.start())
        seen = m.start()
        first, last = line, line + m.group(0).count("\n")
        if last > first:
            head = m.group(0).split("\n", 1)[0]
            found.append(Fold(first, last, COMMENT, " ".join(head.split())[:60]))
    return found


def _line_matches(text: str, pattern: re.Pattern[str], opening: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a MULTILINE pattern that matches from a line's start, its
    indentation (spaces and tabs), then `opening`: tried only at the lines that open with it, found
    with `str.find`. The regex engine has no fast start for `^` and tries every position
    (9 ms of sqlite3.h's 16 ms parse); these are the same matches."""
    at = 0  # where to look next: after the last match, as `finditer` goes on
    while (i := text.find(opening, at)) >= 0:
        at = i + 1
        start = text.rfind("\n", 0, i) + 1
        if text[start:i].strip(" \t"):
            continue  # not the line's opening, or on the line where the last match ended
        m = pattern.match(text, start)
        if m is not None:
            yield m
            at = m.end()


@cache
def _line_comment_runs(prefix: str) -> re.Pattern[str]:
    """Two or more consecutive lines that start (after indentation) with `prefix`."""
    p = re.escape(prefix)
    return re.compile(rf"^[ \t]*{p}[^\n]*(?:\n[ \t]*{p}[^\n]*)+", re.MULTILINE)


@cache
def _attribute_heredocs(attribute: str) -> re.Pattern[str]:
    """Elixir's `@doc \"\"\"…\"\"\"` (and `@moduledoc`, `@typedoc`, `~S` sigils) to the closing quotes."""
    name = re.escape(attribute)
    return re.compile(rf'^[ \t]*@(?:module|type)?{name}[ \t]+(?:~[sS])?"""\n.*?^[ \t]*"""', re.MULTILINE | re.DOTALL)


@cache
def _block_comments(opening: str, closing: str) -> re.Pattern[str]:
    """A block comment starting a line (after indentation), to its first closing mark (read
    possessively: a character is taken unless the closing mark starts there)."""
    first, rest = re.escape(closing[0]), re.escape(closing[1:])
    return re.compile(
        rf"^[ \t]*{re.escape(opening)}(?:[^{first}]++|{first}(?!{rest}))*+{re.escape(closing)}", re.MULTILINE
    )


#: Lua's long comments: `--[[ … ]]`, `--[==[ … ]==]`.
_LONG_COMMENT = re.compile(r"^[ \t]*--\[(=*)\[.*?\]\1\]", re.MULTILINE | re.DOTALL)
#: Python's comments and string literals in order, so that a quote inside one is not read
#: as the start of another; triple-quoted strings may span lines. A string's prefix letters
#: are left to `_multiline_strings`: every alternative starts with `#` or a quote, which the
#: regex engine looks for without trying the whole pattern at every position.
_PY_TOKENS = re.compile(
    r"#[^\n]*"
    r"|\"\"\"(?:[^\"\\]++|\\.|\"(?!\"\"))*+\"\"\"|'''(?:[^'\\]++|\\.|'(?!''))*+'''"
    r"|\"(?:[^\"\\\n]++|\\.)*+\"|'(?:[^'\\\n]++|\\.)*+'",
    re.DOTALL,
)
_STRING_PREFIX = frozenset("rRuUbBfF")
