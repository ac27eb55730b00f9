"""reStructuredText: section titles and link targets (`.. _label:`); outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec


def target_name(name: str) -> str:
    """A link target's name as documents refer to it: `_usage:` is `usage`."""
    return name[1:-1] if name.startswith("_") and name.endswith(":") else name


SPEC = LanguageSpec(
    "rst",
    (".rst", ".rest"),
    "tree_sitter_language_pack.bindings.rst:language",
    title="reStructuredText",
    comment="..",
    aliases=("restructuredtext", "rest"),
    names="simple_brief.languages.rst:target_name",
    flat_headings=True,
    docs=DocRules(indexed=False),
)
