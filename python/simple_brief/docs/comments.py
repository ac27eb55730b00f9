"""Doc comments and docstrings -> `DocComment` (seed 004 "Doc Comment Syntax").

`parse_doc` takes the text the scanner stores in `Symbol.doc` (a cleaned docstring, or a
doc comment with its `///`, ` * `, `---` … markers removed) and the language's
name. Docstrings (Python's: plain, Google, NumPy, reST, Epydoc) go through `docstring_parser`
for their fields; every other language goes through one tag-and-Markdown reader that knows
the dialects: JSDoc/TSDoc, Javadoc (HTML), Doxygen (`\\param`), LuaCATS/LDoc, rustdoc
sections (`# Arguments`, `# Errors` …), Go's indented code blocks and the seed's own tags.
Which one a language writes is its unit's `DocRules` (`simple_brief/languages/`).

Body rule: the body is the whole text, Markdown kept, without the tag blocks and without
the sections whose content went into `params`, `returns`, `raises` or `see_also`; prose
example sections (`# Examples`, `Examples:`) stay in the body, `@example` tag blocks do
not. Every fenced block, `@example` block, doctest and literal block is in `examples`.

Every function here is total: any string gives a `DocComment`, never an exception.
"""

from __future__ import annotations

import logging

from simple_brief.docs.docstrings import parse_python
from simple_brief.docs.model import DocComment
from simple_brief.docs.prose import first_sentence, safe_first_sentence
from simple_brief.docs.tags import parse_tagged
from simple_brief.languages import docs_rules

log = logging.getLogger(__name__)

__all__ = ["first_sentence", "parse_doc"]


def parse_doc(raw: str, language: str) -> DocComment:
    """Parse one doc comment or docstring into the documentation model.

    Args:
        raw: the doc text as stored in `Symbol.doc` (comment markers already removed).
        language: the language name (`python`, `rust`, `lua`, `java` …).

    Returns:
        The normalised doc; an empty `DocComment` for empty text. Never raises.
    """
    text = raw if isinstance(raw, str) else ""
    text = text.replace("\r\n", "\n").replace("\r", "\n").strip("\n")
    if not text.strip():
        return DocComment()
    try:
        if docs_rules(language).docstrings:
            return parse_python(text)
        return parse_tagged(text, language or "")
    except Exception:  # a parser bug must cost one item its structure, never the index
        log.warning("could not parse a %s doc comment; keeping it as plain text", language, exc_info=True)
        body = text.strip()
        return DocComment(summary=safe_first_sentence(body), body=body)
