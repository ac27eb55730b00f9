"""The command's own stdout and stderr (standard library only: the script's fast path imports it)."""

from __future__ import annotations

import contextlib
import sys


def escape_unencodable() -> None:
    """Have stdout and stderr write what they cannot encode (a lone surrogate: a file name
    or an argument that is not UTF-8) as a backslash escape instead of ending the command
    with a traceback; a stream that already copes (`surrogateescape` in the C locale) stays."""
    for stream in (sys.stdout, sys.stderr):
        if getattr(stream, "errors", None) == "strict":
            # (AttributeError: not a text stream of ours, the daemon's or a test's: it does not encode)
            with contextlib.suppress(AttributeError, ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
