"""Same-length rewrites of valid CSS the grammar (tree-sitter-css 0.25) misreads.

The css unit's `repair`, tried only on a parse with errors (the re-parse is kept when it
has fewer). An unquoted `url(...)` (CSS's url token) whose address starts with `.`, `/`
or `#` (`url(./js-flavor-cjs.svg)`, `url(#blur)`) reads as an ERROR: the grammar knows
only the plain-value form. Its first and last characters become quotes, a string of the
same extent (`url("/js-flavor-cjs.sv")`). Comments and strings are left as they are.
Names keep the file's text: the outline reads them from the file.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    rb"""/\*.*?(?:\*/|\Z)
    | "(?:[^"\\\n]|\\.)*+"?
    | '(?:[^'\\\n]|\\.)*+'?
    | (?<![\w-])url\([ \t\r\n\f]*+(?P<address>[^"'()\s\\]{2,}+)[ \t\r\n\f]*+\)""",
    re.VERBOSE | re.DOTALL | re.IGNORECASE,
)


def repair(data: bytes) -> bytes:
    """`data` with each unquoted `url(...)` address read as a string (same length)."""
    if b"url(" not in data.lower():
        return data
    out = bytearray(data)
    for found in _TOKEN.finditer(data):
        if found.group("address") is not None:
            first, last = found.span("address")
            out[first] = out[last - 1] = ord('"')
    return bytes(out)
