"""Rust: `crate::mod::Type::method` ids, a bare `pub` is public, rustdoc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "rust",
    (".rs",),
    "tree_sitter_rust:language",
    comment="//",
    checks=("rustfmt",),
    aliases=("rs",),
    docs=DocRules(
        separator="::",
        items="pub",
        kind_words=(("interface", "trait"),),
        macro_prefix="macro_rules!",
        module_id="crate",
        module_doc="inner_lines",
        imports=r"(?m)^\s*(?:pub\s+)?use\s+([\w:]+)",
        import_target="parent",
        rustdoc_fences=True,
    ),
)
