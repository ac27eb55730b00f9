"""HTML: elements with an id, headings, inline scripts and styles; stylesheets and scripts
linked in are imports. Outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "html",
    (".html", ".htm", ".xhtml", ".xht"),
    "tree_sitter_html:language",
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
)
