"""INI files (Neovim's filetype `dosini`: `.ini`, `setup.cfg`, `tox.ini`, `.editorconfig`):
sections and their keys; outlined, not documented.

A comment after a section's `]` (`[comments] ; text`: PHP's and go-ini's readers take it)
is not in tree-sitter-ini, which wants the line to end there: it is left out of the parse
(`unparsed_lines`, the text unchanged), so the section reads whole."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "dosini",
    (".ini",),
    "tree_sitter_language_pack.bindings.ini:language",
    title="INI",
    comment=";",
    other_comments=("#",),  # both start a comment line in INI files
    filetypes=("editorconfig",),
    aliases=("ini",),
    file_names=("setup.cfg", ".editorconfig", ".pylintrc", ".flake8", ".coveragerc"),
    docs=DocRules(indexed=False),
    max_definitions=25_000,
    unparsed_lines=r"(?<=\])[ \t]+[;#][^\n]*$",
)
