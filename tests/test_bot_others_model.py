"""The strong level's model of the other players in its playouts (issue 25): with
``others_temperature`` another seat's rondel choice is a draw from a softmax of greedy's
one-turn look-ahead over every space, so that each space keeps a chance that falls with its
distance from the best; the searching player's own seat keeps its narrow, near-greedy pick."""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

import pytest

from rules import Game, engine
from rules.bots.evaluation import Weights
from rules.bots.greedy import rondel_looks
from rules.bots.playout import simulated_pick
from rules.bots.policy import Policy
from rules.bots.search import STRONG
from rules.bots.style import PLAIN, Style
from rules.state import GameState

NAMES = ["A", "B", "C", "D"]
SIMULATED = Weights(learned=STRONG.rollout_eval)


@pytest.fixture(scope="module")
def rondel_decision() -> GameState:
    s = Game.new(NAMES, seed=5).state
    assert s.awaiting_kind == "rondel"
    return s


def draws(s: GameState, settings, me: int, n: int, seed: int = 0) -> Counter[str]:
    rng = random.Random(seed)
    policy = Policy(rng, Style(noise=settings.noise))
    actions = engine.legal_actions(s)
    return Counter(
        str(simulated_pick(s, actions, policy, rng, SIMULATED, settings, me)) for _ in range(n)
    )


def test_another_seats_rondel_choice_is_a_softmax_of_greedys_look_ahead(rondel_decision) -> None:
    """Drawing with Gumbel noise of scale T and keeping the best is drawing from a softmax at
    T: the shares of 300 draws match the softmax of the look-ahead's values."""
    s = rondel_decision
    settings = replace(STRONG, explore=0.0, others_temperature=3.0)
    other = (s.awaiting_player + 1) % len(NAMES)
    seen = draws(s, settings, other, 300)
    quiet = Policy(random.Random(0), PLAIN)
    looks = {str(a): u for a, u in rondel_looks(s, engine.legal_actions(s), quiet, SIMULATED)}
    top = max(looks.values())
    total = sum(math.exp((u - top) / 3.0) for u in looks.values())
    for space, u in looks.items():
        expected = math.exp((u - top) / 3.0) / total
        assert seen[space] / 300 == pytest.approx(expected, abs=0.09), space
    assert len(seen) >= 3  # more than the near-greedy pick's one or two spaces


def test_a_cold_softmax_is_greedys_own_choice(rondel_decision) -> None:
    s = rondel_decision
    settings = replace(STRONG, explore=0.0, others_temperature=0.01)
    other = (s.awaiting_player + 1) % len(NAMES)
    quiet = Policy(random.Random(0), PLAIN)
    looks = {str(a): u for a, u in rondel_looks(s, engine.legal_actions(s), quiet, SIMULATED)}
    assert draws(s, settings, other, 20) == Counter({max(looks, key=looks.__getitem__): 20})


def test_the_searching_players_own_seat_ignores_the_others_temperature(rondel_decision) -> None:
    s = rondel_decision
    me = s.awaiting_player
    hot = replace(STRONG, others_temperature=50.0)
    assert draws(s, hot, me, 30, seed=4) == draws(s, STRONG, me, 30, seed=4)
    assert draws(s, hot, me + 1, 30, seed=4) != draws(s, STRONG, me + 1, 30, seed=4)
