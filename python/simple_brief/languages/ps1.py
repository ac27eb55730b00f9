"""PowerShell (Neovim's filetype `ps1`: scripts, modules and data files): functions and
filters, classes with their properties and methods, enums."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "ps1",
    (".ps1", ".psm1", ".psd1", ".pssc"),
    "tree_sitter_language_pack.bindings.powershell:language",
    title="PowerShell",
    comment="#",
    block_comment=("<#", "#>"),
    aliases=("powershell", "pwsh"),
    docs=DocRules(),
)
