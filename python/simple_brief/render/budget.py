"""Token budgets: every result stays under one, degrading rather than cutting silently.

Counting is an estimate, cheap enough to run on every answer: characters / 2.8, which
`make bench` measured against o200k_base as about right for outlines and tables and
high (so: safe) for plain source.
"""

from __future__ import annotations

import math

#: Characters per token of outlines and tables under o200k_base (bench/: source runs ~4).
CHARS_PER_TOKEN = 2.8


def approx_tokens(text: str) -> int:
    """Estimated tokens of `text`."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)
