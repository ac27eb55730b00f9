"""Errors a user can cause: each carries one sentence saying what is wrong and what to do."""

from __future__ import annotations

#: Characters of a value an error message shows (escapes count) before cutting it.
EXCERPT_CHARS = 60


class UserError(Exception):
    """A problem with the user's input (bad path, unknown symbol, unsupported file).

    The message is shown as it is, without a traceback, so it must say what is wrong
    and what to do about it in one sentence.
    """


def excerpt(value: object, limit: int = EXCERPT_CHARS) -> str:
    """A value as an error message may repeat it: quoted and escaped like `repr` on one
    line, and past `limit` characters cut with `…` and its total length.

    `excerpt("x")` is `'x'`; a 1 MB string is its first characters, `…'` and
    `(1,048,576 characters)`. Other values are shown by their `repr`, cut the same way.
    """
    if not isinstance(value, str):
        text = repr(value)
        if len(text) <= limit and text.isprintable():
            return text
        return _cut(text, limit, quote="")
    return _cut(value, limit, quote="'")


def _cut(text: str, limit: int, quote: str) -> str:
    shown: list[str] = []
    used = 0
    for ch in text:
        piece = _escape(ch, quote)
        if used + len(piece) > limit:
            return f"{quote}{''.join(shown)}…{quote} ({len(text):,} characters)"
        shown.append(piece)
        used += len(piece)
    return f"{quote}{''.join(shown)}{quote}"


def _escape(ch: str, quote: str) -> str:
    if ch == "\\" and quote:
        return "\\\\"
    if quote and ch == quote:
        return "\\" + ch
    if ch.isprintable():
        return ch
    return repr(ch)[1:-1]
