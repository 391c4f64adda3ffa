"""The levels a player can choose, by name, each with a one-line description for the app and
the command line; ``make_bot`` builds one from its name and seed (nothing else: the SSH server
and saves rebuild bots from ``bot:<level>`` alone)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.bots.base import Bot
from rules.bots.evaluation import Weights
from rules.bots.greedy import GreedyBot
from rules.bots.random_bot import RandomBot
from rules.bots.search import SearchBot, SearchSettings
from rules.game import Game

LEARNED = Weights(learned=1)
NORMAL = SearchSettings(budget=0.25, playouts=100, horizon=4, candidates=5, plans=3)
STRONG = SearchSettings(budget=1.0, playouts=400, horizon=6, candidates=8, plans=6)


@dataclass(frozen=True, slots=True)
class Level:
    """A bot level: its name (``bot:<name>`` in saves), one line for menus, and its maker."""

    name: str
    description: str
    make: Callable[[int | None, bool], Bot]


def _old_greedy(seed: int | None, hidden: bool) -> Bot:
    from rules.bots._old import GreedyBot as OldGreedy

    return OldGreedy(seed)


_ALL = (
    Level("random", "moves at random (for testing)", lambda seed, hidden: RandomBot(seed, hidden)),
    Level(
        "greedy",
        "quick: looks one nation turn ahead",
        lambda seed, hidden: GreedyBot(seed, hidden),
    ),
    Level(
        "normal",
        "searches a quarter of a second a move",
        lambda seed, hidden: SearchBot(seed, hidden, NORMAL),
    ),
    Level(
        "strong",
        "searches up to a second a move",
        lambda seed, hidden: SearchBot(seed, hidden, STRONG),
    ),
)
LEVELS: dict[str, Level] = {level.name: level for level in _ALL}
HIDDEN_LEVELS: dict[str, Level] = {
    "greedy-old": Level("greedy-old", "before #11", _old_greedy),
    "greedy-l": Level(
        "greedy-l", "learned eval", lambda seed, hidden: GreedyBot(seed, hidden, LEARNED)
    ),
    "greedy-l2": Level(
        "greedy-l2",
        "learned eval 2",
        lambda seed, hidden: GreedyBot(seed, hidden, Weights(learned=2)),
    ),
    "search-end": Level(
        "search-end",
        "rollouts to the end",
        lambda seed, hidden: SearchBot(
            seed, hidden, SearchSettings(budget=3.0, playouts=120, horizon=1000, plans=4)
        ),
    ),
    "search-l3": Level(
        "search-l3",
        "learned eval 3",
        lambda seed, hidden: SearchBot(seed, hidden, STRONG, Weights(learned=3)),
    ),
    "search-g": Level(
        "search-g",
        "greedy rollouts",
        lambda seed, hidden: SearchBot(seed, hidden, SearchSettings(rollout="greedy")),
    ),
    "search-l1": Level(
        "search-l1",
        "learned eval 1",
        lambda seed, hidden: SearchBot(seed, hidden, STRONG, Weights(learned=1)),
    ),
    "greedy-l3": Level(
        "greedy-l3",
        "learned eval 3",
        lambda seed, hidden: GreedyBot(seed, hidden, Weights(learned=3)),
    ),
}
BOT_LEVELS: tuple[str, ...] = tuple(LEVELS)


def make_bot(level: str, seed: int | None = None, hidden_cash: bool = False) -> Bot:
    """A bot by level name. With ``hidden_cash`` it does not read other players' cash from the
    position (it keeps the tally of public payments instead)."""
    found = LEVELS.get(level) or HIDDEN_LEVELS.get(level)
    if found is None:
        raise ValueError(f"unknown bot level {level!r}; choose {', '.join(BOT_LEVELS)}")
    return found.make(seed, hidden_cash)


def play_out(game: Game, bots: dict[str, Bot], max_actions: int = 20000) -> int:
    """Let bots (by player name) play until the game ends; returns the number of actions."""
    done = 0
    while game.awaiting is not None and done < max_actions:
        bot = bots[game.awaiting.player]
        game.apply(bot.choose(game))
        done += 1
    return done
