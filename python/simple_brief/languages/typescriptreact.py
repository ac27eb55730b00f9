"""TSX: TypeScript with JSX, Neovim's `typescriptreact`; TypeScript's query and docs rules."""

from simple_brief.languages import javascript
from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "typescriptreact",
    (".tsx",),
    "tree_sitter_typescript:language_tsx",
    comment="//",
    other_comments=("<!--", "-->"),
    aliases=("tsx",),
    docs=javascript.DOCS,
)
