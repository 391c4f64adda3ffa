"""The greedy player: one nation turn of look-ahead, rules of thumb for everything inside it.

Rondel: tries every legal space on a copy, plays the rest of the nation's turn with the rules
of thumb (``rules.bots.policy``), and keeps the space after which the evaluation
(``rules.bots.evaluation``) likes the position best for its government. Investing: tries every
bond (and passing) on a copy and keeps the one the evaluation likes best. Everything else
(maneuvers, battles, production, imports, factories, Swiss banks, and the bond rounds of the
experienced set-up, a phase the evaluation is not made for) follows the rules of thumb.
Quick (a few milliseconds a decision) and predictable.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from rules import engine
from rules.actions import Action, Buy, ChooseRondel
from rules.bots.base import Choice, SeededBot
from rules.bots.evaluation import DEFAULT, Weights, utility, values
from rules.bots.policy import Policy, buy_reason, overdue_taxation, rondel_reason
from rules.bots.style import PLAIN, Style
from rules.game import Game
from rules.state import GameState

TURN_LIMIT = 80  # actions of look-ahead at most (a turn is rarely longer than 30)
IDLE_TURN = 1.5  # what a wasted turn costs in the evaluation's points


def changes_anything(before: GameState, after: GameState) -> bool:
    """Whether a turn changed the board, the nations or the bonds (not just the marker)."""
    return (
        before.armies != after.armies
        or before.fleets != after.fleets
        or before.friendly != after.friendly
        or before.flag != after.flag
        or before.factory != after.factory
        or before.power != after.power
        or before.tax_level != after.tax_level
        or before.treasury != after.treasury
        or before.bond_owner != after.bond_owner
    )


def finish_turn(s: GameState, policy: Policy, limit: int = TURN_LIMIT) -> GameState:
    """Play on with the rules of thumb until the next rondel choice (or the game's end)."""
    for _ in range(limit):
        if s.finished or s.awaiting_kind is None or s.awaiting_kind == "rondel":
            return s
        actions = engine.legal_actions(s)
        action, _ = policy.pick(s, actions)
        s, _ = engine.apply(s, action)
    return s


class GreedyBot(SeededBot):
    """One nation turn of look-ahead; quick and predictable."""

    name = "greedy"

    def __init__(
        self,
        seed: int | None = None,
        hidden_cash: bool = False,
        weights: Weights = DEFAULT,
        style: Style = PLAIN,
    ) -> None:
        super().__init__(seed, hidden_cash)
        self.weights = weights
        self.policy = Policy(self.rng, style)

    def decide(self, game: Game) -> Choice:
        actions = self.options(game)
        if len(actions) == 1:
            return Choice(actions[0])
        seen = self.view(game)
        s = seen.state
        kind = s.awaiting_kind
        if kind == "rondel":
            overdue = overdue_taxation(game.plies, s, actions)
            if overdue is not None:
                return Choice(overdue, rondel_reason(s, overdue) + "; taxing is overdue")
            return self._rondel(s, actions)
        if kind == "invest":
            return self._invest(s, actions)
        action, why = self.policy.pick(s, actions, explain=True)
        return Choice(action, why)

    def _rondel(self, s: GameState, actions: list[Action]) -> Choice:
        best = greedy_rondel(s, actions, self.policy, self.weights, self.rng)
        return Choice(best, rondel_reason(s, best))

    def _invest(self, s: GameState, actions: list[Action]) -> Choice:
        p = s.awaiting_player
        best = greedy_invest(s, actions, self.weights, self.rng)
        if isinstance(best, Buy):
            return Choice(best, buy_reason(s, p, best))
        return Choice(best, "passes: no bond is worth its price now")


def greedy_rondel(
    s: GameState,
    actions: list[Action],
    policy: Policy,
    w: Weights = DEFAULT,
    rng: random.Random | None = None,
) -> ChooseRondel:
    """The rondel space the greedy player picks (taxation when overdue aside, which needs the
    game's moves): the one after whose nation turn, played by ``policy``, the evaluation likes
    the position best for the nation's government, a turn that changes nothing counted as
    wasted. ``rng`` breaks exact ties (without it the first space wins). Module-level, so
    that the table watch and the playouts predict the greedy player with its own code."""
    best, best_u = None, float("-inf")
    for a, u in rondel_looks(s, actions, policy, w):
        if rng is not None:
            u += rng.random() * 1e-6  # break exact ties without bias
        if u > best_u:
            best, best_u = a, u
    assert best is not None, "the rondel always offers a space"
    return best


def rondel_looks(
    s: GameState, actions: list[Action], policy: Policy, w: Weights = DEFAULT
) -> Iterator[tuple[ChooseRondel, float]]:
    """Each rondel space with greedy's look-ahead value: the evaluation after the nation's
    turn played by ``policy``, for its government, a turn that changes nothing counted as
    wasted. What ``greedy_rondel`` maximises, and what ``benchmarks/predict_opponents.py``
    ranks a player's choice by."""
    gov = s.government[s.turn]
    for a in actions:
        if isinstance(a, ChooseRondel):  # (the rondel's: all of them)
            after = finish_turn(engine.apply(s, a)[0], policy)
            u = utility(values(after, w), gov, w)
            if not changes_anything(s, after):
                u -= IDLE_TURN  # a turn that only moves the marker wastes a turn
            yield a, u


def greedy_invest(
    s: GameState, actions: list[Action], w: Weights = DEFAULT, rng: random.Random | None = None
) -> Action:
    """The bond (or passing) the greedy player picks: the one after which the evaluation likes
    the position best for the investor (ties as in ``greedy_rondel``; passing when equal)."""
    p = s.awaiting_player
    best, best_u = actions[-1], float("-inf")
    for a in actions:
        after, _ = engine.apply(s, a)
        u = utility(values(after, w), p, w)
        if rng is not None:
            u += rng.random() * 1e-6
        if u > best_u:
            best, best_u = a, u
    return best
