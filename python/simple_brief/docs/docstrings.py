"""Python docstrings (plain, Google, NumPy, reST, Epydoc) into a `DocComment`: the fields
through `docstring_parser`, the body, examples (doctests, literal blocks, code
directives) and See Also read here.
"""

from __future__ import annotations

import re
import textwrap

import docstring_parser

from simple_brief.docs.model import DocComment, DocParam, Example
from simple_brief.docs.prose import (
    DESCRIPTION_LINES,
    ROLE,
    SECTION_SEE,
    UNDERLINE,
    example_description,
    fenced_examples,
    fenced_lines,
    first_sentence,
    prose_paragraph,
    squeeze,
)
from simple_brief.docs.tags import add_return, see_entries

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


def parse_python(text: str) -> DocComment:
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
            add_return(doc, r.type_name or "", r.description or "")
        for e in parsed.raises:
            doc.raises.append(DocParam(name=e.type_name or "", doc=(e.description or "").strip()))
    doc.examples = _python_examples(lines)
    doc.body = squeeze(body)
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
    fenced = fenced_lines(lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if fenced[i]:
            i += 1
            continue
        numpy = i + 1 < len(lines) and UNDERLINE.match(lines[i + 1]) and line.strip()
        google = _GOOGLE_HEAD.match(line)
        see = _SEEALSO_DIRECTIVE.match(line) or _EPYDOC_SEE.match(line)
        field = _REST_FIELD.match(line) or _EPYDOC_FIELD.match(line) or see
        end = i
        title = ""
        if numpy:
            title = line.strip().lower()
            end = i + 2
            while end < len(lines) and not (
                end + 1 < len(lines) and UNDERLINE.match(lines[end + 1]) and lines[end].strip()
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
            if title in SECTION_SEE or title == "related":
                head = [see.group(2)] if see and see.group(2) else []
                doc.see_also.extend(see_entries(head + lines[i + (1 if see or google else 2) : end]))
            for j in range(i, end):
                keep[j] = False
            if title == "field":
                fields.extend(lines[i:end])
            i = end
            continue
        i += 1
    body = [ROLE.sub(r"`\1`", ln) if not f else ln for ln, k, f in zip(lines, keep, fenced, strict=True) if k]
    return body, fields


def _python_examples(lines: list[str]) -> list[Example]:
    """Fenced blocks, `.. code-block::` and `::` literal blocks, then doctests outside them."""
    code = fenced_lines(lines)
    examples = fenced_examples(lines, "python")
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
                    lang, desc = directive.group(2) or "python", example_description(lines, i, code)
                else:
                    lang, desc = "python", prose_paragraph(_paragraph_at(lines, i))[:-1].rstrip(":")
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
                (start, Example(code=snippet, description=example_description(lines, start, code), language="python"))
            )
            continue
        i += 1
    return [ex for _, ex in sorted(found, key=lambda f: f[0])]


def _paragraph_at(lines: list[str], i: int) -> list[str]:
    """The lines of the paragraph that ends at line `i`."""
    start = i
    while start > 0 and lines[start - 1].strip() and i - start < DESCRIPTION_LINES:
        start -= 1
    return lines[start : i + 1]
