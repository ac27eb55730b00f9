"""Same-length rewrites of Scala 2 the grammar (tree-sitter-scala, written for Scala 3)
misreads; the scala unit's `repair`, tried only on a parse with errors.

- Symbol literals (`'sym`, `'***`, `'ξφδ`; Scala 2, dropped by Scala 3): the quote
  reads as a `_`, so `'sym` is the name `_sym`, an expression where the symbol was. A
  character literal (`'x'`, `'\\n'`) stays.
- A soft modifier used as a name (`inline xval`, `open x`: a postfix call in Scala 2,
  and any name may be `inline` there): the grammar takes `inline` for the modifier and
  stops at the name after it. Followed by a name that no modifier or definition
  keyword is, it reads with a capital (`Inline xval`), which no keyword has.

Names and positions come from the real text; only the parse reads the rewrite.
"""

from __future__ import annotations

import re

#: A quote starting a symbol literal: before a letter, `_`, `$` or an operator character
#: (not a backslash: `'\n'`), unless one character and a quote follow (`'x'`, `'ξ'`).
_SYMBOL = re.compile(
    rb"(?<![\w'])'(?!(?:[\x00-\x7f]|[\xc0-\xff][\x80-\xbf]+)')(?=[A-Za-z_$\x80-\xff!#%&*+\-/:<=>?@^|~])"
)
#: A soft modifier followed on its line by a name.
_SOFT = re.compile(rb"(?<![\w$.])(inline|open|opaque|transparent|infix)[ \t]+([A-Za-z_$][\w$]*)")
#: What may follow a modifier: other modifiers and the definition keywords.
_DEFINING = frozenset(
    b"abstract case class def enum erased extension final given implicit infix inline lazy object opaque "
    b"open override private protected sealed trait transparent type val var".split()
)


def repair(data: bytes) -> bytes:
    """`data` with symbol literals and soft modifiers used as names rewritten for the
    grammar (same length)."""
    if b"'" in data:
        data = _SYMBOL.sub(b"_", data)
    return _SOFT.sub(_capital, data)


def _capital(m: re.Match[bytes]) -> bytes:
    word, name = m.group(1), m.group(2)
    if name in _DEFINING:
        return m.group(0)
    return word[:1].upper() + m.group(0)[1:]
