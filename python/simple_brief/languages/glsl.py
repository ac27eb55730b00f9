"""GLSL shaders: functions, structs and interface blocks with their members, global
variables (uniforms, inputs, outputs) and `#define`s; outlined, not documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "glsl",
    (
        ".glsl",
        ".vert",
        ".frag",
        ".geom",
        ".comp",
        ".tesc",
        ".tese",
        ".rgen",
        ".rchit",
        ".rmiss",
    ),
    "tree_sitter_language_pack.bindings.glsl:language",
    title="GLSL",
    comment="//",
    block_comment=("/*", "*/"),
    docs=DocRules(indexed=False),
)
