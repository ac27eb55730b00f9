"""Markdown: sections are items (`file.md#section`), headings nest."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "markdown",
    (".md", ".markdown"),
    "tree_sitter_markdown:language",
    comment="<!--",
    comment_end=" -->",
    aliases=("md",),
    docs=DocRules(items="sections", module_id="file", module_item="never"),
)
