"""Token budgets: every result stays under one, degrading rather than cutting silently.

Counting is an estimate (characters / 3.5, measured against o200k_base on source code
by `bench/`), cheap enough to run on every answer.
"""

from __future__ import annotations

import math

#: The default budget of one tool result, in tokens (SPEC: about 10,000).
DEFAULT_BUDGET_TOKENS = 10_000
#: Average characters per token of code and outlines under o200k_base (see bench/).
CHARS_PER_TOKEN = 3.5


def approx_tokens(text: str) -> int:
    """Estimated tokens of `text`."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def fits(blocks: list[str], budget: int) -> bool:
    """Whether content blocks together stay within `budget` tokens."""
    return sum(approx_tokens(b) for b in blocks) <= budget
