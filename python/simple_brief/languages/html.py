"""HTML: elements with an id, headings, inline scripts and styles; stylesheets and scripts
linked in are imports. Outlined, not documented."""

import re

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "html",
    (".html", ".htm", ".xhtml", ".xht"),
    "tree_sitter_html:language",
    title="HTML",
    comment="<!--",
    comment_end=" -->",
    block_comment=("<!--", "-->"),
    # Pages nest elements 20-40 deep (layout tables, div soup) and have no deep
    # expression trees to skip: look for ids and headings at any depth.
    max_start_depth=256,
    # Neovim reads a page with an XHTML doctype or `<?xml` prolog as `xhtml`.
    filetypes=("xhtml",),
    aliases=("htm",),
    docs=DocRules(indexed=False),
    names="simple_brief.languages.html:heading_name",
)

#: A link that is only a mark (`<a href="#x">§</a>`): a permalink, not the title.
_MARK_LINK = re.compile(r"<a\b[^>]*>\s*[§¶#]\s*</a\s*>", re.IGNORECASE)
_BREAK = re.compile(r"<br\b[^>]*>", re.IGNORECASE)
_TAG = re.compile(r"<!--.*?-->|<[^>]*>", re.DOTALL)


def heading_name(text: str) -> str:
    """A name's text without its tags (a line break is a space) and mark-only links: a
    heading's whole text, as ctags reads it, from the markup between its first and last
    child. Text without tags (ids, tag names) is returned as it is."""
    if "<" not in text:
        return text
    return _TAG.sub("", _BREAK.sub(" ", _MARK_LINK.sub("", text)))
