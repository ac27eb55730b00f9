"""Fortran (free form): programs, modules and submodules, functions and subroutines
(also module procedures and internal ones), derived types with their components and
bound procedures, interfaces, enums; `!` comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "fortran",
    (".f90", ".f95", ".f03", ".f08"),
    "tree_sitter_language_pack.bindings.fortran:language",
    comment="!",
    docs=DocRules(imports=r"(?mi)^\s*use\s*(?:,\s*\w+\s*)?(?:::)?\s*(\w+)"),
)
