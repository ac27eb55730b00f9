"""Shell scripts (the bash grammar): functions; `source` and `.` are imports; `#` comments above are docs."""

from simple_brief.languages.spec import DocRules, LanguageSpec

SPEC = LanguageSpec(
    "sh",
    (".sh", ".bash", ".ebuild", ".eclass"),
    "tree_sitter_bash:language",
    comment="#",
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
)
