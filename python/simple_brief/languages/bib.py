"""BibTeX (Neovim's filetype `bib`): each entry by its citation key, and `@string`
abbreviations; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "bib",
    (".bib",),
    "tree_sitter_language_pack.bindings.bibtex:language",
    title="BibTeX",
    comment="%",
    aliases=("bibtex",),
    docs=DocRules(indexed=False),
)
