"""C: `dir/file.name` ids, file-level `static` is private, Doxygen."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "c",
    (".c", ".h"),
    "tree_sitter_c:language",
    comment="//",
    docs=DocRules(items="static", doxygen=True, typed_throws=True),
)
