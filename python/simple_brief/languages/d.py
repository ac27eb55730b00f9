"""D: the module, functions, classes, structs, unions, interfaces, enums, templates and
their members; `///` and `/** */` comments above a definition are its doc (Ddoc)."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "d",
    (".d", ".di"),
    "tree_sitter_language_pack.bindings.d:language",
    comment="//",
    block_comment=("/*", "*/"),
    docs=DocRules(imports=r"(?m)^\s*(?:public\s+|static\s+)*import\s+([\w.]+)"),
)
