"""Zig: `///` doc comments, a file's `//!` lines are its module doc.

`.zon` files (Neovim's filetype `zig` too) are not claimed: a ZON file is one bare
expression (`.{ ... }`), which the grammar reads as a syntax error. Syntax newer than
the grammar (Zig 0.15's asm clobber structs, `async` as a name) is read through
`_zig_syntax.modernise`.
"""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "zig",
    (".zig",),
    "tree_sitter_zig:language",
    comment="//",
    docs=DocRules(module_doc="inner_lines"),
    repair="simple_brief.languages._zig_syntax:modernise",
)
