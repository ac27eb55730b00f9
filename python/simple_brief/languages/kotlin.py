"""Kotlin: classes, objects, functions and properties; KDoc (`@throws` names the type first)."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "kotlin",
    (".kt", ".kts"),
    "tree_sitter_kotlin:language",
    comment="//",
    aliases=("kt",),
    docs=DocRules(
        module_id="package_statement",
        imports=r"(?m)^\s*import\s+([\w.]+)",
        import_target="parent",
        typed_throws=True,
    ),
)
