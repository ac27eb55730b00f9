"""zsh inside bash scripts: the branch a script takes only under zsh.

Completion scripts and rc files often carry a zsh branch (`if [[ -n ${ZSH_VERSION-} ]]`)
whose parameter expansions start with flags, `${(M)${(k)parameters[@]}:#pat}`: bash
never runs that line and `bash -n` accepts it, but the bash grammar reads it as a syntax
error. `zsh_flags_as_names` rewrites each such expansion as a plain `${_____}` of the same
length, so the re-parsed tree's ranges stay the real text's.
"""

from __future__ import annotations

_OPEN = b"${("


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
