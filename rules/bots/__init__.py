"""Computer players, from a random mover to a searching opponent.

``make_bot(level, seed, hidden_cash=False)`` builds one by level name (``LEVELS`` says what
each level does in one line); ``Bot.decide(game)`` returns a ``Choice``: an action and a short
reason in plain words for the log. ``play_out`` lets bots play a game to its end.
docs/BOTS.md explains how each level thinks.

The bot classes are imported on first use, so that listing the levels (the command line's
help, the new-game screen) does not load the search.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.bots.base import Bot, Choice, SeededBot
from rules.bots.levels import BOT_LEVELS, LEVELS, Level, make_bot, play_out

if TYPE_CHECKING:
    from rules.bots.greedy import GreedyBot
    from rules.bots.random_bot import RandomBot
    from rules.bots.search import SearchBot

__all__ = [
    "BOT_LEVELS",
    "LEVELS",
    "Bot",
    "Choice",
    "GreedyBot",
    "Level",
    "RandomBot",
    "SearchBot",
    "SeededBot",
    "make_bot",
    "play_out",
]

_LAZY = {
    "GreedyBot": "rules.bots.greedy",
    "RandomBot": "rules.bots.random_bot",
    "SearchBot": "rules.bots.search",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'rules.bots' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
