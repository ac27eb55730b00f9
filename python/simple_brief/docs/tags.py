"""The tag-style doc-comment reader: JSDoc/TSDoc, Javadoc (HTML), Doxygen (`\\param`),
LuaCATS/LDoc, rustdoc sections (`# Arguments`, `# Errors` …), Go's indented code blocks
and the seed's own `@param`/`@returns`/`@throws`/`@example`/`@see` tags, into a
`DocComment` (the body rule is in `comments`). Which dialect a language writes is its
unit's `DocRules` (`html`, `doxygen`, `typed_throws`, `luacats`, `indented_code`).
"""

from __future__ import annotations

import html
import re
import textwrap

from simple_brief.docs.model import DocComment, DocParam, DocReturn, Example
from simple_brief.docs.prose import (
    FENCE,
    HEADING,
    SECTION_PARAMS,
    SECTION_RAISES,
    SECTION_RETURNS,
    SECTIONS,
    example_description,
    fenced_examples,
    fenced_lines,
    first_sentence,
    join_lines,
    link_target,
    squeeze,
)
from simple_brief.languages import DocRules, docs_rules

_TAG = re.compile(r"^\s*@([A-Za-z][\w-]*)(.*)$")


_DOXY_TAG = re.compile(r"^\s*[@\\]([A-Za-z]+)(\[[^\]]*\])?(?=\s|$|\{)(.*)$")


_DOXY_CODE = re.compile(r"^\s*[@\\](code|verbatim)(?:\{\.?(\w*)\})?\s*(.*)$")


_DOXY_END = re.compile(r"^\s*[@\\]end(?:code|verbatim)\b")


_LIST_ITEM = re.compile(r"^\s*(?:[*+-]|\d+[.)])\s+(.*)$")


_PARAM_TAGS = frozenset({"param", "arg", "argument", "parameter", "params"})


_RETURN_TAGS = frozenset({"return", "returns", "result", "retval", "treturn"})


_YIELD_TAGS = frozenset({"yield", "yields"})


_THROW_TAGS = frozenset({"throws", "throw", "exception", "raise", "raises"})


_SEE_TAGS = frozenset({"see", "sa", "seealso"})


_EXAMPLE_TAGS = frozenset({"example", "examples", "usage"})


_BODY_TAGS = frozenset({"brief", "short", "summary", "description", "desc", "details", "detail", "par"})


_NOTE_TAGS = {"note": "Note", "warning": "Warning", "deprecated": "Deprecated", "attention": "Attention"}


_DOXY_COMMANDS = (
    _PARAM_TAGS | _RETURN_TAGS | _THROW_TAGS | _SEE_TAGS | _EXAMPLE_TAGS | _BODY_TAGS | set(_NOTE_TAGS)
) | {"tparam", "since", "author", "version", "file", "fn", "class", "struct", "def", "var", "todo", "pre", "post"}


def parse_tagged(text: str, language: str) -> DocComment:
    rules = docs_rules(language)
    lines = text.split("\n")
    if rules.html:
        lines = _html_to_markdown(lines, language)
    if rules.doxygen:
        lines = _doxygen_code(lines, language)
    fenced = fenced_lines(lines)
    lines = [ln if f else _inline(ln, rules) for ln, f in zip(lines, fenced, strict=True)]
    body, tags = _split_tags(lines, rules)
    doc = DocComment()
    for name, tag_lines in tags:
        _apply_tag(doc, name, tag_lines, language, rules)
    examples = fenced_examples(body, language)  # before sections go: a `# Errors` may hold code too
    if rules.indented_code:
        examples += _indented_examples(body, fenced_lines(body), language)
    body = _sections(doc, body, language)
    doc.examples = examples + doc.examples
    doc.body = squeeze(body)
    doc.summary = first_sentence(doc.body)
    return doc


def _inline(line: str, rules: DocRules) -> str:
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
    if rules.doxygen and "\\" in line:
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
    for line, in_fence in zip(split, fenced_lines(split), strict=True):
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


def _split_tags(lines: list[str], rules: DocRules) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """Body lines, and the tag blocks (`@name` + its lines until the next tag) outside fences."""
    body: list[str] = []
    tags: list[tuple[str, list[str]]] = []
    fenced = fenced_lines(lines)
    current: list[str] | None = None
    for i, line in enumerate(lines):
        match = None
        if not fenced[i]:
            match = (_DOXY_TAG if rules.doxygen else _TAG).match(line)
            if match and rules.doxygen and match.group(1).lower() not in _DOXY_COMMANDS:
                match = None
        if match is None:
            # Code, or a heading after a blank line, ends a tag's description (not an example's).
            heading = not fenced[i] and HEADING.match(line) and i > 0 and not lines[i - 1].strip()
            if current is not None and tags[-1][0] not in _EXAMPLE_TAGS and (heading or FENCE.match(line)):
                current = None
            (body if current is None else current).append(line)
            continue
        name = match.group(1).lower()
        rest = match.group(3) if rules.doxygen else match.group(2)
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


def _apply_tag(doc: DocComment, name: str, lines: list[str], language: str, rules: DocRules) -> None:
    """Put one tag block into the model (unknown tags, flags and `@field`s are dropped)."""
    text = join_lines(lines)
    if name in _PARAM_TAGS or (name == "tparam" and rules.luacats):
        param = _lua_param(text, typed_first=name == "tparam") if rules.luacats else _param(text)
        if param.name:
            doc.params.append(param)
    elif name in _RETURN_TAGS or (name in _YIELD_TAGS and doc.returns is None):
        add_return(doc, *(_lua_type(text) if rules.luacats else _braced_type(text)))
    elif name in _THROW_TAGS:
        kind, rest = _braced_type(text)
        if not kind:
            first = rest.split(None, 1)
            if first and (rules.typed_throws or _looks_like_type(first[0])):
                kind, rest = first[0], first[1] if len(first) > 1 else ""
        doc.raises.append(DocParam(name=kind, doc=rest.strip().lstrip("-").strip()))
    elif name in _SEE_TAGS:
        targets = re.split(r"\s*,\s*", text) if name in ("sa", "seealso") else [text]
        doc.see_also.extend(link_target(t) for t in targets if t.strip())
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


def add_return(doc: DocComment, kind: str, text: str) -> None:
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
    fenced = fenced_examples(lines, language)
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
    fenced = fenced_lines(lines)
    heads = [(i, m) for i, ln in enumerate(lines) if not fenced[i] and (m := HEADING.match(ln))]
    if not heads:
        return lines
    keep = [True] * len(lines)
    for n, (i, match) in enumerate(heads):
        title = match.group(2).strip().rstrip(":").lower()
        if title not in SECTIONS:
            continue
        level = len(match.group(1))
        end = next((j for j, m in heads[n + 1 :] if len(m.group(1)) <= level), len(lines))
        content = lines[i + 1 : end]
        for j in range(i, end):
            keep[j] = False
        if title in SECTION_PARAMS:
            doc.params.extend(_list_params(content))
        elif title in SECTION_RETURNS:
            add_return(doc, "", join_lines(content))
        elif title in SECTION_RAISES:
            doc.raises.append(DocParam(name=match.group(2).strip().rstrip(":"), doc=join_lines(content)))
        else:
            doc.see_also.extend(see_entries(content))
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


def see_entries(lines: list[str]) -> list[str]:
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
        out.extend(link_target(t) for t in re.split(r",\s*", text) if t.strip())
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
        examples.append(Example(code=code, description=example_description(lines, start), language=language))
    return examples
