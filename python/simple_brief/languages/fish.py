"""fish: functions (and the ones defined inside `if` blocks), abbreviations and aliases."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "fish",
    (".fish",),
    "tree_sitter_language_pack.bindings.fish:language",
    comment="#",
    docs=DocRules(imports=r"(?m)^\s*(?:source|\.)\s+(\S+)"),
)
