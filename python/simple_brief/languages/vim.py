"""Vim script (`.vim`, vimrc): functions, user commands and augroups; outlined, not documented
(the docs index reads Lua, not Vim script). vim9script's `def` is unknown to the grammar
(tree-sitter-vim, in the offline bundle): it is listed as a one-line function."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "vim",
    (".vim",),
    "tree_sitter_language_pack.bindings.vim:language",
    comment='"',
    file_names=(".vimrc", "_vimrc", "vimrc", ".gvimrc", "_gvimrc", "gvimrc", ".exrc", "_exrc"),
    aliases=("vimscript", "viml"),
    docs=DocRules(indexed=False),
)
