"""Ada: packages (specs and bodies), subprograms, types, tasks, protected types and
entries; `--` comments above a definition are its doc."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "ada",
    (".adb", ".ads", ".ada", ".gpr"),
    "tree_sitter_language_pack.bindings.ada:language",
    comment="--",
    docs=DocRules(imports=r"(?mi)^\s*(?:limited\s+|private\s+)*with\s+([\w.]+)"),
)
