"""The random player: any legal move, uniformly. A baseline for the others and a fuzzer for
the engine."""

from __future__ import annotations

from rules.bots.base import Choice, SeededBot
from rules.game import Game


class RandomBot(SeededBot):
    """Picks uniformly among the legal actions."""

    name = "random"

    def decide(self, game: Game) -> Choice:
        return Choice(self.rng.choice(self.options(game)), "a random legal move")
