"""Computer players in Imperial 2030: every level decides legally at every kind of decision
(the canal question included) in every set-up, plays whole 2030 games for 2-6 players to the
end without an illegal move, answers canal requests sensibly and builds within four
factories; a seeded game replays identically from its save.

Search levels run with a tiny budget (a couple of playouts one nation turn ahead), so these
tests take seconds, not minutes; their strength on the world board is measured by
``benchmarks/tournament.py --game 2030``.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest
from helpers import give_turn, nation_of, new_game, set_flags, set_units

from rules import Game, RuleSet
from rules.actions import CanalPassage, ChooseRondel
from rules.bots import BOT_LEVELS, make_bot
from rules.savefile import load_game, save_game

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
CONFIGS = [
    (players, variant)
    for players in range(2, 7)
    for variant in ("standard", "experienced", "no-investor-card")
]


def tiny(level: str, seed: int = 1):
    """A bot of ``level``; search levels with a budget of a couple of playouts."""
    bot = make_bot(level, seed)
    if hasattr(bot, "settings"):
        bot.settings = replace(
            bot.settings,
            playouts=2,
            horizon=1,
            plans=2,
            candidates=2,
            end_horizon=1,
            far_horizon=0,
            processes=1,
        )
        bot.budget = 30.0
    return bot


def world_game(players: int, variant: str, seed: int) -> Game:
    """A 2030 game with random flags in the canals' controlling regions, so that canal
    questions come up."""
    rules = RuleSet.preset(variant=variant, game="2030")
    game = Game.new(list(NAMES[:players]), rules, seed=seed)
    rng = random.Random(seed)
    for canal in game.state.board.canals:
        game.state.flag[canal.controller] = rng.randrange(6)
    return game


def positions(players: int, variant: str, seed: int) -> dict[str, list[Game]]:
    """Positions of a random 2030 game, up to three of each decision kind."""
    rng = random.Random(seed)
    game = world_game(players, variant, seed)
    found: dict[str, list[Game]] = {}
    while game.awaiting is not None and len(game.plies) < 2500:
        kind = game.awaiting.kind
        actions = game.legal_actions()
        if len(actions) > 1 and len(found.get(kind, ())) < 3 and rng.random() < 0.3:
            found.setdefault(kind, []).append(game.copy())
        game.apply(rng.choice(actions))
    return found


@pytest.mark.parametrize(("players", "variant"), CONFIGS)
def test_2030_every_level_decides_legally_in_every_set_up(players: int, variant: str):
    seed = players * 10 + len(variant)
    found = positions(players, variant, seed)
    for i, level in enumerate(BOT_LEVELS):
        bot = tiny(level, seed + i)
        for kind, games in found.items():
            game = games[i % len(games)]
            before = game.summary()
            choice = bot.decide(game)
            assert choice.action in game.legal_actions(), f"{level}: {choice.action} ({kind})"
            assert "\n" not in choice.reason and len(choice.reason) <= 120
            assert game.summary() == before, f"{level} changed the game deciding {kind}"


def test_2030_random_games_reach_the_canal_decision():
    seen = set()
    for players, variant in CONFIGS:
        seen |= set(positions(players, variant, 3))
    assert "canal" in seen


# Each table mixes the levels, so that every level plays several whole games and every
# player count is played: table p seats the levels p, p+1, ... (in BOT_LEVELS order).
TABLES = [
    tuple(BOT_LEVELS[(players + i) % len(BOT_LEVELS)] for i in range(players))
    for players in range(2, 7)
]


@pytest.mark.parametrize("levels", TABLES, ids=lambda t: "-".join(t))
def test_2030_whole_games_end_without_an_illegal_move(levels: tuple[str, ...]):
    game = world_game(len(levels), "standard", seed=len(levels))
    seats = zip(game.players, levels, strict=True)
    bots = {name: tiny(level, i) for i, (name, level) in enumerate(seats)}
    while game.awaiting is not None and len(game.plies) < 4000:
        game.apply(bots[game.awaiting.player].choose(game))  # IllegalAction would fail
    assert game.is_over, f"{levels}: no end after {len(game.plies)} actions"
    result = game.result()
    assert result is not None and max(game.state.power) == 25
    assert all(len(game.state.factories_of(n)) <= 4 for n in range(6))


def test_every_level_is_in_some_whole_game_and_every_count_is_played():
    assert {level for table in TABLES for level in table} == set(BOT_LEVELS)
    assert sorted(len(t) for t in TABLES) == [2, 3, 4, 5, 6]


def test_2030_a_seeded_greedy_game_replays_identically_from_its_save(tmp_path: Path):
    def play() -> Game:
        game = Game.new(list(NAMES[:4]), RuleSet.preset(game="2030"), seed=21)
        bots = {name: tiny("greedy", i) for i, name in enumerate(game.players)}
        while game.awaiting is not None and len(game.plies) < 3000:
            game.apply(bots[game.awaiting.player].choose(game))
        return game

    first = play()
    assert first.is_over
    assert [str(a) for a in play().history] == [str(a) for a in first.history]
    path = tmp_path / "world.json"
    save_game(first, path)
    loaded = load_game(path).game
    assert loaded.summary() == first.summary()
    assert [e.text for e in loaded.events()] == [e.text for e in first.events()]


def canal_request(controller_threatened: bool) -> Game:
    """The US (Eve) asks Brazil (Dan) to let a fleet through Panama into the North Pacific;
    with ``controller_threatened`` a Brazilian flag stands in that sea."""
    g = new_game(6, rules=RuleSet.preset(game="2030"))
    set_units(g, "US", "caribbean_sea", fleets=1)
    set_flags(g, "BR", "colombia", *(["north_pacific"] if controller_threatened else []))
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    g.apply("US move fleet caribbean_sea -> north_pacific")
    assert g.awaiting is not None and g.awaiting.kind == "canal"
    return g


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_2030_bots_answer_a_canal_request(level: str):
    g = canal_request(controller_threatened=True)
    choice = tiny(level, 4).decide(g)
    assert isinstance(choice.action, CanalPassage)
    if level != "random":
        assert not choice.action.allow, choice.reason  # the fleet would take its flag
        harmless = tiny(level, 4).decide(canal_request(controller_threatened=False))
        assert isinstance(harmless.action, CanalPassage) and harmless.action.allow


def test_2030_greedy_uses_a_free_canal_to_reach_a_flag():
    g = new_game(6, rules=RuleSet.preset(game="2030"))
    set_units(g, "US", "caribbean_sea", fleets=1)
    for sea in ("north_atlantic", "south_atlantic", "gulf_of_guinea"):
        set_flags(g, "US", sea)
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    choice = tiny("greedy").decide(g)
    assert str(choice.action) == "US move fleet caribbean_sea -> north_pacific", choice.reason


def test_2030_greedy_builds_no_fifth_factory():
    g = new_game(6, rules=RuleSet.preset(game="2030"))
    s = g.state
    cn = nation_of(g, "CN")
    for r in s.board.home[cn]:
        s.factory[r] = True
    s.treasury[cn] = 30
    give_turn(g, "CN", "investor")
    assert "CN rondel factory" in {str(a) for a in g.legal_actions()}  # allowed, but idle
    choice = tiny("greedy").decide(g)
    assert isinstance(choice.action, ChooseRondel) and choice.action.space != "factory"
