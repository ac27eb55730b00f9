"""Doc comments and docstrings -> `DocComment` (seed 004 "Doc Comment Syntax").

`parse_doc` takes the text the scanner stores in `Symbol.doc` (a cleaned docstring, or a
doc comment with its `///`, ` * `, `---` … markers removed) and the language's registry
name. Python docstrings (plain, Google, NumPy, reST, Epydoc) go through `docstring_parser`
for their fields; every other language goes through one tag-and-Markdown reader that knows
the dialects: JSDoc/TSDoc, Javadoc (HTML), Doxygen (`\\param`), LuaCATS/LDoc, rustdoc
sections (`# Arguments`, `# Errors` …), Go's indented code blocks and the seed's own tags.

Body rule: the body is the whole text, Markdown kept, without the tag blocks and without
the sections whose content went into `params`, `returns`, `raises` or `see_also`; prose
example sections (`# Examples`, `Examples:`) stay in the body, `@example` tag blocks do
not. Every fenced block, `@example` block, doctest and literal block is in `examples`.

Every function here is total: any string gives a `DocComment`, never an exception.
"""

from __future__ import annotations

import html
import logging
import re
import textwrap

import docstring_parser

from simple_brief.docs.model import DocComment, DocParam, DocReturn, Example

log = logging.getLogger(__name__)

__all__ = ["first_sentence", "parse_doc"]

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*\{?\.?([^\s`{}]*)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_TAG = re.compile(r"^\s*@([A-Za-z][\w-]*)(.*)$")
_DOXY_TAG = re.compile(r"^\s*[@\\]([A-Za-z]+)(\[[^\]]*\])?(?=\s|$|\{)(.*)$")
_DOXY_CODE = re.compile(r"^\s*[@\\](code|verbatim)(?:\{\.?(\w*)\})?\s*(.*)$")
_DOXY_END = re.compile(r"^\s*[@\\]end(?:code|verbatim)\b")
_LIST_ITEM = re.compile(r"^\s*(?:[*+-]|\d+[.)])\s+(.*)$")
_UNDERLINE = re.compile(r"^\s*(-{3,}|={3,})\s*$")
_ROLE = re.compile(r":(?:py:)?\w+:`~?!?([^`]+)`")
_ABBREVIATIONS = frozenset({"e.g", "i.e", "etc", "vs", "cf", "approx", "incl", "resp", "mr", "mrs", "dr", "no", "fig"})
_RUSTDOC_ATTRS = frozenset({"", "ignore", "no_run", "should_panic", "compile_fail", "test_harness", "edition2015"})
_RUSTDOC_ATTRS |= {"edition2018", "edition2021", "edition2024"}
#: An example's description is at most this many lines (the ones nearest the code).
_DESCRIPTION_LINES = 40

_PARAM_TAGS = frozenset({"param", "arg", "argument", "parameter", "params"})
_RETURN_TAGS = frozenset({"return", "returns", "result", "retval", "treturn"})
_YIELD_TAGS = frozenset({"yield", "yields"})
_THROW_TAGS = frozenset({"throws", "throw", "exception", "raise", "raises"})
_SEE_TAGS = frozenset({"see", "sa", "seealso"})
_EXAMPLE_TAGS = frozenset({"example", "examples", "usage"})
_BODY_TAGS = frozenset({"brief", "short", "summary", "description", "desc", "details", "detail", "par"})
_NOTE_TAGS = {"note": "Note", "warning": "Warning", "deprecated": "Deprecated", "attention": "Attention"}
_DOXYGEN = frozenset({"c", "cpp", "objc", "objcpp", "cuda"})
#: Languages whose `@throws` always names the type first (elsewhere it is guessed).
_TYPED_THROWS = frozenset({"java", "kotlin", "scala"}) | _DOXYGEN
_HTML_DOCS = frozenset({"java", "javascript", "typescript", "typescriptreact", "kotlin", "scala"})
_DOXY_COMMANDS = (
    _PARAM_TAGS | _RETURN_TAGS | _THROW_TAGS | _SEE_TAGS | _EXAMPLE_TAGS | _BODY_TAGS | set(_NOTE_TAGS)
) | {"tparam", "since", "author", "version", "file", "fn", "class", "struct", "def", "var", "todo", "pre", "post"}

#: Section names (lower case) whose content becomes a structured field.
_SECTION_PARAMS = frozenset({"arguments", "args", "parameters", "params", "other parameters", "keyword args"})
_SECTION_PARAMS |= {"keyword arguments", "kwargs"}
_SECTION_RETURNS = frozenset({"returns", "return", "return value", "return values", "yields", "yield"})
_SECTION_RAISES = frozenset({"raises", "raise", "errors", "panics", "throws", "exceptions"})
_SECTION_SEE = frozenset({"see also", "see"})
_SECTIONS = _SECTION_PARAMS | _SECTION_RETURNS | _SECTION_RAISES | _SECTION_SEE
_SECTION_HEADS = _SECTIONS | {"example", "examples", "usage", "note", "notes"}


def parse_doc(raw: str, language: str) -> DocComment:
    """Parse one doc comment or docstring into the documentation model.

    Args:
        raw: the doc text as stored in `Symbol.doc` (comment markers already removed).
        language: the language registry name (`python`, `rust`, `lua`, `java` …).

    Returns:
        The normalised doc; an empty `DocComment` for empty text. Never raises.
    """
    text = raw if isinstance(raw, str) else ""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    if not text.strip():
        return DocComment()
    try:
        if language == "python":
            return _python(text)
        return _tagged(text, language or "")
    except Exception:  # a parser bug must cost one item its structure, never the index
        log.warning("could not parse a %s doc comment; keeping it as plain text", language, exc_info=True)
        body = text.strip()
        return DocComment(summary=_safe_first_sentence(body), body=body)


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


def _safe_first_sentence(text: str) -> str:
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
    code = _fenced_lines(lines)
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
            if _HEADING.match(line) or _UNDERLINE.match(line) or line.strip().startswith((".. ", "<!--")):
                kind = "heading"
            elif line.startswith(("\t", "    ")):
                kind = "code"
        elif _UNDERLINE.match(line) and len(current) == 1:
            kind = "heading"
        current.append(line)
    return out


def _fenced_lines(lines: list[str]) -> list[bool]:
    """For each line: is it a fence or inside fenced code (an unclosed fence runs to the end)?"""
    out: list[bool] = []
    opened = ""
    for line in lines:
        mark = _FENCE.match(line)
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
    if language == "rust" and first in _RUSTDOC_ATTRS:
        return "rust"
    return first or language


def _fenced_examples(lines: list[str], language: str) -> list[Example]:
    """Every fenced block, described by the prose paragraph right before it."""
    examples: list[Example] = []
    i = 0
    while i < len(lines):
        mark = _FENCE.match(lines[i])
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
            examples.append(Example(code=snippet, description=_description(lines, start), language=lang))
    return examples


def _description(lines: list[str], start: int, code: list[bool] | None = None) -> str:
    """The prose paragraph ending right before line `start` ('' when code or a heading is there)."""
    i = start - 1
    while i >= 0 and not lines[i].strip() and start - i < _DESCRIPTION_LINES:
        i -= 1
    para: list[str] = []
    while i >= 0 and lines[i].strip() and len(para) < _DESCRIPTION_LINES:
        if (code is not None and code[i]) or _FENCE.match(lines[i]):
            return ""
        para.insert(0, lines[i].strip())
        i -= 1
    return _prose(para)


def _prose(para: list[str]) -> str:
    """A paragraph as one line of prose, without a section header before it ('' for a heading)."""
    under = max((n for n, ln in enumerate(para) if _UNDERLINE.match(ln)), default=-1)
    para = para[under + 1 :]  # a NumPy header ("Examples" + "--------") is no description
    if para and para[0].endswith(":") and para[0][:-1].strip().lower() in _SECTION_HEADS:
        para = para[1:]  # nor a Google one ("Examples:")
    if not para or _HEADING.match(para[0]):
        return ""
    return _ROLE.sub(r"`\1`", " ".join(ln.strip() for ln in para))


def _squeeze(lines: list[str]) -> str:
    """Lines joined; blank runs outside fences merged; no blank line at either end."""
    out: list[str] = []
    fenced = _fenced_lines(lines)
    for line, in_fence in zip(lines, fenced, strict=True):
        line = line.rstrip()
        if not line and out and not out[-1] and not in_fence:
            continue
        out.append(line)
    return "\n".join(out).strip("\n")


def _join(lines: list[str]) -> str:
    """A tag's or section's description: dedented, trimmed, newlines kept."""
    if not lines:
        return ""
    first, rest = lines[0].strip(), textwrap.dedent("\n".join(lines[1:]))
    return _squeeze([first, *rest.split("\n")]).strip() if rest.strip() else first


def _link_target(text: str) -> str:
    """`[`Foo`]`, `[label](target)`, `` `Foo` ``, `:func:`x`` -> the target, else the text trimmed."""
    text = _ROLE.sub(r"\1", text.strip()).strip()
    match = re.fullmatch(r"\[([^\]]*)\]\(([^)]*)\)|\[`?([^\]`]*)`?\]|`([^`]+)`", text)
    if match:
        return next(g for g in (match.group(2), match.group(3), match.group(4), match.group(1)) if g is not None)
    return text


# --- tag style: JSDoc, Javadoc, Doxygen, LuaCATS, rustdoc, Go, the seed --------------------------


def _tagged(text: str, language: str) -> DocComment:
    lines = text.split("\n")
    if language in _HTML_DOCS:
        lines = _html_to_markdown(lines, language)
    if language in _DOXYGEN:
        lines = _doxygen_code(lines, language)
    fenced = _fenced_lines(lines)
    lines = [ln if f else _inline(ln, language) for ln, f in zip(lines, fenced, strict=True)]
    body, tags = _split_tags(lines, language)
    doc = DocComment()
    for name, tag_lines in tags:
        _apply_tag(doc, name, tag_lines, language)
    examples = _fenced_examples(body, language)  # before sections go: a `# Errors` may hold code too
    if language == "go":
        examples += _indented_examples(body, _fenced_lines(body), "go")
    body = _sections(doc, body, language)
    doc.examples = examples + doc.examples
    doc.body = _squeeze(body)
    doc.summary = first_sentence(doc.body)
    return doc


def _inline(line: str, language: str) -> str:
    """Inline tags made readable: `{@link x}` -> `` `x` ``, `{@code x}` -> `` `x` ``."""
    if "{@" in line:
        # Bounded repeats: an unclosed `{@link` must not make each match scan the rest of the line.
        line = re.sub(r"\[([^\]]{1,200})\]\{@link(?:code|plain)?\s+([^}]{1,200})\}", r"\1 (`\2`)", line)
        line = re.sub(
            r"\{@link(?:code|plain)?\s+([^\s}|]{1,200})(?:\s*\|\s*|\s+)([^}]{1,200})\}",
            lambda m: f"{m.group(2).strip()} (`{m.group(1)}`)",
            line,
        )
        line = re.sub(
            r"\{@(?:link(?:code|plain)?|code|value)\s+([^{}]{0,200}(?:\{[^{}]{0,200}\}[^{}]{0,200}){0,4})\}",
            r"`\1`",
            line,
        )
        line = re.sub(r"\{@literal\s+([^}]{0,200})\}", r"\1", line)
    if language in _DOXYGEN and "\\" in line:
        line = re.sub(r"(?<![\w\\])[\\@](?:c|p)\s+([\w:.()<>*&-]*[\w)>])", r"`\1`", line)
        line = re.sub(r"(?<![\w\\])[\\@](?:a|e|em)\s+(\w+)", r"*\1*", line)
        line = re.sub(r"(?<![\w\\])[\\@]b\s+(\w+)", r"**\1**", line)
    return line


def _html_to_markdown(lines: list[str], language: str) -> list[str]:
    """Javadoc HTML -> Markdown: `<pre>` blocks fenced, `<p>` paragraphs, `<code>`, lists, links."""
    text = "\n".join(lines)
    if "<" not in text:
        return lines
    text = _fence_pre(text, language)
    out: list[str] = []
    split = text.split("\n")
    for line, in_fence in zip(split, _fenced_lines(split), strict=True):
        if not in_fence:
            line = re.sub(r"</?p\s*/?>", "\n\n", line, flags=re.I)
            line = re.sub(r"<br\s*/?>", "\n", line, flags=re.I)
            line = re.sub(r"<code>(.*?)</code>", r"`\1`", line, flags=re.I)
            line = re.sub(r"</?(?:b|strong)>", "**", line, flags=re.I)
            line = re.sub(r"</?(?:i|em)>", "*", line, flags=re.I)
            line = re.sub(r"<li>\s*", "- ", line, flags=re.I)
            line = re.sub(r"</li>|</?[uo]l>", "", line, flags=re.I)
            line = re.sub(r"<h(\d)>(.*?)</h\1>", lambda m: "#" * int(m.group(1)) + " " + m.group(2), line, flags=re.I)
            line = re.sub(r"<a\s+href=\"([^\"]*)\"\s*>(.*?)</a>", r"[\2](\1)", line, flags=re.I)
            line = html.unescape(line) if "&" in line else line
        out.extend(line.split("\n"))
    return [ln.rstrip() if ln.strip() else "" for ln in out]


def _fence_pre(text: str, language: str) -> str:
    """`<pre>{@code …}</pre>` and `<pre>…</pre>` -> fenced blocks (found with `find`: linear)."""
    lower, out, pos = text.lower(), [], 0
    while (start := lower.find("<pre>", pos)) >= 0 and (end := lower.find("</pre>", start)) >= 0:
        inner = text[start + 5 : end]
        opening = re.match(r"\s*\{@code[ \t]*\n?", inner)
        closing = inner.rstrip().rfind("}")
        if opening and closing >= opening.end():
            inner = inner[opening.end() : closing]
        code = html.unescape(textwrap.dedent(inner)).strip("\n")
        out.extend([text[pos:start], f"\n\n```{language}\n{code}\n```\n\n"])
        pos = end + 6
    out.append(text[pos:])
    return "".join(out)


def _doxygen_code(lines: list[str], language: str) -> list[str]:
    """Doxygen `\\code{.cpp}` … `\\endcode` (and `\\verbatim`) blocks -> fenced blocks."""
    out: list[str] = []
    inside = False
    for line in lines:
        start = None if inside else _DOXY_CODE.match(line)
        if start and not start.group(3):
            lang = start.group(2) or ("text" if start.group(1) == "verbatim" else language)
            out.extend(["", "```" + lang])
            inside = True
        elif inside and _DOXY_END.match(line):
            out.extend(["```", ""])
            inside = False
        else:
            out.append(line)
    if inside:
        out.append("```")
    return out


def _split_tags(lines: list[str], language: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """Body lines, and the tag blocks (`@name` + its lines until the next tag) outside fences."""
    body: list[str] = []
    tags: list[tuple[str, list[str]]] = []
    fenced = _fenced_lines(lines)
    current: list[str] | None = None
    for i, line in enumerate(lines):
        match = None
        if not fenced[i]:
            match = (_DOXY_TAG if language in _DOXYGEN else _TAG).match(line)
            if match and language in _DOXYGEN and match.group(1).lower() not in _DOXY_COMMANDS:
                match = None
        if match is None:
            # Code, or a heading after a blank line, ends a tag's description (not an example's).
            heading = not fenced[i] and _HEADING.match(line) and i > 0 and not lines[i - 1].strip()
            if current is not None and tags[-1][0] not in _EXAMPLE_TAGS and (heading or _FENCE.match(line)):
                current = None
            (body if current is None else current).append(line)
            continue
        name = match.group(1).lower()
        rest = match.group(3) if language in _DOXYGEN else match.group(2)
        rest = rest[1:] if rest.startswith(" ") else rest
        if name in _BODY_TAGS:
            current = None
            if rest.strip():
                body.append(rest)
        elif name in _NOTE_TAGS:
            current = None
            if rest.strip():
                body.extend(["", f"{_NOTE_TAGS[name]}: {rest.strip()}"])
        else:
            current = [rest]
            tags.append((name, current))
    return body, tags


def _apply_tag(doc: DocComment, name: str, lines: list[str], language: str) -> None:
    """Put one tag block into the model (unknown tags, flags and `@field`s are dropped)."""
    text = _join(lines)
    if name in _PARAM_TAGS or (name == "tparam" and language == "lua"):
        param = _lua_param(text, typed_first=name == "tparam") if language == "lua" else _param(text)
        if param.name:
            doc.params.append(param)
    elif name in _RETURN_TAGS or (name in _YIELD_TAGS and doc.returns is None):
        _add_return(doc, *(_lua_type(text) if language == "lua" else _braced_type(text)))
    elif name in _THROW_TAGS:
        kind, rest = _braced_type(text)
        if not kind:
            first = rest.split(None, 1)
            if first and (language in _TYPED_THROWS or _looks_like_type(first[0])):
                kind, rest = first[0], first[1] if len(first) > 1 else ""
        doc.raises.append(DocParam(name=kind, doc=rest.strip().lstrip("-").strip()))
    elif name in _SEE_TAGS:
        targets = re.split(r"\s*,\s*", text) if name in ("sa", "seealso") else [text]
        doc.see_also.extend(_link_target(t) for t in targets if t.strip())
    elif name in _EXAMPLE_TAGS:
        doc.examples.extend(_tag_examples(lines, language))


def _braced_type(text: str) -> tuple[str, str]:
    """`{Type} rest` -> (Type, rest), braces balanced; ('', text) without braces."""
    text = text.strip()
    if not text.startswith("{"):
        return "", text
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "{") - (ch == "}")
        if depth == 0:
            return text[1:i].strip(), text[i + 1 :].strip()
    return "", text


def _param(text: str) -> DocParam:
    """`{Type} name - desc`, `[name=default] desc`, `name: desc`, `<T> desc`, `[in] name desc`."""
    kind, rest = _braced_type(text)
    rest = re.sub(r"^\[(?:in|out|in,\s*out)\]\s*", "", rest)
    match = re.match(r"\[([^\]=]+)(?:=([^\]]*))?\]|(\S+)", rest)
    if not match:
        return DocParam(name="", type=kind)
    name = (match.group(1) or match.group(3) or "").strip()
    desc = rest[match.end() :].strip()
    if name.endswith(":") and len(name) > 1:
        name = name[:-1]
    desc = re.sub(r"^(?:[-\u2013\u2014:]\s+|-$)", "", desc)
    if match.group(2):
        desc = f"{desc} (default: {match.group(2).strip()})".strip()
    return DocParam(name=name.strip("`*"), type=kind, doc=desc)


def _lua_type(text: str) -> tuple[str, str]:
    """A LuaCATS type at the start of `text` (`table<K, V>`, `fun(x: T): R`, `a | b`) and the rest."""
    text = text.strip()
    end = 0
    while True:
        end = _lua_atom(text, end)
        ahead = len(text[end:]) - len(text[end:].lstrip())
        nxt = text[end + ahead : end + ahead + 1]
        if nxt == "|" or text[:end].endswith("|") or (text[:end].endswith(":") and "fun(" in text[:end]):
            start = end + ahead + (1 if nxt == "|" else 0)
            start += len(text[start:]) - len(text[start:].lstrip())
            if start >= len(text) or start == end:
                break
            end = start
            continue
        break
    kind, rest = text[:end].strip(), text[end:].strip()
    return kind, re.sub(r"^#\s*", "", rest)


def _lua_atom(text: str, i: int) -> int:
    """End of one space-free token from `i`, spaces allowed inside balanced brackets and quotes."""
    depth, quote = 0, ""
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth = max(0, depth - 1)
        elif ch.isspace() and depth == 0:
            break
        i += 1
    return i


def _lua_param(text: str, typed_first: bool = False) -> DocParam:
    """LuaCATS `name[?] type desc` (LDoc `@tparam type name desc` when `typed_first`)."""
    if typed_first:
        kind, rest = _lua_type(text)
        name, _, desc = rest.partition(" ")
    else:
        name, _, rest = text.strip().partition(" ")
        kind, desc = _lua_type(rest)
    if name.endswith("?") and len(name) > 1:
        name = name[:-1]
        kind = _optional(kind)
    return DocParam(name=name, type=kind, doc=desc.strip())


def _optional(kind: str) -> str:
    """`T?` for an optional LuaCATS `name?`; a top-level union is parenthesised: `(A|B)?`."""
    depth = 0
    for ch in kind:
        depth += (ch in "([{<") - (ch in ")]}>")
        if ch == "|" and depth == 0:
            return f"({kind})?"
    return f"{kind}?" if kind else ""


def _add_return(doc: DocComment, kind: str, text: str) -> None:
    """One more return value (several `@return` lines list their types, docs one a line)."""
    text = re.sub(r"^(?:[-:]\s+)", "", text.strip())
    if doc.returns is None:
        doc.returns = DocReturn(type=kind, doc=text)
        return
    doc.returns.type = ", ".join(t for t in (doc.returns.type, kind) if t)
    doc.returns.doc = "\n".join(t for t in (doc.returns.doc, text) if t)


def _looks_like_type(word: str) -> bool:
    """Is the first word of an untyped `@throws` an exception type (`IOError`, `io.Err`)?"""
    if not re.fullmatch(r"[A-Za-z_][\w.:<>]*", word):
        return False
    return (
        word.endswith(("Error", "Exception", "Err", "Fault"))
        or "." in word
        or "::" in word
        or (word[0].isupper() and sum(c.isupper() for c in word) >= 2)
    )


def _tag_examples(lines: list[str], language: str) -> list[Example]:
    """An `@example` block: its fenced blocks, else the whole block as code (JSDoc)."""
    first = lines[0] if lines else ""
    caption = re.match(r"\s*<caption>(.*?)</caption>\s*", first)
    if caption:
        lines = [first[caption.end() :], *lines[1:]]
    fenced = _fenced_examples(lines, language)
    if fenced:
        for ex in fenced:
            ex.description = ex.description or (caption.group(1).strip() if caption else "")
        return fenced
    code = (lines[0].strip() + "\n" if lines and lines[0].strip() else "") + textwrap.dedent("\n".join(lines[1:]))
    code = code.strip("\n")
    if not code.strip():
        return []
    lang = language
    return [Example(code=code, description=caption.group(1).strip() if caption else "", language=lang)]


def _sections(doc: DocComment, lines: list[str], language: str) -> list[str]:
    """Markdown sections (`# Arguments`, `# Returns`, `# Errors`, `# Panics`, `# See also`)
    moved into the model; the other lines returned as the body."""
    fenced = _fenced_lines(lines)
    heads = [(i, m) for i, ln in enumerate(lines) if not fenced[i] and (m := _HEADING.match(ln))]
    if not heads:
        return lines
    keep = [True] * len(lines)
    for n, (i, match) in enumerate(heads):
        title = match.group(2).strip().rstrip(":").lower()
        if title not in _SECTIONS:
            continue
        level = len(match.group(1))
        end = next((j for j, m in heads[n + 1 :] if len(m.group(1)) <= level), len(lines))
        content = lines[i + 1 : end]
        for j in range(i, end):
            keep[j] = False
        if title in _SECTION_PARAMS:
            doc.params.extend(_list_params(content))
        elif title in _SECTION_RETURNS:
            _add_return(doc, "", _join(content))
        elif title in _SECTION_RAISES:
            doc.raises.append(DocParam(name=match.group(2).strip().rstrip(":"), doc=_join(content)))
        else:
            doc.see_also.extend(_see_entries(content))
    return [ln for ln, k in zip(lines, keep, strict=True) if k]


def _list_params(lines: list[str]) -> list[DocParam]:
    """`* \\`name\\` - desc` list items (continuation lines indented) -> params."""
    params: list[DocParam] = []
    for line in lines:
        item = _LIST_ITEM.match(line)
        if item:
            match = re.match(r"`([^`]+)`|(\*\*|__)?([\w.$?]+)\2?", item.group(1))
            if not match:
                continue
            name = (match.group(1) or match.group(3) or "").strip()
            name, _, kind = name.partition(":")
            desc = re.sub(r"^\s*(?:\([^)]*\)\s*)?(?:[-\u2013\u2014:]\s*)?", "", item.group(1)[match.end() :])
            params.append(DocParam(name=name.strip(), type=kind.strip(), doc=desc.strip()))
        elif params and line.strip():
            params[-1].doc = f"{params[-1].doc}\n{line.strip()}".strip()
    return params


def _see_entries(lines: list[str]) -> list[str]:
    """See-also section lines -> targets (`name : desc` and `a, b` forms; bullets dropped)."""
    out: list[str] = []
    items = [ln for ln in lines if ln.strip()]
    indent = min((len(ln) - len(ln.lstrip()) for ln in items), default=0)
    for line in items:
        if len(line) - len(line.lstrip()) > indent:
            continue  # a NumPy entry's description
        item = _LIST_ITEM.match(line)
        text = item.group(1) if item else line.strip()
        text = re.split(r"\s+[:\u2013\u2014-]\s+|:\s+", text, maxsplit=1)[0]
        out.extend(_link_target(t) for t in re.split(r",\s*", text) if t.strip())
    return out


def _indented_examples(lines: list[str], fenced: list[bool], language: str) -> list[Example]:
    """Go-style code: lines indented by a tab or 4+ spaces, after a blank line, outside fences."""
    examples: list[Example] = []
    i = 0
    while i < len(lines):
        indented = lines[i].startswith(("\t", "    ")) and lines[i].strip()
        if not indented or fenced[i] or (i > 0 and lines[i - 1].strip()):
            i += 1
            continue
        start = i
        while i < len(lines) and not fenced[i] and (lines[i].startswith(("\t", "    ")) or not lines[i].strip()):
            i += 1
        code = textwrap.dedent("\n".join(lines[start:i]).expandtabs(4)).strip("\n")
        examples.append(Example(code=code, description=_description(lines, start), language=language))
    return examples


# --- Python docstrings ----------------------------------------------------------------------------

_GOOGLE_HEAD = re.compile(r"^(\s*)([A-Z][A-Za-z ]{1,30}):\s*$")
_REST_FIELD = re.compile(
    r"^(\s*):(param|parameter|arg|argument|key|keyword|kwarg|kwparam|type|returns?|rtype|raises?|except"
    r"|exception|yields?|ytype)\b[^:\n]*:(.*)$"
)
_EPYDOC_FIELD = re.compile(r"^(\s*)@(param|type|keyword|kwarg|return|returns|rtype|raise|raises)\b")
_EPYDOC_SEE = re.compile(r"^(\s*)@see\b:?\s*(.*)$")
#: Sections docstring_parser reads (so the body may drop them), and See Also.
_PY_SECTIONS = frozenset({"arguments", "args", "parameters", "params", "raises", "raise", "exceptions", "except"})
_PY_SECTIONS |= {"returns", "return", "yields", "yield", "see also", "related"}
_SEEALSO_DIRECTIVE = re.compile(r"^(\s*)\.\. seealso::\s*(.*)$")
_CODE_DIRECTIVE = re.compile(r"^(\s*)\.\. (?:code-block|code|sourcecode|doctest|testcode)::\s*(\S*)")
_STYLES = docstring_parser.DocstringStyle
_PARAM_KINDS = frozenset({"param", "parameter", "arg", "argument", "key", "keyword", "other_param"})


def _python(text: str) -> DocComment:
    doc = DocComment()
    lines = text.split("\n")
    body, fields = _python_body(doc, lines)
    parsed = _docstring_parser(text)
    if parsed is not None and fields and parsed.style in (_STYLES.REST, _STYLES.EPYDOC):
        # There a field's description runs on over the prose after it: parse the fields alone.
        parsed = _docstring_parser("\n".join(fields))
    if parsed is not None:
        for p in parsed.params:
            if p.args and p.args[0] in _PARAM_KINDS and p.arg_name:
                doc.params.append(DocParam(name=p.arg_name, type=p.type_name or "", doc=(p.description or "").strip()))
        for r in parsed.many_returns:
            _add_return(doc, r.type_name or "", r.description or "")
        for e in parsed.raises:
            doc.raises.append(DocParam(name=e.type_name or "", doc=(e.description or "").strip()))
    doc.examples = _python_examples(lines)
    doc.body = _squeeze(body)
    doc.summary = first_sentence(doc.body)
    return doc


def _docstring_parser(text: str) -> docstring_parser.Docstring | None:
    try:
        return docstring_parser.parse(text)
    except Exception:  # ParseError, and worse on malformed sections
        return None


def _python_body(doc: DocComment, lines: list[str]) -> tuple[list[str], list[str]]:
    """The docstring without its field sections (Google, NumPy, reST, Epydoc), and the reST
    and Epydoc field lines removed; See Also sections and `.. seealso::` go into `doc.see_also`."""
    keep = [True] * len(lines)
    fields: list[str] = []
    fenced = _fenced_lines(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if fenced[i]:
            i += 1
            continue
        numpy = i + 1 < len(lines) and _UNDERLINE.match(lines[i + 1]) and line.strip()
        google = _GOOGLE_HEAD.match(line)
        see = _SEEALSO_DIRECTIVE.match(line) or _EPYDOC_SEE.match(line)
        field = _REST_FIELD.match(line) or _EPYDOC_FIELD.match(line) or see
        end = i
        title = ""
        if numpy:
            title = line.strip().lower()
            end = i + 2
            while end < len(lines) and not (
                end + 1 < len(lines) and _UNDERLINE.match(lines[end + 1]) and lines[end].strip()
            ):
                end += 1
        elif (google and google.group(2).lower() in _PY_SECTIONS) or field:
            title = google.group(2).lower() if google else "see also" if see else "field"
            indent = len(line) - len(line.lstrip())
            end = i + 1
            while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            while end > i + 1 and not lines[end - 1].strip():
                end -= 1
        if title in _PY_SECTIONS or title == "field":
            if title in _SECTION_SEE or title == "related":
                head = [see.group(2)] if see and see.group(2) else []
                doc.see_also.extend(_see_entries(head + lines[i + (1 if see or google else 2) : end]))
            for j in range(i, end):
                keep[j] = False
            if title == "field":
                fields.extend(lines[i:end])
            i = end
            continue
        i += 1
    body = [_ROLE.sub(r"`\1`", ln) if not f else ln for ln, k, f in zip(lines, keep, fenced, strict=True) if k]
    return body, fields


def _python_examples(lines: list[str]) -> list[Example]:
    """Fenced blocks, `.. code-block::` and `::` literal blocks, then doctests outside them."""
    code = _fenced_lines(lines)
    examples = _fenced_examples(lines, "python")
    found: list[tuple[int, Example]] = [(-1, ex) for ex in examples]
    i = 0
    while i < len(lines):
        line = lines[i]
        directive = _CODE_DIRECTIVE.match(line)
        literal = line.rstrip().endswith("::") and not code[i] and not line.strip().startswith("..")
        if (directive or literal) and not code[i]:
            indent = len(line) - len(line.lstrip())
            end = i + 1
            while end < len(lines) and lines[end].strip().startswith(":") and directive:
                end += 1  # directive options (`:linenos:`)
            start = end
            while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) > indent):
                end += 1
            snippet = textwrap.dedent("\n".join(lines[start:end])).strip("\n")
            if snippet.strip() and start < end:
                if directive:
                    lang, desc = directive.group(2) or "python", _description(lines, i, code)
                else:
                    lang, desc = "python", _prose(_paragraph_at(lines, i))[:-1].rstrip(":")
                    desc = desc + ":" if desc.strip() else ""
                found.append((i, Example(code=snippet, description=desc, language=lang)))
                for j in range(i + 1, end):
                    code[j] = True
                i = end
                continue
        if not code[i] and line.lstrip().startswith(">>>"):
            start = i
            while i < len(lines) and lines[i].strip():
                code[i] = True
                i += 1
            snippet = textwrap.dedent("\n".join(lines[start:i]))
            found.append(
                (start, Example(code=snippet, description=_description(lines, start, code), language="python"))
            )
            continue
        i += 1
    return [ex for _, ex in sorted(found, key=lambda f: f[0])]


def _paragraph_at(lines: list[str], i: int) -> list[str]:
    """The lines of the paragraph that ends at line `i`."""
    start = i
    while start > 0 and lines[start - 1].strip() and i - start < _DESCRIPTION_LINES:
        start -= 1
    return lines[start : i + 1]
