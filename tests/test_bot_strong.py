"""The strong level's own habits: it uses the rondel space it chose (a Factory chosen with the
money and a free site builds), its Maneuver search weighs plans by aim and finds the attack
on a rival's factory when that is the good plan, it follows a plan only while the game goes
as planned, it keeps a whole nation turn within its time, and a seeded strong game replays.

Tiny budgets (a handful of playouts, no time limit reached): the level's strength is measured
by benchmarks/tournament.py, its speed by benchmarks/app_turns.py."""

from __future__ import annotations

import random
from dataclasses import replace

from maneuver_helpers import new_game, place, set_factories, set_flag, start_maneuver

from rules import Game
from rules.actions import BuildFactory, ChooseRondel, MoveArmy
from rules.bots import make_bot
from rules.bots.plans import aimed_plans, distances, targets
from rules.bots.search import STRONG, SearchBot
from rules.state import NO


def tiny(seed: int = 1, **changes) -> SearchBot:
    """The strong level with a budget of a few playouts, in this process."""
    bot = make_bot("strong", seed, processes=1)
    assert isinstance(bot, SearchBot)
    changes = {"playouts": 12, "horizon": 2, "far_horizon": 3, **changes}
    bot.settings = replace(bot.settings, **changes)
    bot.budget = 30.0
    return bot


def on_factory_space(game: Game, nation: str) -> None:
    """Make it ``nation``'s turn and choose the Factory space on the rondel."""
    s = game.state
    n = s.board.nations.index(next(x for x in s.board.nations if x.code == nation))
    s.turn = n
    s.rondel[n] = NO
    s.todo = ()
    s.awaiting_kind = "rondel"
    s.awaiting_player = s.government[n]
    s.awaiting_nation = n
    s.ctx = None
    s.turn_ctx = None
    game.apply(ChooseRondel(nation, "factory"))


def test_a_factory_space_chosen_with_the_money_and_a_free_site_builds() -> None:
    """Austria-Hungary chose the Factory space with 21M in its treasury and a free site, then
    built nothing (the issue's example): the strong level uses the space it chose."""
    game = new_game()
    game.state.treasury[0] = 21
    on_factory_space(game, "AH")
    assert game.awaiting.kind == "build_factory"
    sites = [a for a in game.legal_actions() if isinstance(a, BuildFactory) and a.region]
    assert sites and BuildFactory("AH", None) in game.legal_actions()
    for seed in range(3):
        choice = tiny(seed).decide(game)
        assert isinstance(choice.action, BuildFactory) and choice.action.region, choice
        assert choice.action in sites


def raid_position() -> Game:
    """Austria-Hungary maneuvers with three armies in Trieste, next to Venice, where Italy,
    governed by the leading rival, has a factory; every neutral region already carries an
    Austrian flag, so no move plants one: the good plan is to strike at Venice."""
    game = new_game()
    s = game.state
    set_factories(game, "IT", ["rome", "naples", "venice"])
    place(game, "AH", "army", "trieste", 3)
    for reg in s.board.regions:
        if reg.kind != "province":
            set_flag(game, reg.id, "AH")
    s.cash[1] = 60  # Ben (Italy) leads by far: hurting Italy is what counts
    start_maneuver(game, "AH")
    return game


def test_a_raid_plan_is_among_the_plans_and_its_targets_are_the_rivals_factories() -> None:
    game = raid_position()
    s = game.state
    venice = s.board.index["venice"]
    assert venice in targets(s, 0, "raid")
    assert distances(s, 0, targets(s, 0, "raid"), fleets=False)[s.board.index["trieste"]] == 1
    plans = aimed_plans(s, random.Random(1))
    raids = [p for p in plans if p.aim == "raid"]
    assert raids and any(
        isinstance(a, MoveArmy) and a.dest == "venice" and a.status == "hostile"
        for a in raids[0].actions
    )


def test_the_maneuver_search_finds_the_attack_on_the_rivals_factory() -> None:
    game = raid_position()
    for seed in range(2):
        choice = tiny(seed).decide(game)
        a = choice.action
        assert isinstance(a, MoveArmy) and a.dest == "venice" and a.status == "hostile", choice


def test_a_plan_is_followed_while_the_game_goes_as_planned() -> None:
    """The chosen plan is played move by move without searching again; a position the plan
    did not expect (here: a move taken back and another played) makes the bot search."""
    game = raid_position()
    bot = tiny(1)
    first = bot.decide(game)
    plan = [str(action) for _, action in bot._plan]
    assert plan
    game.apply(first.action)
    searched = bot.stats["searched"]
    while game.awaiting is not None and game.awaiting.kind in ("maneuver", "battle"):
        if game.awaiting.player != "Anna":
            break
        game.apply(bot.decide(game).action)
    assert bot.stats["searched"] == searched  # followed, not searched again
    assert [str(a) for a in game.history[2 : 2 + len(plan)]] == plan
    other = raid_position()
    bot = tiny(1)
    assert bot.decide(other).action == first.action
    legal = [a for a in other.legal_actions() if isinstance(a, MoveArmy) and a.dest == "vienna"]
    other.apply(legal[0])  # not the plan's move
    choice = bot.decide(other)
    assert bot.stats["followed"] == 0 and choice.action in other.legal_actions()


def test_a_nation_turn_keeps_within_the_turn_time() -> None:
    """Once a nation turn's decisions used the turn's time, a further decision of that turn
    gets only a tenth of the budget."""
    bot = tiny(1)
    game = raid_position()
    s = game.state
    bot.budget = 1.0
    assert bot._budget_for(s, "maneuver") == STRONG.maneuver_time
    bot._turn_spent = STRONG.turn_time - 0.2
    assert abs(bot._budget_for(s, "maneuver") - 0.2) < 1e-9
    bot._turn_spent = STRONG.turn_time + 5
    assert bot._budget_for(s, "battle") == 0.1
    s2 = game.copy().state
    s2.turn = (s.turn + 1) % 6  # another nation's turn starts afresh
    assert bot._budget_for(s2, "rondel") == 1.0


def test_a_seeded_strong_game_replays_identically() -> None:
    def run() -> list[str]:
        game = Game.new(["Anna", "Ben", "Cleo"], seed=12)
        quick = {"playouts": 4, "horizon": 1, "far_horizon": 2}
        bots = {"Anna": tiny(5, **quick), "Ben": make_bot("greedy", 6), "Cleo": tiny(7, **quick)}
        while game.awaiting is not None and len(game.plies) < 70:
            game.apply(bots[game.awaiting.player].choose(game))
        return [str(a) for a in game.history]

    assert run() == run()
