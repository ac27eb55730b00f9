"""File names as text that every encoder takes, and back (names are data).

A name on disk is bytes. Python reads one that is not UTF-8 with `surrogateescape`: each
undecodable byte becomes a lone surrogate (U+DC80-U+DCFF), which no UTF-8 encoder, JSON
writer or SQLite accepts; a name may also hold a newline, a tab, an ESC or a bidi
override, which would break a line of output or rewrite a terminal. `escape_path`
shows such a name as `ls -b` would: each character that is not printable as the
`\\xNN` escapes of its bytes (`\\n`, `\\t`, `\\r` for those three), a backslash as
`\\\\`, and everything else (`é`, CJK) as it is. `unescape_path` reads that form back to
the name on disk, so an agent can pass a name as it was shown.

`escape_surrogates` is the last line of defence for text that is not a name (a file's
content, an error message): it escapes only the lone surrogates, which never belong in
text, so an answer can always be encoded.
"""

from __future__ import annotations

import re
from typing import Any

_NAMED = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
_UNNAMED = {value: key for key, value in _NAMED.items()}
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|[\\ntr])")
_SURROGATES = re.compile("[\ud800-\udfff]")


def escape_path(text: str) -> str:
    """`text` (a path or a name) with every character that is not printable written as
    escapes of its bytes, and `\\` as `\\\\`; printable text (any script) unchanged."""
    if text.isprintable() and "\\" not in text:
        return text
    return "".join(_escaped_char(char) for char in text)


def _escaped_char(char: str) -> str:
    named = _NAMED.get(char)
    if named is not None:
        return named
    if char.isprintable():
        return char
    try:
        raw = char.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate no file name holds (one sent as `\ud800` in JSON)
        raw = char.encode("utf-8", "surrogatepass")
    return "".join(f"\\x{byte:02x}" for byte in raw)


def unescape_path(text: str) -> str:
    """The name `escape_path` showed as `text` (escapes read as the bytes they stand
    for, decoded as Python decodes names on disk); `text` itself when it holds none."""
    if "\\" not in text:
        return text
    raw = bytearray()
    at = 0
    try:
        for found in _ESCAPE.finditer(text):
            raw += text[at : found.start()].encode("utf-8", "surrogateescape")
            code = found.group(1)
            raw += _UNNAMED[f"\\{code}"].encode() if code[0] != "x" else bytes([int(code[1:], 16)])
            at = found.end()
        raw += text[at:].encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text
    return raw.decode("utf-8", "surrogateescape")


def escape_surrogates(text: str) -> str:
    """`text` with each lone surrogate written as the `\\xNN` escapes of its bytes (as
    `escape_path` would); the rest, control characters included, unchanged."""
    if text.isascii():
        return text
    return _SURROGATES.sub(lambda found: escape_path(found.group()), text)


def escape_surrogates_in(value: Any) -> Any:
    """A JSON-shaped value (dicts, lists, strings) with `escape_surrogates` applied to
    every string in it, keys included."""
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, dict):
        return {escape_surrogates_in(key): escape_surrogates_in(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [escape_surrogates_in(item) for item in value]
    return value
