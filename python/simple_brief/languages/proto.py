"""Protocol Buffers (`.proto`): messages, enums, services and their RPCs, fields."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "proto",
    (".proto",),
    "tree_sitter_language_pack.bindings.proto:language",
    title="Protocol Buffers",
    comment="//",
    aliases=("protobuf",),
    docs=DocRules(imports=r"""^\s*import\s+(?:public\s+|weak\s+)?["']([^"']+)["']"""),
)
