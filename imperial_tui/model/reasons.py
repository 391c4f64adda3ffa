"""Computer players' reasons ("buys GE 9: takes the government"), kept with the save.

A bot's ``decide()`` returns a reason with its action; the log shows it under the action's
events. Reasons are not part of the game (the rules never read them), so they live in the
save's ``app`` settings: ``"reasons": {"57": {"action": "Ben buys GE 9", "reason": "..."}}``,
keyed by the action's number (1 = the first action). The notation is stored too: a reason is
shown only while action N is still that action (after an undo in the shell and a different
move, the old reason is simply not shown). No Textual import.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.savefile import printable

MAX_REASON = 200  # characters kept of one reason (a log line, not an essay)


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a computer player took action number N (``action`` is its notation)."""

    action: str
    text: str


def reason_for(reasons: Mapping[int, Reason], number: int, action: Any) -> str:
    """The reason recorded for action ``number`` if it is still ``action``; '' otherwise."""
    found = reasons.get(number)
    if found is None or found.action != str(action):
        return ""
    return found.text


def reasons_to_json(reasons: Mapping[int, Reason]) -> dict[str, dict[str, str]]:
    return {str(n): {"action": r.action, "reason": r.text} for n, r in sorted(reasons.items())}


def reasons_from(app: Mapping[str, Any], where: str) -> tuple[dict[int, Reason], list[str]]:
    """The reasons in a save's app settings; entries of the wrong shape are dropped with one
    warning (they are the app's notes, never worth refusing a game)."""
    raw = app.get("reasons", {})
    if not isinstance(raw, dict):
        return {}, [f"{where}: app setting reasons must be an object; ignored"]
    out: dict[int, Reason] = {}
    bad = 0
    for key, value in raw.items():
        ok = (
            isinstance(key, str)
            and key.isdigit()
            and isinstance(value, dict)
            and isinstance(value.get("action"), str)
            and isinstance(value.get("reason"), str)
        )
        if not ok:
            bad += 1
            continue
        out[int(key)] = Reason(value["action"], printable(value["reason"], MAX_REASON))
    warnings = []
    if bad:
        warnings.append(
            f"{where}: {bad} computer player reason{'s' if bad != 1 else ''} of the wrong "
            "shape ignored"
        )
    return out, warnings
