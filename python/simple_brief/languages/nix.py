"""Nix: attribute-set bindings nested by containment, functions, file-level `let`
bindings; `import ./x.nix` and a module's `imports = [ ... ]` are imports."""

from simple_brief.languages.spec import LanguageSpec

SPEC = LanguageSpec(
    "nix",
    (".nix",),
    "tree_sitter_nix:language",
    comment="#",
    block_comment=("/*", "*/"),
)
