"""What documents a definition: the comments right above it, or its docstring.

The scanner (`treesitter.py`) asks `leading` for the nodes above a definition that belong
to it and `doc_text` for the text they say, with the comment marks of every language
unit removed (`//`, `/** */`, `#`, `--`, `(* *)`, `{- -}`, `#= =#`, `<!-- -->` …).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from simple_brief.source import Source

if TYPE_CHECKING:
    from tree_sitter import Node

    from simple_brief.scan.tree_index import Family

#: Nodes directly above a definition that belong to it (Rust attributes, annotations).
ATTRIBUTES = frozenset({"attribute_item", "annotation", "marker_annotation", "decorator"})
#: Module attributes that are not part of the definition below them (Elixir).
_NOT_THE_DEFINITIONS = frozenset({"moduledoc", "typedoc", "type", "typep", "opaque", "callback", "macrocallback"})
#: Strings standing above a definition as its docstring (Julia's `"""…"""` before `function`).
_DOCSTRINGS_ABOVE = frozenset({"string_literal"})


def last_line(node: Node) -> int:
    """Last line a node really occupies (a node ending at column 0 ends on the line before)."""
    row, col = node.end_point
    return row - 1 if col == 0 and row > node.start_point[0] else row


def is_comment(node: Node) -> bool:
    """A comment node of any grammar (`comment`, `line_comment`, Haskell's `haddock` …)."""
    return "comment" in node.type or node.type == "haddock"


def attribute_name(node: Node) -> str:
    """`doc` for Elixir's `@doc "…"` (a `unary_operator` `@` over a call), else ""."""
    if node.type != "unary_operator" or node.child_count < 2 or node.children[0].type != "@":
        return ""
    call = node.children[1]
    target = call.child_by_field_name("target") if call.type == "call" else None
    return target.text.decode("utf-8", "replace") if target is not None and target.text else ""


def leading(
    outer: Node, family: Family, docstrings: bool = False, doc_attribute: str = ""
) -> tuple[tuple[int, int] | None, list[Node]]:
    """What sits directly above a definition and belongs to it: attributes (`#[derive]`,
    `@Override` outside modifiers) and the doc comment lines with no blank line between
    (with `docstrings`, also a string literal standing there: Julia).

    Returns the start point of the earliest such node (None when there is none) and the
    comment nodes in document order. A comment ending a code line (`x = 1 // note`) is
    that line's, not the next definition's. With `doc_attribute` (Elixir's `doc`), that
    attribute above is the doc and the attributes between (`@spec`, `@impl`) belong to
    the definition.
    """
    start: tuple[int, int] | None = None
    comments: list[Node] = []
    children, index = family.before(outer)
    expect_row = outer.start_point[0]
    for i in range(index - 1, -1, -1):
        prev = children[i]
        if last_line(prev) < expect_row - 1:
            break
        if prev.type in ATTRIBUTES:
            start = prev.start_point
        elif doc_attribute and (name := attribute_name(prev)):
            if name in _NOT_THE_DEFINITIONS:
                break
            start = prev.start_point
            if name == doc_attribute:
                comments.append(prev)
                break
        elif is_comment(prev) or (docstrings and prev.type in _DOCSTRINGS_ABOVE and not comments):
            previous = children[i - 1] if i > 0 else None
            # Grammars whose line tokens end at column 0 of the next line (Make) end on
            # the line before: `last_line`, not `end_point`.
            if previous is not None and not is_comment(previous) and last_line(previous) == prev.start_point[0]:
                break
            comments.append(prev)
            start = prev.start_point
            if not is_comment(prev):
                break
        else:
            break
        expect_row = prev.start_point[0]
    comments.reverse()
    return start, comments


def doc_text(source: Source, comments: list[Node], body: Node | None, docstrings: bool) -> str:
    """Docstring (languages that write them: the body's first string statement, or a string
    above the definition) or the leading doc comment.

    Comment markers and one space after them are removed; indentation beyond that space is
    kept (Go's tab-indented code blocks, list continuations). Paragraph breaks survive as
    one blank line (several outside a fenced block are merged); leading and trailing blank
    lines go.
    """
    if docstrings and body is not None and body.named_child_count:
        first = body.named_child(0)
        if first is not None and first.type == "expression_statement" and first.named_child_count:
            first = first.named_child(0)
        if first is not None and first.type in ("string", "concatenated_string"):
            return clean_docstring(source.slice_bytes(first.start_byte, first.end_byte))
    if not comments:
        return ""
    if len(comments) == 1 and comments[0].type in _DOCSTRINGS_ABOVE:
        return clean_docstring(source.slice_bytes(comments[0].start_byte, comments[0].end_byte))
    if len(comments) == 1 and attribute_name(comments[0]):
        return _attribute_doc(source, comments[0])
    lines: list[str] = []
    loose: list[int] = []  # lines of a block comment written without a marker: dedented together
    for node in comments:
        # Some grammars (Rust line comments) end the node with its newline: drop it, or every
        # line would be followed by a blank one.
        for raw_line in source.slice_bytes(node.start_byte, node.end_byte).rstrip("\r\n").splitlines():
            line = _CLOSING_MARK.sub("", raw_line.rstrip())
            marker = _DOC_MARKER.match(line)
            if marker:
                line = line[marker.end() :]
                line = line[1:] if line.startswith(" ") else line
                line = "" if not line.strip("*").strip() else line  # `/*****` banners
            elif line.strip():
                loose.append(len(lines))
            lines.append(line)
    indent = min((len(lines[i]) - len(lines[i].lstrip()) for i in loose), default=0)
    for i in loose:
        lines[i] = lines[i][indent:]
    return _squeeze_blank_lines(lines)


#: A doc comment line's opening marker (the space after it is removed separately: a tab
#: after `//` starts a Go code block and must stay). Haskell's `-- |` and `{-|`, OCaml's
#: `(**`, Julia's `#=`, HTML's `<!--`.
_DOC_MARKER = re.compile(r"^\s*(?:/\*[*!]?|//[/!]?|\(\*+|\{-[|^]?|--(?= [|^] )\s[|^]|--+|#=|#+!?|<!--|\*+|;+)")
#: A closing mark at the end of a comment line: `*/`, `*)`, `-}`, `=#`, `-->`.
_CLOSING_MARK = re.compile(r"\s*(?:\*/|\*+\)|-\}|=#|-->)$")
_FENCE = re.compile(r"^\s*(```|~~~)")


def _attribute_doc(source: Source, node: Node) -> str:
    """The text of `@doc "…"` / `@doc \"\"\"…\"\"\"` / `@doc ~S\"\"\"…\"\"\"` (`@doc false`: none)."""
    args = node.children[1].child_by_field_name("arguments") or next(
        (c for c in node.children[1].named_children if c.type == "arguments"), None
    )
    value = args.named_children[0] if args is not None and args.named_children else None
    if value is None or value.type not in ("string", "charlist", "sigil"):
        return ""
    text = source.slice_bytes(value.start_byte, value.end_byte)
    text = text[2:] if value.type == "sigil" else text
    return clean_docstring(text)


def _squeeze_blank_lines(lines: list[str]) -> str:
    """The lines joined, runs of blank lines outside fenced code merged into one, no blank
    line at either end."""
    out: list[str] = []
    fence = ""
    for line in lines:
        line = line.rstrip()
        mark = _FENCE.match(line)
        if mark and (not fence or (mark.group(1) == fence and not line.strip().strip(fence[0]))):
            fence = "" if fence else mark.group(1)
        if not line and out and not out[-1] and not fence:
            continue
        out.append(line)
    return "\n".join(out).strip("\n")


def clean_docstring(raw: str) -> str:
    """A docstring's text: quotes and prefixes gone, the common indentation of the lines after
    the first removed (PEP 257), blank lines kept between paragraphs."""
    body = raw.lstrip("rRuUbBfF")
    for quote in ('"""', "'''", '"', "'"):
        if body.startswith(quote) and body.endswith(quote) and len(body) >= 2 * len(quote):
            body = body[len(quote) : -len(quote)]
            break
    lines = body.expandtabs().strip().splitlines()
    if not lines:
        return ""
    rest = [ln for ln in lines[1:] if ln.strip()]
    indent = min((len(ln) - len(ln.lstrip()) for ln in rest), default=0)
    return _squeeze_blank_lines([lines[0].strip()] + [ln[indent:] for ln in lines[1:]])
