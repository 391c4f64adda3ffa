"""Computer players, from a random mover to a searching opponent.

``make_bot(level, seed, hidden_cash=False)`` builds one by level name (``LEVELS`` says what
each level does in one line); ``Bot.decide(game)`` returns a ``Choice``: an action and a short
reason in plain words for the log. ``play_out`` lets bots play a game to its end.
docs/BOTS.md explains how each level thinks.
"""

from rules.bots.base import Bot, Choice, SeededBot
from rules.bots.greedy import GreedyBot
from rules.bots.levels import BOT_LEVELS, LEVELS, Level, make_bot, play_out
from rules.bots.random_bot import RandomBot

__all__ = [
    "BOT_LEVELS",
    "LEVELS",
    "Bot",
    "Choice",
    "GreedyBot",
    "Level",
    "RandomBot",
    "SeededBot",
    "make_bot",
    "play_out",
]
