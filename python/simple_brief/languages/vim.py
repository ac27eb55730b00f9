"""Vim script (`.vim`, vimrc): functions, user commands and augroups; outlined, not documented
(the docs index reads Lua, not Vim script). vim9script's `def` is unknown to the grammar
(tree-sitter-vim, in the offline bundle): it is listed as a one-line function."""

from simple_brief.languages.spec import DocRules, LanguageSpec


def def_name(name: str) -> str:
    """A vim9script `def`'s name: its first argument up to `(` (`Vim9Func(x:` is `Vim9Func`)."""
    return name.split("(", 1)[0]


SPEC = LanguageSpec(
    "vim",
    (".vim",),
    "tree_sitter_language_pack.bindings.vim:language",
    title="Vim script",
    comment='"',
    file_names=(".vimrc", "_vimrc", "vimrc", ".gvimrc", "_gvimrc", "gvimrc", ".exrc", "_exrc"),
    aliases=("vimscript", "viml"),
    names="simple_brief.languages.vim:def_name",
    docs=DocRules(indexed=False),
)
