"""TSX: TypeScript with JSX, Neovim's `typescriptreact`; TypeScript's query and docs rules."""

from simple_brief.languages import javascript
from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "typescriptreact",
    (".tsx",),
    "tree_sitter_typescript:language_tsx",
    title="TSX",
    comment="//",
    other_comments=("<!--", "-->"),
    aliases=("tsx",),
    docs=javascript.DOCS,
    # As JavaScript (javascript.py): definitions deep in callbacks and generators (effect).
    max_start_depth=32,
)
