"""LaTeX and TeX (Neovim's filetype `tex`): parts, chapters, sections down to
subparagraphs, nested as the grammar nests them, and the commands and environments a file
defines (`\\newcommand`, `\\newenvironment`); outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "tex",
    (".tex", ".sty", ".cls", ".ltx", ".latex", ".dtx"),
    "tree_sitter_language_pack.bindings.latex:language",
    title="LaTeX",
    comment="%",
    filetypes=("plaintex",),
    aliases=("latex",),
    docs=DocRules(indexed=False),
)
