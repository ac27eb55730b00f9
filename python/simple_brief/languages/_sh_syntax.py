"""Same-length rewrites for the bash grammar: zsh's branch in bash scripts, and the
characters the grammar crashes on.

**zsh inside bash scripts**: the branch a script takes only under zsh.

Completion scripts and rc files often carry a zsh branch (`if [[ -n ${ZSH_VERSION-} ]]`)
whose parameter expansions start with flags, `${(M)${(k)parameters[@]}:#pat}`: bash
never runs that line and `bash -n` accepts it, but the bash grammar reads it as a syntax
error. `zsh_flags_as_names` rewrites each such expansion as a plain `${_____}` of the same
length, so the re-parsed tree's ranges stay the real text's.

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

_OPEN = b"${("
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


def zsh_flags_as_names(data: bytes) -> bytes:
    """`data` with every `${(flags)…}` expansion (braces nested) written as `${___…}`."""
    out = bytearray(data)
    start = data.find(_OPEN)
    while start != -1:
        depth, i = 0, start + 1
        while i < len(data):
            if data[i] == ord("{"):
                depth += 1
            elif data[i] == ord("}"):
                depth -= 1
                if depth == 0:
                    break
            elif data[i] == ord("\n"):
                break  # not closed on its line: leave it to the grammar
            i += 1
        if i < len(data) and data[i] == ord("}"):
            out[start + 2 : i] = b"_" * (i - start - 2)
            start = data.find(_OPEN, i)
        else:
            start = data.find(_OPEN, start + len(_OPEN))
    return bytes(out)
