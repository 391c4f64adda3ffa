"""Property tests: random legal play for every player count, both editions and all three
variants reaches the end of the game, and every position on the way keeps the invariants.

Checked after every action: money is conserved (bank + treasuries + cash; the bank may go
negative = unlimited), nothing is negative, every bond has at most one owner, and every governed
nation's government has the highest credit when a nation is about to choose its rondel space
(governments are re-checked after every investment round). On sampled positions: an action
legal elsewhere but not here raises IllegalAction and changes nothing, every listed action
applies, and undo restores the summary.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Game, IllegalAction, RuleSet
from rules.actions import ChooseRondel, Donate, EndManeuver, NoFight, Pass
from rules.state import NO

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
MAX_ACTIONS = 4000
RONDEL_WEIGHT = {
    "taxation": 6, "factory": 5, "investor": 3, "production1": 1, "production2": 1,
    "import": 1, "maneuver1": 2, "maneuver2": 2,
}  # fmt: skip
CONFIGS = [
    (players, edition, variant)
    for players in range(2, 7)
    for edition in ("first", "2010")
    for variant in ("standard", "experienced", "no-investor-card")
]


def choose(rng: random.Random, actions: list) -> object:
    """A random legal action, nudged so that games end: nations favour Factory and Taxation,
    Maneuvers end soon, and investors often pass."""
    rondel = [a for a in actions if isinstance(a, ChooseRondel)]
    if rondel:
        weights = [RONDEL_WEIGHT[a.space] for a in rondel]
        return rng.choices(rondel, weights)[0]
    end = [a for a in actions if isinstance(a, EndManeuver)]
    if end and rng.random() < 0.3:
        return end[0]
    passing = [a for a in actions if isinstance(a, Pass | NoFight)]
    if passing and rng.random() < 0.4:
        return passing[0]
    return rng.choice(actions)


def money_total(s) -> int:
    return s.bank + sum(s.treasury) + sum(s.cash)


def check_invariants(game: Game, total: int) -> None:
    s = game.state
    assert money_total(s) == total, "money is not conserved"
    assert min(s.cash) >= 0, f"negative cash {s.cash}"
    assert min(s.treasury) >= 0, f"negative treasury {s.treasury}"
    for n in range(6):
        assert s.armies_in_supply(n) >= 0 and s.fleets_in_supply(n) >= 0
        assert s.flags_in_supply(n) >= 0
        assert min(s.armies[n]) >= 0 and min(s.fleets[n]) >= 0
        assert all(0 <= f <= a for f, a in zip(s.friendly[n], s.armies[n], strict=True))
        assert 0 <= s.power[n] <= 25 and 5 <= s.tax_level[n] <= 15
    costs = s.rules.bond_costs
    summary = game.summary()
    for c, info in summary["nations"].items():
        owned = [b["value"] for p in summary["players"] for b in p["bonds"] if b["nation"] == c]
        assert len(owned) == len(set(owned)), f"a {c} bond has two owners"
        assert sorted(owned + info["bonds_available"]) == list(costs)
    if not s.finished and s.awaiting_kind == "rondel":
        for n, gov in enumerate(s.government):
            credits = [s.credit(p, n) for p in range(len(s.players))]
            if gov != NO:
                assert credits[gov] == max(credits), f"{c}: the government lacks the most credit"
            elif s.rules.variant != "experienced" and s.rules.setup_bonds_claim_flags:
                big = [costs[k] for k, o in enumerate(s.bond_owner[n]) if o != NO]
                assert all(v < s.flag_min_bond[n] for v in big), "ungoverned nation with a claim"


def check_illegal(game: Game, pool: list, legal: set, rng: random.Random) -> None:
    candidates = [a for a in pool if a not in legal]
    if not candidates:
        return
    action = rng.choice(candidates)
    before = game.summary()
    plies = len(game.plies)
    with pytest.raises(IllegalAction):
        game.apply(action)
    assert game.summary() == before
    assert len(game.plies) == plies


def check_all_legal_apply(game: Game, actions: list) -> None:
    for a in actions:
        other = game.copy()
        other.apply(a)


def play_random_game(players: int, edition: str, variant: str, seed: int) -> Game:
    rng = random.Random(seed)
    rules = RuleSet.preset(edition, variant)
    game = Game.new(list(NAMES[:players]), rules=rules, seed=seed)
    total = money_total(game.state)
    pool: list = []
    seen: set = set()
    check_invariants(game, total)
    for step in range(MAX_ACTIONS):
        if game.is_over:
            break
        actions = game.legal_actions()
        assert actions, f"nothing is legal for {game.awaiting}"
        legal = set(actions)
        for a in actions:
            if a not in seen and not isinstance(a, Donate):
                seen.add(a)
                pool.append(a)
        if step % 7 == 0:
            check_illegal(game, pool, legal, rng)
        if step % 23 == 0:
            check_all_legal_apply(game, actions)
        action = choose(rng, actions)
        if step % 5 == 0:
            before = game.summary()
            game.apply(action)
            assert game.undo() == action
            assert game.summary() == before
        game.apply(action)
        check_invariants(game, total)
    assert game.is_over, f"no end after {MAX_ACTIONS} actions"
    assert game.result() is not None
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction):
        game.apply(pool[0])
    return game


@pytest.mark.parametrize(("players", "edition", "variant"), CONFIGS)
@settings(max_examples=1, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**31 - 1))
def test_random_legal_play_reaches_the_end_and_keeps_the_invariants(
    players, edition, variant, seed
):
    play_random_game(players, edition, variant, seed)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_random_legal_play_any_configuration(config, seed):
    play_random_game(*config, seed)
