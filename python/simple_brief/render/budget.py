"""Token budgets: every result stays under one, degrading rather than cutting silently.

Counting is an estimate, cheap enough to run on every answer: characters / 2.8, which
`make bench` measured against o200k_base as about right for outlines and tables and
high (so: safe) for plain source.
"""

from __future__ import annotations

import math

#: Characters per token of outlines and tables under o200k_base (bench/: source runs ~4).
CHARS_PER_TOKEN = 2.8


#: Characters per token of the symbol table (`document_symbols`): its rows are numbers, pipes and
#: names cut into many tokens — o200k measured 1.74 (Rust's simd128.rs) to 2.35 without
#: HOVER_INFO, 2.4 to 3.2 with it, on real files (bench/README.md).
TABLE_CHARS_PER_TOKEN = 1.7


def approx_tokens(text: str, chars_per_token: float = CHARS_PER_TOKEN) -> int:
    """Estimated tokens of `text` (`TABLE_CHARS_PER_TOKEN` for the symbol table)."""
    return math.ceil(len(text) / chars_per_token)


#: Characters between two blocks of an answer (`ToolResult.text` joins them with a blank line).
BLOCK_SEPARATOR_CHARS = 2
#: Tokens kept for the note that says what a cut left out.
CUT_NOTE_TOKENS = 120


def fit_blocks(blocks: list[str], budget: int, hint: str) -> tuple[list[str], int, int]:
    """Whole blocks while they and the note fit `budget`; a first block too big alone is cut
    at a line. The note goes first: `[N more blocks left out to stay within the B-token
    budget; HINT.]`. Returns the blocks, how many blocks and how many lines of a cut block
    were left out (0, 0 when everything fits)."""
    costs = [len(b) + BLOCK_SEPARATOR_CHARS for b in blocks]
    if math.ceil((sum(costs) - BLOCK_SEPARATOR_CHARS) / CHARS_PER_TOKEN) <= budget:
        return blocks, 0, 0
    room = (budget - CUT_NOTE_TOKENS) * CHARS_PER_TOKEN
    kept: list[str] = []
    used = 0.0
    for block, cost in zip(blocks, costs, strict=True):
        if used + cost > room:
            break
        kept.append(block)
        used += cost
    lines_left = 0
    if not kept and blocks:
        lines = blocks[0].split("\n")
        shown = 0
        for line in lines:
            if shown and used + len(line) + 1 > room:
                break
            used += len(line) + 1
            shown += 1
        kept.append("\n".join(lines[:shown]))
        lines_left = len(lines) - shown
    blocks_left = len(blocks) - len(kept)
    parts = [f"{blocks_left:,} more block{'s' if blocks_left != 1 else ''}"] if blocks_left else []
    parts += (
        [f"the last {lines_left:,} lines of {'the first block' if blocks_left else 'the answer'}"] if lines_left else []
    )
    note = f"[{' and '.join(parts)} left out to stay within the {budget:,}-token budget{'; ' + hint if hint else ''}.]"
    return [note, *kept], blocks_left, lines_left
