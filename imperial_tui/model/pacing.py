"""The pace of computer players: seconds between their moves, kept within sane bounds, and
when they pause for a key.

No Textual import: the session (the app's model) reads the pace from save files too.
"""

from __future__ import annotations

import math
from typing import Any

PACE_MAX = 5.0  # seconds between computer moves; more would look like a hang


def clamp_pace(value: Any, default: float | None = 0.6) -> float | None:
    """A pace (seconds between computer moves) from a save, the environment or a flag, kept
    between 0 and PACE_MAX: a save saying ``1e308`` or ``-1`` must not stall or confuse play,
    and a value that is not a number is the default."""
    if value is None or isinstance(value, bool):
        return default
    try:
        pace = float(value)
    except OverflowError:  # a whole number too big for a float
        pace = float("inf") if value > 0 else float("-inf")
    except (TypeError, ValueError):
        return default
    if math.isnan(pace):
        return default
    return min(PACE_MAX, max(0.0, pace))


# When the computer players wait for a key: never, after each computer nation's turn, or after
# each computer decision (the p key cycles them; saved with the game like the pace).
PAUSE_MODES = ("off", "turn", "decision")
PAUSE_WORDS = {
    "off": "computer players do not pause",
    "turn": "computer players pause after each nation turn",
    "decision": "computer players pause after each decision",
}


def next_pause(mode: str) -> str:
    """The next pause mode in the p key's cycle."""
    i = PAUSE_MODES.index(mode) if mode in PAUSE_MODES else -1
    return PAUSE_MODES[(i + 1) % len(PAUSE_MODES)]
