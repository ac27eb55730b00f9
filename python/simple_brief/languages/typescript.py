"""TypeScript: JavaScript's docs rules (`.d.ts` declarations are all public)."""

from simple_brief.languages import javascript
from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "typescript",
    (".ts", ".mts", ".cts"),
    "tree_sitter_typescript:language_typescript",
    comment="//",
    other_comments=("<!--", "-->"),
    aliases=("ts",),
    docs=javascript.DOCS,
)
