"""The levels a player can choose, by name, each with a one-line description for the app and
the command line. ``make_bot`` builds a bot from its level name and seed alone (the SSH server
and saves rebuild bots from ``bot:<level>``); the bot modules are imported only then, so
listing the levels costs nothing at start-up.

Personalities are levels too: the same search with other weights (``Weights``) and other
tendencies (``Style``), never other code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from rules.bots.base import Bot
from rules.game import Game

if TYPE_CHECKING:
    from rules.bots.search import SearchSettings


@runtime_checkable
class Searching(Protocol):
    """A bot that searches (``rules.bots.search``, imported only when such a level is
    made): its settings say in how many processes."""

    settings: SearchSettings


@dataclass(frozen=True, slots=True)
class Level:
    """A bot level: its name (``bot:<name>`` in saves), one line for menus, and its maker."""

    name: str
    description: str
    make: Callable[[int | None, bool], Bot]


def _random(seed: int | None, hidden: bool) -> Bot:
    from rules.bots.random_bot import RandomBot

    return RandomBot(seed, hidden)


def _greedy(seed: int | None, hidden: bool) -> Bot:
    from rules.bots.greedy import GreedyBot

    return GreedyBot(seed, hidden)


def _search(settings: str, personality: str | None = None) -> Callable[[int | None, bool], Bot]:
    def make(seed: int | None, hidden: bool) -> Bot:
        from rules.bots import personalities
        from rules.bots.evaluation import DEFAULT
        from rules.bots.search import NORMAL, STRONG, STRONG_WEIGHTS, SearchBot

        chosen = {"normal": NORMAL, "strong": STRONG}[settings]
        if personality is None:
            weights = {"normal": DEFAULT, "strong": STRONG_WEIGHTS}[settings]
            return SearchBot(seed, hidden, chosen, weights)
        weights, style = personalities.PERSONALITIES[personality]
        return SearchBot(seed, hidden, chosen, weights, style)

    return make


_ALL = (
    Level("random", "moves at random (for testing)", _random),
    Level("greedy", "quick: looks one nation turn ahead", _greedy),
    Level("normal", "searches about a quarter of a second a move", _search("normal")),
    Level("strong", "searches about a third of a second a move", _search("strong")),
    Level(
        "warmonger",
        "normal strength; fights, occupies and destroys eagerly",
        _search("normal", "warmonger"),
    ),
    Level(
        "banker", "normal strength; a cautious investor who keeps cash", _search("normal", "banker")
    ),
)
LEVELS: dict[str, Level] = {level.name: level for level in _ALL}
BOT_LEVELS: tuple[str, ...] = tuple(LEVELS)


def make_bot(
    level: str, seed: int | None = None, hidden_cash: bool = False, processes: int | None = None
) -> Bot:
    """A bot by level name. With ``hidden_cash`` it does not read other players' cash from the
    position (it keeps the tally of public payments instead). ``processes``: how many processes
    a search level may play its playouts in (None: the level's own choice; a server running
    many games at once passes 1)."""
    found = LEVELS.get(level)
    if found is None:
        raise ValueError(f"unknown computer level {level!r}; choose {', '.join(BOT_LEVELS)}")
    bot = found.make(seed, hidden_cash)
    if processes is not None and isinstance(bot, Searching):
        bot.settings = replace(bot.settings, processes=processes)
    return bot


def play_out(game: Game, bots: dict[str, Bot], max_actions: int = 20000) -> int:
    """Let bots (by player name) play until the game ends; returns the number of actions."""
    done = 0
    while game.awaiting is not None and done < max_actions:
        bot = bots[game.awaiting.player]
        game.apply(bot.choose(game))
        done += 1
    return done
