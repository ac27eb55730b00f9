"""Makefiles: rules (targets, the recipe folds), variables, `define` blocks; `include` is an import."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "make",
    (".mk", ".mak", ".make"),
    "tree_sitter_make:language",
    comment="#",
    file_names=("Makefile", "makefile", "GNUmakefile", "Kbuild", "Makefile.*", "makefile.*"),
    aliases=("makefile", "gnumake"),
    docs=DocRules(indexed=False),
)
