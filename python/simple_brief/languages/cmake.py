"""CMake (`CMakeLists.txt`, `.cmake`): functions and macros it defines; outlined, not
documented."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "cmake",
    (".cmake",),
    "tree_sitter_language_pack.bindings.cmake:language",
    title="CMake",
    comment="#",
    file_names=("CMakeLists.txt", "*.cmake.in"),
    docs=DocRules(indexed=False),
)
