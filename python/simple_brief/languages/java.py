"""Java: `pkg.Class.method` ids, `public`/`protected` are public, Javadoc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "java",
    (".java",),
    "tree_sitter_java:language",
    comment="//",
    docs=DocRules(
        items="modifiers",
        module_id="package_statement",
        module_item="documented",
        package_file="package-info.java",
        module_doc="package_block",
        imports=r"(?m)^\s*import\s+(?:static\s+)?([\w.]+)",
        import_target="parent",
        html=True,
        typed_throws=True,
    ),
)
