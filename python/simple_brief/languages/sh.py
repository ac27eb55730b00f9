"""Shell scripts (the bash grammar): functions; `source` and `.` are imports; `#` comments above are docs.

**4-byte UTF-8 characters** (emoji, CJK extensions): tree-sitter-bash 0.25.1's lexer can
read past its tables on them and crash the whole process (SIGSEGV on Linux; e.g. `{`
followed later by U+1F680; tree-sitter/tree-sitter-bash#337). `astral_as_letters`, the
unit's `guard`, writes each as four ASCII letters before every parse: a letter is a word
character wherever the original character was one, and different characters stay
different (a heredoc's delimiter still matches only itself). Names and text are read from
the real text, so nothing shown changes.
"""

from __future__ import annotations

import re

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
    guard="simple_brief.languages.sh:astral_as_letters",
)

#: A 4-byte UTF-8 sequence (the text is valid UTF-8: `Source` replaced anything else).
_ASTRAL = re.compile(rb"[\xf0-\xf7][\x80-\xbf]{3}")
_LETTERS = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def astral_as_letters(data: bytes) -> bytes:
    """`data` with every 4-byte UTF-8 character written as four ASCII letters (one
    spelling per code point)."""
    return _ASTRAL.sub(_spelled, data)


def _spelled(match: re.Match[bytes]) -> bytes:
    code = ord(match.group().decode("utf-8", "replace")[0])  # below 52**4: four letters tell them apart
    out = bytearray()
    for _ in range(4):
        code, digit = divmod(code, len(_LETTERS))
        out.append(_LETTERS[digit])
    return bytes(out)
