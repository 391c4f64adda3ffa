"""Property tests over random Imperial 2030 games, as tests/test_properties.py does for
Imperial: for every player count and variant, random legal play reaches the end, money is
conserved, units stay within their limits (CN 10/6, US 6/10, the others 8/8), no factory
count exceeds four, every listed action applies, an action legal elsewhere but not here is
refused without a change, and undo restores the position.

To meet the canal decision often, each game starts with random flags in Colombia and North
Africa (the canals' controlling regions) and random readings of the canal options, and the
random player likes moves through a canal.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import (
    MAX_ACTIONS,
    NAMES,
    check_all_legal_apply,
    check_illegal,
    check_invariants,
    choose,
    money_total,
)

from rules import Game, IllegalAction, RuleSet
from rules.actions import Donate, MoveArmy, MoveFleet
from rules.state import NO

CONFIGS = [
    (players, variant)
    for players in range(2, 7)
    for variant in ("standard", "experienced", "no-investor-card")
]
CANAL_OPTIONS = st.fixed_dictionaries(
    {
        "canal_refusal": st.sampled_from(("unit", "maneuver")),
        "canal_same_government": st.sampled_from(("ask", "allow")),
        "canal_ungoverned": st.sampled_from(("free", "closed")),
    }
)
LIMITS = {"RU": (8, 8), "CN": (10, 6), "IN": (8, 8), "BR": (8, 8), "US": (6, 10), "EU": (8, 8)}


def crosses_a_canal(game: Game, action: object) -> bool:
    board = game.state.board
    if isinstance(action, MoveFleet):
        seas = [board.index[action.origin], board.index[action.dest]]
    elif isinstance(action, MoveArmy) and action.convoy:
        seas = [board.index[x] for x in action.convoy]
    else:
        return False
    return any(board.canal_between(a, b) for a, b in itertools.pairwise(seas))


def check_2030(game: Game) -> None:
    s = game.state
    for n, code in enumerate(s.board.codes):
        armies, fleets = LIMITS[code]
        assert sum(s.armies[n]) <= armies and sum(s.fleets[n]) <= fleets
        assert len(s.factories_of(n)) <= 4
        assert s.flags_in_supply(n) >= 0


def play_random_2030(players: int, variant: str, seed: int, options: dict) -> tuple[Game, int]:
    rng = random.Random(seed)
    rules = RuleSet.preset(variant=variant, game="2030").with_options(**options)
    game = Game.new(list(NAMES[:players]), rules=rules, seed=seed)
    s = game.state
    for canal in s.board.canals:
        s.flag[canal.controller] = rng.randrange(NO, 6)
    total = money_total(s)
    pool: list = []
    seen: set = set()
    asked = 0
    check_invariants(game, total)
    for step in range(MAX_ACTIONS):
        if game.is_over:
            break
        actions = game.legal_actions()
        assert actions, f"nothing is legal for {game.awaiting}"
        if game.awaiting is not None and game.awaiting.kind == "canal":
            asked += 1
        legal = set(actions)
        for a in actions:
            if a not in seen and not isinstance(a, Donate):
                seen.add(a)
                pool.append(a)
        if step % 7 == 0:
            check_illegal(game, pool, legal, rng)
        if step % 23 == 0:
            check_all_legal_apply(game, actions)
        through = [a for a in actions if crosses_a_canal(game, a)]
        liked = through and rng.random() < 0.5
        action = rng.choice(through) if liked else choose(rng, actions)
        if step % 5 == 0:
            before = game.summary()
            game.apply(action)
            assert game.undo() == action
            assert game.summary() == before
        game.apply(action)
        check_invariants(game, total)
        check_2030(game)
    assert game.is_over, f"no end after {MAX_ACTIONS} actions"
    assert game.result() is not None
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(pool[0])
    return game, asked


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), options=CANAL_OPTIONS)
def test_2030_random_legal_play_reaches_the_end_and_keeps_the_invariants(
    players, variant, seed, options
):
    play_random_2030(players, variant, seed, options)


def test_2030_random_play_meets_the_canal_decision():
    """The property games above do reach the canal decision (seeds fixed here)."""
    asked = sum(
        play_random_2030(players, "standard", seed, {})[1]
        for players, seed in ((3, 1), (4, 2), (5, 3), (6, 4))
    )
    assert asked > 0
