"""Apache Thrift IDL: services and their functions, structs, unions and exceptions with
their fields, enums with their values, typedefs and constants; comments above a
definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "thrift",
    (".thrift",),
    "tree_sitter_language_pack.bindings.thrift:language",
    comment="//",
    block_comment=("/*", "*/"),
    docs=DocRules(imports=r"""(?m)^\s*(?:include|cpp_include)\s+["']([^"']+)"""),
)
