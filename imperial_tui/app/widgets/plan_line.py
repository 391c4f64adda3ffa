"""The plan line of a multi-step decision ("so far: army Vienna→Budapest; ...") fitted to
the lines the decision panel gives it: the newest step is what the player just did, so it is
always read whole."""

from __future__ import annotations

from textual.content import Content


def fitted_plan(head: str, steps: list[str], width: int, lines: int, more: str = "\u2026") -> str:
    """The plan line within ``lines`` lines of ``width`` cells, as the panel wraps it: the
    newest step always whole; the one before it shortened ('...') to two words at least, or
    left out when those do not fit, and the count then says how many there were ('3 so far,
    last: ...')."""

    def fits(text: str) -> bool:
        return len(Content(text).wrap(width)) <= lines

    newest = steps[-1]
    if len(steps) > 1:
        older = steps[-2]
        count = "so far: " if len(steps) == 2 else f"{len(steps)} so far, last: "
        words = older.split(" ")
        # whole, then shortened word by word, down to two words: "army…" alone says nothing
        # (a playtest read "5 so far, last: army…; RU fights IN in Afghanistan")
        for kept in range(len(words), min(len(words), 2) - 1, -1):
            cut = " ".join(words[:kept]) + ("" if kept == len(words) else more)
            text = f"{head}{count}{cut}; {newest}"
            if fits(text):
                return text
    count = "so far: " if len(steps) == 1 else f"{len(steps)} so far, last: "
    return head + count + newest
