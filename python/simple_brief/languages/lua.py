"""Lua: module ids from the path below `lua/` (`vim.lsp.buf`), the returned table's
members public, LuaCATS/LDoc doc comments."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "lua",
    (".lua",),
    "tree_sitter_lua:language",
    comment="--",
    checks=("nvim-lua",),
    docs=DocRules(
        items="module_table",
        kind_words=(("object", "table"),),
        module_id="lua_path",
        module_doc="dash_block",
        imports=r"""\brequire\s*\(?\s*['"]([\w.\-/]+)['"]""",
        luacats=True,
    ),
)
