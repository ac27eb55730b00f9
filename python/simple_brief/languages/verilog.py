"""Verilog and SystemVerilog (Neovim's `verilog` and `systemverilog` filetypes): modules,
interfaces, packages, classes, functions, tasks, instances, named blocks, parameters
and `define`s; `//` comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "verilog",
    (".v", ".sv", ".svh"),
    "tree_sitter_language_pack.bindings.verilog:language",
    comment="//",
    block_comment=("/*", "*/"),
    filetypes=("systemverilog",),
    docs=DocRules(imports=r"""(?m)^\s*`include\s+"([^"]+)"""),
)
