"""Scheme (Guile, R7RS, Chez, Chicken): `define` forms, records, syntax, modules and
libraries; `;` comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "scheme",
    (".scm", ".ss", ".sld"),
    "tree_sitter_language_pack.bindings.scheme:language",
    comment=";",
    block_comment=("#|", "|#"),
    docs=DocRules(imports=r"(?m)^\s*\((?:use-modules|import|require)\s+\(?([^()\s]+(?:\s+[^()\s]+)*)"),
)
