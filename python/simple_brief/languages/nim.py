"""Nim: procs, funcs, methods, iterators, converters, templates and macros; object, enum
and other types with their fields; constants; `##` comments are the doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "nim",
    (".nim", ".nims", ".nimble"),
    "tree_sitter_language_pack.bindings.nim:language",
    comment="#",
    block_comment=("#[", "]#"),
    docs=DocRules(imports=r"(?m)^\s*(?:import|include|from)\s+([\w/.]+)"),
)
