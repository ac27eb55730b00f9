"""Same-length rewrites of valid HTML the grammar (tree-sitter-html 0.23) misreads.

The html unit's `repair`, tried only on a parse with errors (the re-parse is kept when
it has fewer). Each is valid HTML by the WHATWG parser (parse5 reports no parse error
for it), read by the grammar as an ERROR:

- A `>` in text (`<code>() => x</code>`, `<pre>> .save file</pre>`): the grammar's
  text stops at `>`. It becomes a space.
- `<?xml version="1.0"?>` (XHTML's prolog; the HTML parser reads a bogus comment): blanked.
- `<html>`, `<head>` and `<body>` start tags whose end tag never comes (both are
  optional): the grammar closes no element at the end of the file. Such a start tag is
  blanked; the HTML parser builds the same tree without it.

Tags are read as HTML tokenizes them (quoted attribute values may hold `>`; a `<`
outside quotes ends what is read as a tag, which keeps the scan linear), comments
and doctypes are skipped, and `<script>`/`<style>` text is left as it is (raw text, the
grammar reads it whole). Names keep the file's text: the outline reads names from the
file, the rewrite only from where the grammar parses.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    rb"""(?P<comment><!--.*?(?:-->|\Z))
    | (?P<decl><![^>]*(?:>|\Z))
    | (?P<pi><\?[^>]*(?:>|\Z))
    | (?P<end></[A-Za-z][^<>]*+>)
    | (?P<start><(?P<name>[A-Za-z][^\s/<>]*+)
        (?:\s++|/|[^\s/<>"'=]++(?:\s*+=\s*+(?:"[^"]*+"|'[^']*+'|[^\s<>]*+))?+|=)*+>)
    | (?P<gt>>)""",
    re.VERBOSE | re.DOTALL,
)
#: Elements whose text the grammar reads raw, to their end tag.
_RAW = frozenset((b"script", b"style"))
#: Elements whose start and end tags are both optional.
_OPTIONAL = frozenset((b"html", b"head", b"body"))
_END_NAME = re.compile(rb"</([A-Za-z][^\s/>]*)")


def repair(data: bytes) -> bytes:
    """`data` with the valid HTML the grammar misreads rewritten (same length); see the
    module doc."""
    out = bytearray(data)
    starts: dict[bytes, list[tuple[int, int]]] = {}
    ended: set[bytes] = set()
    at = 0
    while True:
        found = _next(data, at)
        if found is None:
            break
        kind = found.lastgroup if found.lastgroup != "name" else "start"
        if kind == "gt":
            out[found.start()] = 0x20
        elif kind == "pi":
            out[found.start() : found.end()] = b" " * (found.end() - found.start())
        elif kind == "end":
            end = _END_NAME.match(found.group(0))
            if end is not None:
                ended.add(end.group(1).lower())
        elif kind == "start":
            name = found.group("name").lower()
            if name in _OPTIONAL:
                starts.setdefault(name, []).append((found.start(), found.end()))
            elif name in _RAW:
                close = re.compile(rb"</" + name + rb"[\s/>]", re.IGNORECASE).search(data, found.end())
                at = close.start() if close is not None else len(data)
                continue
        at = found.end()
    for name, spans in starts.items():
        if name not in ended:
            for first, last in spans:
                out[first:last] = b" " * (last - first)
    return bytes(out)


_ANGLE = re.compile(rb"[<>]")


def _next(data: bytes, at: int) -> re.Match[bytes] | None:
    """The next token from `at` that matters: a `<` that starts no tag is text."""
    while True:
        angle = _ANGLE.search(data, at)
        if angle is None:
            return None
        found = _TOKEN.match(data, angle.start())
        if found is not None:
            return found
        at = angle.start() + 1
