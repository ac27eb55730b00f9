"""SQL: CREATE statements (tables with their columns, views, functions, procedures,
triggers, types, indexes, schemas); other statements are not definitions."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "sql",
    (".sql", ".mysql"),
    "tree_sitter_sql:language",
    title="SQL",
    comment="--",
    block_comment=("/*", "*/"),
    filetypes=("mysql",),
    docs=DocRules(indexed=False),
)
