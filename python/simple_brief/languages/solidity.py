"""Solidity: contracts, interfaces and libraries with their functions, modifiers,
events, errors, structs, enums and state variables; NatSpec (`///`, `/** */`) above a
definition is its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "solidity",
    (".sol",),
    "tree_sitter_language_pack.bindings.solidity:language",
    comment="//",
    block_comment=("/*", "*/"),
    aliases=("sol",),
    docs=DocRules(imports=r"""(?m)^\s*import\s+(?:[^'"]*\bfrom\s+)?['"]([^'"]+)"""),
)
