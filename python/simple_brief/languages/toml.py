"""TOML: tables, arrays of tables and their keys; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "toml",
    (".toml",),
    "tree_sitter_toml:language",
    title="TOML",
    comment="#",
    checks=("tomllib",),
    file_names=("Cargo.lock", "Pipfile", "uv.lock", "Gopkg.lock"),
    docs=DocRules(indexed=False),
    max_definitions=25_000,  # a data file of more keys is listed in part (H002)
)
