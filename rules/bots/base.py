"""What every computer player shares: the ``Bot`` protocol, the ``Choice`` it returns (an
action and its reason in plain words), a seeded random generator, and the view of the game a
bot may use (with hidden cash, other players' cash is what the table could know, not what the
position holds).

Bots only read the public API (``awaiting``, ``legal_actions``, ``copy``/``apply`` for
look-ahead and ``state`` for figures); they never decide what is legal, so they keep working
when the engine learns new decisions. No user-interface imports here: the app runs bots in a
worker thread, the command line inline, the SSH server on the server. A bot is built from its
level name and seed alone and keeps no global state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rules.actions import Action
from rules.game import Game
from rules.view import PublicTally, view_of


@dataclass(frozen=True, slots=True)
class Choice:
    """A bot's decision with its reason: a short line in plain words that the app shows in
    the log ("buys GE 9: takes Germany's government from Anna"), empty when there is
    nothing to say."""

    action: Action
    reason: str = ""


class Bot(Protocol):
    """Anything that picks an action for the decision ``game.awaiting`` describes."""

    name: str

    def choose(self, game: Game) -> Action: ...

    def decide(self, game: Game) -> Choice: ...

    def close(self) -> None:
        """Free what the bot holds beyond itself (a search level's playout processes); it
        can still decide afterwards, alone. Every front end calls it when a game with this
        bot ends or is left."""
        ...


class SeededBot:
    """A bot with its own random generator (reproducible with a seed) that knows whether
    hidden cash is on. Subclasses implement ``decide``."""

    name = "bot"

    def __init__(self, seed: int | None = None, hidden_cash: bool = False) -> None:
        self.seed = seed
        import random  # (a save's seats name levels without making a player: issue 26)

        self.rng = random.Random(seed)
        self.hidden_cash = hidden_cash
        self._public = PublicTally() if hidden_cash else None

    @staticmethod
    def options(game: Game) -> list[Action]:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("there is no decision to take: the game is over")
        return actions

    def choose(self, game: Game) -> Action:
        return self.decide(game).action

    def decide(self, game: Game) -> Choice:
        raise NotImplementedError

    def close(self) -> None:
        """Nothing to free: only search levels hold processes (``SearchBot.close``)."""

    def view(self, game: Game) -> Game:
        """The game as this bot may see it: with hidden cash on, the rules' view for the
        deciding player (``Game.view_for``), in which every other player's cash is the tally
        kept from the public moves, never the figure in the position. The bot keeps its own
        tally between decisions, so each costs only the moves since the last."""
        if self._public is None or game.awaiting is None:
            return game
        return view_of(game, game.awaiting.player, True, self._public)
