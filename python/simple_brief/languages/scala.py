"""Scala 2 and 3: packages, classes, traits, objects, enums, givens, extensions and their
members; Scaladoc (`@throws` names the type first). The grammar is Scala 3's: Scala 2's
symbol literals and soft modifiers used as names are read through `_scala_syntax.py`."""

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
    repair="simple_brief.languages._scala_syntax:repair",
)
