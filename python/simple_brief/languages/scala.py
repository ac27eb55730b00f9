"""Scala 2 and 3: packages, classes, traits, objects, enums, givens, extensions and their
members; Scaladoc (`@throws` names the type first). The grammar is Scala 3's; it reads
Scala 2 too, and where it cannot (a symbol literal, a soft modifier used as a name) its
recovery keeps the definitions around."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "scala",
    (".scala", ".sc"),
    "tree_sitter_scala:language",
    comment="//",
    docs=DocRules(
        module_id="package_statement",
        imports=r"(?m)^\s*import\s+([\w.]+)",
        import_target="parent",
        typed_throws=True,
    ),
)
