"""The plan line of a multi-step decision ("so far: army Vienna→Budapest; ...") fitted to
the lines the decision panel gives it: the newest step is what the player just did, so it is
always read whole."""

from __future__ import annotations

from textual.content import Content


def fitted_plan(head: str, steps: list[str], width: int, lines: int, more: str = "\u2026") -> str:
    """The plan line within ``lines`` lines of ``width`` cells, as the panel wraps it: the
    newest step always whole; the one before it shortened ('...') or left out when both do
    not fit, and the count then says how many there were ('3 so far, last: ...')."""

    def fits(text: str) -> bool:
        return len(Content(text).wrap(width)) <= lines

    newest = steps[-1]
    if len(steps) > 1:
        older = steps[-2]
        count = "so far: " if len(steps) == 2 else f"{len(steps)} so far, last: "
        words = older.split(" ")
        for kept in range(len(words), 0, -1):  # whole, then shortened word by word
            cut = " ".join(words[:kept]) + ("" if kept == len(words) else more)
            text = f"{head}{count}{cut}; {newest}"
            if fits(text):
                return text
    count = "so far: " if len(steps) == 1 else f"{len(steps)} so far, last: "
    return head + count + newest
