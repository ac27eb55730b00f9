"""Shell scripts (the bash grammar): functions; `source` and `.` are imports; `#` comments above are docs.

A zsh branch's flagged expansions (`${(M)…}`, never run by bash) are read through
`_sh_syntax.zsh_flags_as_names`.
"""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "sh",
    (".sh", ".bash", ".ebuild", ".eclass"),
    "tree_sitter_bash:language",
    title="Bash",
    comment="#",
    checks=("bash-n",),
    filetypes=("bash",),
    aliases=("shell", "shellscript"),
    file_names=(
        ".bashrc",
        "bashrc",
        "bash.bashrc",
        ".bash_profile",
        ".bash_login",
        ".bash_logout",
        ".bash_aliases",
        ".profile",
        "PKGBUILD",
        "APKBUILD",
    ),
    docs=DocRules(imports=r"""(?m)^\s*(?:source|\.)\s+['"]?([^'"\s;]+)"""),
    repair="simple_brief.languages._sh_syntax:zsh_flags_as_names",
    guard="simple_brief.languages._sh_syntax:astral_as_letters",
)
