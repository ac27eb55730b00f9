"""Prose helpers shared by the doc-comment readers: the first sentence, paragraphs, fenced
code and its examples, the section names of the conventions (Args, Returns, Raises, See
also …). Every function is total: any text gives an answer, never an exception.
"""

from __future__ import annotations

import re
import textwrap

from simple_brief.docs.model import Example
from simple_brief.languages import docs_rules

FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*\{?\.?([^\s`{}]*)")


HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


UNDERLINE = re.compile(r"^\s*(-{3,}|={3,})\s*$")


ROLE = re.compile(r":(?:py:)?\w+:`~?!?([^`]+)`")


_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "resp", "mr", "mrs", "dr", "no", "fig"})


_RUSTDOC_ATTRS = frozenset({"", "ignore", "no_run", "should_panic", "compile_fail", "test_harness", "edition2015"})


_RUSTDOC_ATTRS |= {"edition2018", "edition2021", "edition2024"}


#: An example's description is at most this many lines (the ones nearest the code).
DESCRIPTION_LINES = 40


#: Section names (lower case) whose content becomes a structured field.
SECTION_PARAMS = frozenset({"arguments", "args", "parameters", "params", "other parameters", "keyword args"})


SECTION_PARAMS |= {"keyword arguments", "kwargs"}


SECTION_RETURNS = frozenset({"returns", "return", "return value", "return values", "yields", "yield"})


SECTION_RAISES = frozenset({"raises", "raise", "errors", "panics", "throws", "exceptions"})


SECTION_SEE = frozenset({"see also", "see"})


SECTIONS = SECTION_PARAMS | SECTION_RETURNS | SECTION_RAISES | SECTION_SEE


_SECTION_HEADS = SECTIONS | {"example", "examples", "usage", "note", "notes"}


def first_sentence(text: str) -> str:
    """The first sentence of the first prose paragraph (headings and code skipped).

    A sentence ends at `.`, `!` or `?` followed by a space or the end, not after `e.g.`,
    `i.e.` and similar, nor inside inline code; `3.11` is never cut. A paragraph without
    a sentence end is returned whole, its lines joined by spaces.
    """
    para = _first_paragraph(text.splitlines())
    quoted = False
    for i, ch in enumerate(para):
        if ch == "`":
            quoted = not quoted
        if quoted or ch not in ".!?":
            continue
        j = i + 1
        while j < len(para) and para[j] in ")]\"'*_":
            j += 1
        if j < len(para) and not para[j].isspace():
            continue
        word = i
        while word > 0 and not para[word - 1].isspace():
            word -= 1
        if ch == "." and _abbreviation(para[word:i]):
            continue
        return para[:j].strip()
    return para.strip()


def safe_first_sentence(text: str) -> str:
    try:
        return first_sentence(text)
    except Exception:  # first_sentence is simple, but the fallback path must not raise either
        return text.split("\n", 1)[0].strip()


def _abbreviation(word: str) -> bool:
    return word.lstrip("(\"'").lower() in _ABBREVIATIONS


def _first_paragraph(lines: list[str]) -> str:
    """The first paragraph that is prose: not a heading, code, a rule or a directive."""
    for para, kind in _paragraphs(lines):
        if kind == "prose":
            return " ".join(ln.strip() for ln in para)
    return ""


def _paragraphs(lines: list[str]) -> list[tuple[list[str], str]]:
    """Blank-line separated paragraphs with their kind: `prose`, `code` or `heading`."""
    out: list[tuple[list[str], str]] = []
    code = fenced_lines(lines)
    current: list[str] = []
    kind = ""
    for i, line in enumerate([*lines, ""]):
        if i < len(lines) and code[i]:
            if current and kind != "code":
                out.append((current, kind))
                current = []
            kind = "code"
            current.append(line)
            continue
        if not line.strip():
            if current:
                out.append((current, kind))
            current, kind = [], ""
            continue
        if kind == "code":
            out.append((current, kind))
            current = []
        if not current:
            kind = "prose"
            if HEADING.match(line) or UNDERLINE.match(line) or line.strip().startswith((".. ", "<!--")):
                kind = "heading"
            elif line.startswith(("\t", "    ")):
                kind = "code"
        elif UNDERLINE.match(line) and len(current) == 1:
            kind = "heading"
        current.append(line)
    return out


def fenced_lines(lines: list[str]) -> list[bool]:
    """For each line: is it a fence or inside fenced code (an unclosed fence runs to the end)?"""
    out: list[bool] = []
    opened = ""
    for line in lines:
        mark = FENCE.match(line)
        if opened:
            out.append(True)
            if _closes(line, opened):
                opened = ""
        elif mark:
            out.append(True)
            opened = mark.group(1)
        else:
            out.append(False)
    return out


def _closes(line: str, fence: str) -> bool:
    """Does `line` close a block opened by `fence` (same character, at least as long, nothing else)?"""
    stripped = line.strip()
    return stripped.startswith(fence) and not stripped.strip(fence[0])


def _fence_language(tag: str, language: str) -> str:
    """The language of a fenced block: its tag (`rust,ignore` -> `rust`), else the item's."""
    first = tag.split(",", 1)[0].strip().lower()
    if first in _RUSTDOC_ATTRS and docs_rules(language).rustdoc_fences:
        return language
    return first or language


def fenced_examples(lines: list[str], language: str) -> list[Example]:
    """Every fenced block, described by the prose paragraph right before it."""
    examples: list[Example] = []
    i = 0
    while i < len(lines):
        mark = FENCE.match(lines[i])
        if not mark:
            i += 1
            continue
        fence, start = mark.group(1), i
        body: list[str] = []
        i += 1
        while i < len(lines):
            if _closes(lines[i], fence):
                break
            body.append(lines[i])
            i += 1
        i += 1
        snippet = textwrap.dedent("\n".join(body)).strip("\n")
        if snippet.strip():
            lang = _fence_language(mark.group(2), language)
            examples.append(Example(code=snippet, description=example_description(lines, start), language=lang))
    return examples


def example_description(lines: list[str], start: int, code: list[bool] | None = None) -> str:
    """The prose paragraph ending right before line `start` ('' when code or a heading is there)."""
    i = start - 1
    while i >= 0 and not lines[i].strip() and start - i < DESCRIPTION_LINES:
        i -= 1
    para: list[str] = []
    while i >= 0 and lines[i].strip() and len(para) < DESCRIPTION_LINES:
        if (code is not None and code[i]) or FENCE.match(lines[i]):
            return ""
        para.insert(0, lines[i].strip())
        i -= 1
    return prose_paragraph(para)


def prose_paragraph(para: list[str]) -> str:
    """A paragraph as one line of prose, without a section header before it ('' for a heading)."""
    under = max((n for n, ln in enumerate(para) if UNDERLINE.match(ln)), default=-1)
    para = para[under + 1 :]  # a NumPy header ("Examples" + "--------") is no description
    if para and para[0].endswith(":") and para[0][:-1].strip().lower() in _SECTION_HEADS:
        para = para[1:]  # nor a Google one ("Examples:")
    if not para or HEADING.match(para[0]):
        return ""
    return ROLE.sub(r"`\1`", " ".join(ln.strip() for ln in para))


def squeeze(lines: list[str]) -> str:
    """Lines joined; blank runs outside fences merged; no blank line at either end."""
    out: list[str] = []
    fenced = fenced_lines(lines)
    for line, in_fence in zip(lines, fenced, strict=True):
        line = line.rstrip()
        if not line and out and not out[-1] and not in_fence:
            continue
        out.append(line)
    return "\n".join(out).strip("\n")


def join_lines(lines: list[str]) -> str:
    """A tag's or section's description: dedented, trimmed, newlines kept."""
    if not lines:
        return ""
    first, rest = lines[0].strip(), textwrap.dedent("\n".join(lines[1:]))
    return squeeze([first, *rest.split("\n")]).strip() if rest.strip() else first


def link_target(text: str) -> str:
    """`[`Foo`]`, `[label](target)`, `` `Foo` ``, `:func:`x`` -> the target, else the text trimmed."""
    text = ROLE.sub(r"\1", text.strip()).strip()
    match = re.fullmatch(r"\[([^\]]*)\]\(([^)]*)\)|\[`?([^\]`]*)`?\]|`([^`]+)`", text)
    if match:
        return next(g for g in (match.group(2), match.group(3), match.group(4), match.group(1)) if g is not None)
    return text
