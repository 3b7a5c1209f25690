"""The earlier cells a check reads as context, chosen the same way by every view and by check()
itself: the most recent cells within a budget of characters."""
from __future__ import annotations

from collections.abc import Sequence

from .options import CONTEXT_CHARS


def select_context(earlier: Sequence[str], start: int = 0,
                   budget: int = CONTEXT_CHARS) -> tuple[int, list[str]]:
    """The earlier cells a check reads as context, chosen the same way by every view: the most
    recent within about `budget` characters. The window's start stays put while it holds at most
    twice the budget (so the model's KV of the context is reused from one cell to the next), then
    moves to the most recent cells that fit the budget. Returns the start to pass for the next
    cell of the same notebook, and the cells."""
    start = min(start, len(earlier))
    if sum(len(c) for c in earlier[start:]) > 2 * budget:
        total, start = 0, len(earlier)
        while start > 0 and total + len(earlier[start - 1]) <= budget:
            start -= 1
            total += len(earlier[start])
    return start, list(earlier[start:])


__all__ = ["select_context"]
