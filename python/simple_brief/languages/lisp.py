"""Common Lisp (Neovim's `lisp` filetype): functions, macros, generic functions and
methods, classes, structures, conditions, variables and constants, packages."""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "lisp",
    (".lisp", ".lsp", ".cl", ".asd"),
    "tree_sitter_language_pack.bindings.commonlisp:language",
    title="Common Lisp",
    comment=";",
    block_comment=("#|", "|#"),
    aliases=("commonlisp", "common-lisp"),
    file_names=(".sbclrc",),
)
