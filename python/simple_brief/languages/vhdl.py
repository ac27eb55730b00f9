"""VHDL: entities, architectures, packages, components, processes, functions and
procedures, types, constants and signals; `--` comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "vhdl",
    (".vhd", ".vhdl", ".vho"),
    "tree_sitter_language_pack.bindings.vhdl:language",
    title="VHDL",
    comment="--",
    block_comment=("/*", "*/"),
    docs=DocRules(imports=r"(?mi)^\s*use\s+([\w.]+)"),
    names="simple_brief.languages.vhdl:operator_unquoted",
)


def operator_unquoted(name: str) -> str:
    """An operator function's name without its quotes (`"+"` is `+`)."""
    return name[1:-1] if len(name) > 2 and name[0] == name[-1] == '"' else name
