"""JavaScript (and JSX): `dir/file.name` ids, `export`ed names public, JSDoc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

#: JavaScript's docs rules; TypeScript and TSX read theirs the same way.
DOCS = DocRules(
    items="exports",
    module_id="index_path",
    imports=r"""(?:from\s+|require\s*\(\s*|import\s*\(?\s*)['"]([^'"]+)['"]""",
    import_target="relative_path",
    html=True,
)

SPEC = LanguageSpec(
    "javascript",
    (".js", ".mjs", ".cjs", ".jsx"),
    "tree_sitter_javascript:language",
    title="JavaScript",
    comment="//",
    checks=("node-check",),
    other_comments=("<!--", "-->"),
    filetypes=("javascriptreact",),
    aliases=("js", "jsx"),
    docs=DOCS,
    # Bundles nest a definition in a wrapper, a callback and a promise before its block
    # (vitest's chunks): past the default depth, with no definition on the way down.
    max_start_depth=32,
)
