"""CSS: rule sets named by their selectors, at-rules (`@media`, `@supports`, `@keyframes`,
`@font-face` ...), `@import`; outlined, not documented."""

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
)
