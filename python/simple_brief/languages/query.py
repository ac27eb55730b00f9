"""Tree-sitter queries (`queries/<lang>/*.scm` in Neovim, our own `languages/*.scm` are
Scheme-named too): each top-level pattern, named by its first node and captures; outlined,
not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "query",
    (),
    "tree_sitter_language_pack.bindings.query:language",
    title="Tree-sitter query",
    comment=";",
    aliases=("tsq",),
    file_names=("queries/*/*.scm",),
    docs=DocRules(indexed=False),
)
