"""CSS: rule sets named by their selectors, at-rules (`@media`, `@supports`, `@keyframes`,
`@font-face` ...), `@import`; outlined, not documented.

An unquoted `url(./file.svg)`, valid CSS the grammar misreads, is rewritten byte for
byte before a second parse (`_css_syntax.py`, the `repair`)."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "css",
    (".css",),
    "tree_sitter_css:language",
    title="CSS",
    comment="/*",
    comment_end=" */",
    block_comment=("/*", "*/"),
    docs=DocRules(indexed=False),
    repair="simple_brief.languages._css_syntax:repair",
)
