"""At a table that plays as greedy players do (``rules.bots.opponents``), the strong level's
playouts play the other seats with greedy's own choices (``SearchSettings.far_exact``): the
futures then differ only where the searching player's own simulated moves do."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import Game
from rules.bots import make_bot
from rules.bots.evaluation import DEFAULT
from rules.bots.greedy import GreedyBot
from rules.bots.playout import greedy_choice, playout
from rules.bots.policy import Policy, overdue_taxation
from rules.bots.search import STRONG
from rules.bots.style import PLAIN

NAMES = ["A", "B", "C", "D"]
ME = 3  # the searching player in these positions: "D"


@pytest.fixture(scope="module")
def greedy_positions() -> list[Game]:
    """Every position of the first 400 moves of a game of four greedy players, with a choice."""
    game = Game.new(NAMES, seed=5)
    bots = {name: GreedyBot(seed=i) for i, name in enumerate(NAMES)}
    out = []
    while game.awaiting is not None and len(game.plies) < 400:
        if len(game.legal_actions()) > 1:
            out.append(game.copy())
        game.apply(bots[game.awaiting.player].choose(game))
    return out


def test_the_playouts_choose_for_a_greedy_player_what_the_greedy_player_chooses(
    greedy_positions,
) -> None:
    quiet = Policy(random.Random(0), PLAIN)
    checked = 0
    for game in greedy_positions:
        s = game.state
        legal = game.legal_actions()
        if s.awaiting_kind == "rondel" and overdue_taxation(game.plies, s, legal) is not None:
            continue  # the overdue rule needs the game's moves, which a playout does not keep
        ours, greedys = greedy_choice(s, legal, quiet), GreedyBot(seed=1).decide(game).action
        if ours != greedys:  # only where the two are worth exactly the same (greedy's seed
            pair = [ours, greedys]  # breaks such ties, the playouts take the first)
            assert greedy_choice(s, pair, quiet) == ours
            assert greedy_choice(s, pair[::-1], quiet) == greedys
        else:
            checked += 1
    assert checked > 200


def quiet_turns(greedy_positions) -> list:
    """Rondel decisions of nations ``ME`` does not govern, other than Investor (where ``ME``
    might buy): one nation turn played on asks nothing of ``ME``."""
    out = []
    for game in greedy_positions:
        s = game.state
        if s.awaiting_kind != "rondel" or s.government[s.turn] == ME:
            continue
        if GreedyBot(seed=1).decide(game).action.space == "investor":
            continue
        out.append(s)
    return out


def test_the_other_seats_play_the_same_in_every_future(greedy_positions) -> None:
    noisy = replace(STRONG, horizon=1, processes=1, exact_others=False)
    exact = replace(noisy, exact_others=True)
    varied = 0
    for s in quiet_turns(greedy_positions)[:12]:
        futures = {playout(s, ME, seed, exact, DEFAULT) for seed in range(6)}
        assert len(futures) == 1  # greedy's moves, whatever the seed
        varied += len({playout(s, ME, seed, noisy, DEFAULT) for seed in range(6)}) > 1
    assert varied > 0  # while the simulated greedy players of the other playouts vary


def copied(settings, game: Game) -> list[float]:
    """Each other seat's chance of being played with greedy's exact moves."""
    me = game.players.index(game.awaiting.player)
    if settings.exact_others:
        return [1.0] * (len(game.players) - 1)
    seats = settings.exact_seats or (0.0,) * len(game.players)
    return [w for p, w in enumerate(seats) if p != me]


def test_the_strong_level_plays_the_table_exactly_only_when_it_is_predictable() -> None:
    strong = make_bot("strong", 1)
    assert strong.settings.far_exact and not strong.settings.exact_others
    greedy = played("greedy")
    now = strong._settings_now(greedy)
    assert copied(now, greedy) == [1.0, 1.0, 1.0] and now.horizon == now.far_horizon
    randomly = played("random")
    now = make_bot("strong", 1)._settings_now(randomly)
    assert copied(now, randomly) == [0.0, 0.0, 0.0] and now.horizon == STRONG.horizon
    assert copied(make_bot("normal", 1)._settings_now(greedy), greedy) == [0.0, 0.0, 0.0]


def test_the_soft_model_copies_each_player_as_far_as_he_is_predicted() -> None:
    """A table of two greedy players and a random one: the greedy seats are copied exactly,
    the random one not at all, and the horizon stays short (the least trusted seat)."""
    game = Game.new(NAMES, seed=3)
    levels = ["greedy", "greedy", "random", "greedy"]
    bots = {
        name: make_bot(level, 3 + i)
        for i, (name, level) in enumerate(zip(NAMES, levels, strict=True))
    }
    while game.awaiting is not None and len(game.plies) < 150:
        game.apply(bots[game.awaiting.player].choose(game))
    while game.awaiting.player != "D":
        game.apply(bots[game.awaiting.player].choose(game))
    now = make_bot("strong", 1)._settings_now(game)
    assert copied(now, game) == [1.0, 1.0, 0.0]
    assert now.horizon == STRONG.horizon


def played(level: str, plies: int = 150) -> Game:
    game = Game.new(NAMES, seed=3)
    bots = {name: make_bot(level, 3 + i) for i, name in enumerate(NAMES)}
    while game.awaiting is not None and len(game.plies) < plies:
        game.apply(bots[game.awaiting.player].choose(game))
    return game
