"""JSON (and JSONC, JSON with comments): object keys, nested by containment; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "json",
    (".json", ".jsonc"),
    "tree_sitter_json:language",
    title="JSON",
    comment="//",
    filetypes=("jsonc",),
    docs=DocRules(indexed=False),
    max_definitions=25_000,  # a data file of more keys is listed in part (H002)
)
