"""Meson build files: the project, build targets and tests named by their target name,
variables, and the `subdir()`s a file reads; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "meson",
    (),
    "tree_sitter_language_pack.bindings.meson:language",
    comment="#",
    file_names=("meson.build", "meson.options", "meson_options.txt"),
    docs=DocRules(indexed=False),
    names="simple_brief.languages.meson:unquoted",
)


def unquoted(name: str) -> str:
    """A target's name without the quotes of its string (`'shop-cli'` is `shop-cli`)."""
    for quote in ("'''", "'"):
        if len(name) >= 2 * len(quote) and name.startswith(quote) and name.endswith(quote):
            return name[len(quote) : -len(quote)]
    return name
