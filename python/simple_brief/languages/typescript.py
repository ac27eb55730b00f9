"""TypeScript: JavaScript's docs rules (`.d.ts` declarations are all public)."""

from simple_brief.languages import javascript
from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "typescript",
    (".ts", ".mts", ".cts"),
    "tree_sitter_typescript:language_typescript",
    title="TypeScript",
    comment="//",
    other_comments=("<!--", "-->"),
    aliases=("ts",),
    docs=javascript.DOCS,
    # As JavaScript (javascript.py): definitions deep in callbacks and generators (effect).
    max_start_depth=32,
)
