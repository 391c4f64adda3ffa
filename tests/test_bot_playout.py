"""The search player's playouts near the end of the game: they look further ahead once a
nation is close to 25 power points (rules §7: the game ends as soon as a nation reaches 25),
and a playout that reaches the end judges the real final score, with a bonus for a win."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules import Game
from rules.bots import make_bot, play_out
from rules.bots.evaluation import DEFAULT, utility, values
from rules.bots.playout import horizon_for, judge, playout
from rules.bots.search import STRONG
from rules.state import GameState

NAMES = ["A", "B", "C", "D"]


@pytest.fixture(scope="module")
def greedy_game() -> tuple[GameState, GameState]:
    """A whole game of four greedy players: its first rondel decision with a nation at 20
    power points or more, and its final position."""
    game = Game.new(NAMES, seed=3)
    bots = {name: make_bot("greedy", seed=i) for i, name in enumerate(NAMES)}
    late = None
    while game.awaiting is not None:
        s = game.state
        if late is None and s.awaiting_kind == "rondel" and max(s.power) >= 20:
            late = s
        game.apply(bots[game.awaiting.player].choose(game))
    assert late is not None and game.state.finished
    return late, game.state


def test_near_the_end_a_playout_looks_further_ahead() -> None:
    s = Game.new(NAMES, seed=1).state
    settings = replace(STRONG, horizon=6, end_horizon=30, end_power=20)
    assert max(s.power) < 20 and horizon_for(s, settings) == 6
    s.power = s.power[:]
    s.power[2] = 20
    assert horizon_for(s, settings) == 30
    assert horizon_for(s, replace(settings, end_horizon=0)) == 6  # 0: no longer horizon


def test_a_won_game_counts_its_margin_and_the_win_bonus(greedy_game) -> None:
    _, final = greedy_game
    settings = replace(STRONG, win_bonus=15.0)
    vals = values(final)
    winner = max(range(len(NAMES)), key=lambda p: vals[p])
    for p in range(len(NAMES)):
        margin = utility(vals, p)
        expected = margin + 15.0 if p == winner else margin
        assert judge(final, p, settings, DEFAULT) == pytest.approx(expected)
        assert (margin > 0) == (p == winner)


def test_an_unfinished_game_gets_no_win_bonus(greedy_game) -> None:
    late, _ = greedy_game
    settings = replace(STRONG, win_bonus=1000.0)
    vals = values(late)
    for p in range(len(NAMES)):
        assert judge(late, p, settings, DEFAULT) == pytest.approx(utility(vals, p))


def test_a_playout_near_the_end_reaches_the_final_score(greedy_game) -> None:
    """With a long end horizon a playout from a nation at 20+ power plays to the end: exactly
    one player, the winner of that future, gets the win bonus. Without it (horizon 0) the
    playout stops at once and nobody does. (Without ``others_temperature``, so that a seed is
    the same future whichever seat searches: with it, the other seats play differently from
    the searching one.)"""
    late, _ = greedy_game
    far = replace(
        STRONG, horizon=0, end_horizon=60, end_power=20, win_bonus=1000.0, others_temperature=0.0
    )
    near = replace(far, end_horizon=0)
    for seed in range(3):
        won = [playout(late, p, seed, far, DEFAULT) > 500 for p in range(len(NAMES))]
        assert won.count(True) == 1
        stopped = [playout(late, p, seed, near, DEFAULT) for p in range(len(NAMES))]
        assert stopped == pytest.approx([utility(values(late), p) for p in range(len(NAMES))])


def test_a_search_level_with_the_endgame_settings_plays_a_game_to_its_end() -> None:
    """The search level comes in while the leading nation is still below ``end_power``, so
    it plays the switch to its endgame settings and every turn after it, to the final
    score (the opening, far from the end, is the greedy players' alone: it tests nothing
    of the endgame settings and took most of the time)."""
    game = Game.new(NAMES[:3], seed=4)
    strong = make_bot("strong", seed=1)
    strong.settings = replace(
        strong.settings, playouts=4, horizon=3, end_horizon=12, end_power=18, processes=1
    )
    greedy = {name: make_bot("greedy", seed=i + 1) for i, name in enumerate(NAMES[:3])}
    while max(game.state.power) < 8:  # one taxation adds at most 10
        game.apply(greedy[game.awaiting.player].choose(game))
    assert max(game.state.power) < strong.settings.end_power
    play_out(game, {**greedy, "A": strong})
    assert game.state.finished


def test_a_government_floor_adds_its_difference_to_each_governor_alone(greedy_game) -> None:
    """``Weights.government_floor`` raises the fitted weight of a government where it is lower
    (table 4 finds -1.4 to -4 in the middle phases): a governor's value grows by the
    difference for each nation he governs, everyone else's stays."""
    from rules.bots.evaluation import TABLES, Weights, phase_weights
    from rules.bots.features import nation_figures

    late, _ = greedy_game
    fitted = phase_weights(max(late.power), TABLES[4])[6]
    assert fitted < 0  # late in the game the fit counts a government against its holder
    before = values(late, DEFAULT)
    after = values(late, Weights(government_floor=1.0))
    governs = [0] * len(NAMES)
    for f in nation_figures(late):
        if f.governor >= 0:
            governs[f.governor] += 1
    assert any(governs)
    for p in range(len(NAMES)):
        assert after[p] - before[p] == pytest.approx(governs[p] * (1.0 - fitted))
    assert values(late, Weights(government_floor=fitted - 1)) == pytest.approx(before)
