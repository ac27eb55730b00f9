"""reStructuredText: section titles and link targets (`.. _label:`); outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "rst",
    (".rst", ".rest"),
    "tree_sitter_language_pack.bindings.rst:language",
    comment="..",
    aliases=("restructuredtext", "rest"),
    docs=DocRules(indexed=False),
)
