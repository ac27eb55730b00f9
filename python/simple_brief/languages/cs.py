"""C#: namespaces, types and their members; `///` XML doc comments (read as plain text)."""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "cs",
    (".cs", ".csx"),
    "tree_sitter_c_sharp:language",
    title="C#",
    comment="//",
    aliases=("csharp", "c#"),
)
