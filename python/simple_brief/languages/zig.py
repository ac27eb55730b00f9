"""Zig: `///` doc comments, a file's `//!` lines are its module doc.

`.zon` files (Neovim's filetype `zig` too) are not claimed: a ZON file is one bare
expression (`.{ ... }`), which the grammar reads as a syntax error.
"""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "zig",
    (".zig",),
    "tree_sitter_zig:language",
    comment="//",
    docs=DocRules(module_doc="inner_lines"),
)
