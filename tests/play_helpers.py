"""Random games stopped at a random point, for the property tests of positions and history:
every player count, both editions, all three variants, and rule options that change the
decision chains (battles until declined, a limited bank, free investing once per round)."""

from __future__ import annotations

import random

from rules import Game, RuleSet
from rules.actions import ChooseRondel, EndManeuver, NoFight, Pass
from rules.ruleset import EDITIONS, VARIANTS

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")


def pick(rng: random.Random, actions: list) -> object:
    """A random legal action; Maneuvers and battles get a fair share of moves, so that stops
    fall in the middle of them too."""
    end = [a for a in actions if isinstance(a, EndManeuver)]
    if end and rng.random() < 0.15:
        return end[0]
    passing = [a for a in actions if isinstance(a, Pass | NoFight)]
    if passing and rng.random() < 0.5:
        return passing[0]
    rondel = [a for a in actions if isinstance(a, ChooseRondel)]
    if rondel:
        return rng.choice(rondel)
    return rng.choice(actions)


def random_rules(rng: random.Random) -> RuleSet:
    rules = RuleSet.preset(rng.choice(EDITIONS), rng.choice(VARIANTS))
    changes = {}
    if rng.random() < 0.3:
        changes["battle_sequence"] = "until_declined"
    if rng.random() < 0.3:
        changes["bank"] = "limited"
    if rng.random() < 0.3:
        changes["no_card_free_investing"] = "once_per_round"
    return rules.with_options(**changes)


def random_game(seed: int, actions: int) -> Game:
    """A game of 2-6 players after up to ``actions`` random legal actions (fewer if it ends)."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    game = Game.new(list(NAMES[: rng.randint(2, 6)]), rules=rules, seed=seed)
    for _ in range(actions):
        legal = game.legal_actions()
        if not legal:
            break
        game.apply(pick(rng, legal))
    return game


def play_until(game: Game, kind: str, rng: random.Random, limit: int = 3000) -> bool:
    """Play on until someone must take a decision of ``kind``; False if it never came."""
    for _ in range(limit):
        aw = game.awaiting
        if aw is None:
            return False
        if aw.kind == kind:
            return True
        game.apply(pick(rng, game.legal_actions()))
    return False
