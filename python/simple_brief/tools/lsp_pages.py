"""A page of the lsp tools' items (references, callers, callees) within the token budget: as
many items as fit, and a first line saying how many of the page were left out and the call
that gets the next ones (`offset=` where the shown ones end, `limit=` as many as fit), after
the line of a server still loading the workspace when there is one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from simple_brief.render import lsp as view
from simple_brief.render.budget import approx_tokens
from simple_brief.tools import Call, hints


@dataclass(frozen=True)
class Paged:
    """A page of `count` items (`noun`s) from `offset` of `total`, and how to ask for more:
    `tool_name` with the parameters `again` plus offset= and limit=."""

    noun: str
    tool_name: str
    again: dict[str, Any]
    offset: int
    count: int
    total: int

    def next_call(self, shown: int) -> str:
        return hints.command(self.tool_name, **self.again, offset=self.offset + shown, limit=shown)


def within_page(
    call: Call, answer: Callable[[int], list[str]], paged: Paged, lead: str | None
) -> tuple[list[str], int]:
    """The answer with the page's items (`answer(n)` renders the first n), opened by `lead`;
    over the budget, with as many as fit, its first line then saying how many of the page were
    left out and the call that gets the next ones. Returns the blocks and how many items they show."""
    count = paged.count
    blocks = answer(count)
    if approx_tokens("\n\n".join([lead or "", *blocks])) <= call.budget or not count:
        return view.fit(blocks, call.budget, "", lead)[0], count

    def noted(n: int) -> list[str]:
        what = f"{view.plural(count - n, 'more ' + paged.noun)} of this page"
        note = view.cut_note(what, call.budget, f"the next ones: {paged.next_call(n)}")
        shown = answer(n)
        return [view.opening(lead, note, shown[0]), *shown[1:]]

    low, high = 0, count - 1  # the most items that fit, by bisection (the text grows with n)
    while low < high:
        mid = (low + high + 1) // 2
        if approx_tokens("\n\n".join(noted(mid))) <= call.budget:
            low = mid
        else:
            high = mid - 1
    if low:
        return noted(low), low
    # Not even one item fits beside the note: one, cut at a line; or, when it fits only
    # without the note, with the note (it says the page was cut, which matters more).
    also = f"also {view.plural(count - 1, 'more ' + paged.noun)} of this page; " if count > 1 else ""
    also += f"the next ones: {paged.next_call(1)}" if paged.offset + 1 < paged.total else "the data holds it whole"
    cut, left = view.fit(answer(1), call.budget, also, lead)
    return (cut if left else noted(1)), 1
