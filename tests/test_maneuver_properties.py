"""Property tests: random legal play with maneuvers and battles, for every player count,
edition and variant, reaches the end of the game with the board invariants intact."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Game, IllegalAction, RuleSet
from rules.state import NO, GameState


def assert_board_invariants(s: GameState) -> None:
    board = s.board
    for n, info in enumerate(board.nations):
        armies = sum(s.armies[n])
        fleets = sum(s.fleets[n])
        assert 0 <= armies <= info.armies, "units conserved with supply (armies)"
        assert 0 <= fleets <= info.fleets, "units conserved with supply (fleets)"
        assert 0 <= s.flags_in_supply(n) <= s.rules.flags_per_nation
        for r, reg in enumerate(board.regions):
            assert s.armies[n][r] >= 0 and s.fleets[n][r] >= 0
            assert 0 <= s.friendly[n][r] <= s.armies[n][r]
            if reg.kind == "sea":
                assert s.armies[n][r] == 0, f"army at sea in {reg.id}"
            elif s.fleets[n][r]:
                assert board.owner[r] == n and board.harbour_sea[r] != NO, (
                    f"fleet on land outside its harbour in {reg.id}"
                )
            if s.friendly[n][r]:
                assert board.owner[r] not in (NO, n), "status only in foreign home provinces"
    for r, reg in enumerate(board.regions):
        if s.flag[r] != NO:
            assert reg.kind in ("land", "sea"), f"flag in home province {reg.id}"
    assert "switzerland" not in board.index


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    edition=st.sampled_from(["first", "2010"]),
    variant=st.sampled_from(["standard", "experienced", "no-investor-card"]),
)
def test_random_play_with_maneuvers_reaches_the_end_with_board_invariants(
    seed, players, edition, variant
):
    game = Game.new([f"P{i}" for i in range(players)], RuleSet.preset(edition, variant), seed=seed)
    rng = random.Random(seed)
    moves = battles = 0
    for _ in range(50_000):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        moves += action.kind in ("move_army", "move_fleet")
        battles += action.kind == "battle"
        game.apply(action)
        assert_board_invariants(game.state)
    assert game.is_over
    assert game.result() is not None


def test_illegal_maneuver_actions_leave_the_position_unchanged():
    game = Game.new(["A", "B", "C"], RuleSet(), seed=7)
    rng = random.Random(7)
    pool: list = []
    checked = 0
    while not game.is_over and checked < 400:
        legal = game.legal_actions()
        pool.extend(a for a in legal if a.kind in ("move_army", "move_fleet", "battle"))
        legal_set = set(legal)
        for candidate in rng.sample(pool, min(5, len(pool))):
            if candidate in legal_set:
                continue
            before = game.summary()
            with contextlib.suppress(IllegalAction):
                game.copy().apply(candidate)
            assert game.summary() == before
            try:
                game.apply(candidate)
            except IllegalAction as exc:
                assert exc.reason
                assert game.summary() == before
            else:
                game.undo()
                assert game.summary() == before
            checked += 1
        game.apply(rng.choice(legal))
    assert checked > 50
