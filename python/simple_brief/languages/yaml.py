"""YAML: mapping keys nested by containment, sequence items of mappings, Kubernetes-style
documents; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "yaml",
    (".yaml", ".yml"),
    "tree_sitter_yaml:language",
    title="YAML",
    comment="#",
    aliases=("yml",),
    docs=DocRules(indexed=False),
    max_definitions=25_000,  # a data file of more keys is listed in part (H002)
)
