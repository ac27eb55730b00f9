"""Go: `pkg.Type.Method` ids, a capital letter is public, the package comment, indented code."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "go",
    (".go",),
    "tree_sitter_go:language",
    comment="//",
    checks=("gofmt",),
    aliases=("golang",),
    docs=DocRules(
        items="capitalised",
        module_id="package_clause",
        module_item="documented",
        module_doc="package_comment",
        imports=r'"([\w./\-]+)"',
        import_target="last_path_part",
        indented_code=True,
    ),
)
