"""Swift: types, extensions, protocols and their members; `///` Markdown doc comments."""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "swift",
    (".swift",),
    "tree_sitter_swift:language",
    comment="//",
)
