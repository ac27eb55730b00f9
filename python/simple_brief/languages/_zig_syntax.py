"""Zig written for a newer compiler than the grammar (tree-sitter-zig 1.1) knows.

Zig 0.15 turned `async`/`await` into plain names, writes asm clobbers as a struct
(`: .{ .memory = true }`), allows a trailing comma before an asm operand list's `:` and
an error set as a field's type.
The grammar reads each as a syntax error in code `zig ast-check` accepts. `modernise`
rewrites them into what the grammar knows, byte for byte the same length, so the
re-parsed tree's ranges are the real text's (the scanner keeps the text itself).
"""

from __future__ import annotations

import re

#: Words that were keywords and are names now.
_FORMER_KEYWORDS = re.compile(rb"\b(?:async|await)\b")
#: An asm clobber list written as a struct, up to the asm's closing parenthesis.
_CLOBBER_STRUCT = re.compile(rb"(?<=:)(\s*)(\.\{[^{}]*\})(?=\s*\))")
#: An error set as a field's type (`x: error{Closed},`, a tuple's `struct { error{A} }`), which the grammar only takes
#: in a few places: read as `anyerror` (the same kind of type).
_ERROR_SET_FIELD = re.compile(rb"(?<=[:{])(\s*)(error\{[^{}]*\})(?=\s*[,}=])")
#: A trailing comma before the next asm operand list's colon.
_COMMA_BEFORE_COLON = re.compile(rb",(?=\s*:)")


def modernise(data: bytes) -> bytes:
    """`data` with the newer constructs replaced by same-length older ones."""
    data = _FORMER_KEYWORDS.sub(lambda m: b"_" + m.group(0)[1:], data)
    data = _CLOBBER_STRUCT.sub(lambda m: m.group(1) + b'"' + b" " * (len(m.group(2)) - 2) + b'"', data)
    data = _ERROR_SET_FIELD.sub(_as_anyerror, data)
    return _COMMA_BEFORE_COLON.sub(b" ", data)


def _as_anyerror(m: re.Match[bytes]) -> bytes:
    written = m.group(2)
    return m.group(1) + (b"anyerror".ljust(len(written)) if len(written) >= len(b"anyerror") else written)
