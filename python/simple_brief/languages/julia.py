"""Julia: modules, functions (long and short form), macros, structs and types, constants.

Docstrings are strings standing above a definition (`\"\"\"...\"\"\"`): `docstrings` makes
them fold; the scanner does not yet take them as the definition's doc.
"""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "julia",
    (".jl",),
    "tree_sitter_julia:language",
    comment="#",
    block_comment=("#=", "=#"),
    aliases=("jl",),
    docs=DocRules(docstrings=True),
)
