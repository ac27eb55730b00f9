"""C: `dir/file.name` ids, file-level `static` is private, Doxygen."""

from simple_brief.languages._c_macros import mask_macros
from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "c",
    (".c", ".h"),
    "tree_sitter_c:language",
    comment="//",
    checks=("clang-syntax", "gcc-syntax"),
    docs=DocRules(items="static", doxygen=True, typed_throws=True),
)

#: Unexpanded macros (`__BEGIN_DECLS`, `PyAPI_FUNC(int)`, `OF((args))`) are masked by languages/_c_macros.py.
__all__ = ["SPEC", "mask_macros"]
