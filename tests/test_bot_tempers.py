"""The strong level tells apart how each other player plays (issue 25): the table watch
weighs each temper (the plain player's, the warmonger's, the banker's weights and
tendencies) by how likely it made the player's rondel choices, and the playouts play each
seat with a temper drawn by those chances."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules import Game
from rules.bots.evaluation import Weights
from rules.bots.greedy import GreedyBot
from rules.bots.opponents import TableWatch, softmax_chance
from rules.bots.personalities import PERSONALITIES, TEMPERS
from rules.bots.playout import seat_players
from rules.bots.policy import Policy
from rules.bots.search import STRONG, SearchBot
from rules.bots.style import PLAIN

NAMES = ["Anna", "Ben", "Cleo", "Dan"]
PLAIN_AT, WARMONGER_AT, BANKER_AT = (
    [t.name for t in TEMPERS].index(n) for n in ("plain", "warmonger", "banker")
)


@pytest.fixture(scope="module")
def mixed_table() -> Game:
    """300 moves of greedy players: Ben with the banker's weights and tendencies, Cleo with
    the warmonger's, Anna and Dan plain."""
    game = Game.new(NAMES, seed=1)
    bots = {
        "Anna": GreedyBot(1),
        "Ben": GreedyBot(2, False, *PERSONALITIES["banker"]),
        "Cleo": GreedyBot(3, False, *PERSONALITIES["warmonger"]),
        "Dan": GreedyBot(4),
    }
    while game.awaiting is not None and len(game.plies) < 300:
        game.apply(bots[game.awaiting.player].choose(game))
    return game


def test_the_watch_tells_each_players_temper_by_his_rondel_choices(mixed_table) -> None:
    watch = TableWatch(temperature=2.0)
    watch.update(mixed_table, "Anna")
    chances = {p: watch.tempers(p) for p in (1, 2, 3)}
    for p, temper in ((1, BANKER_AT), (2, WARMONGER_AT), (3, PLAIN_AT)):
        assert max(range(len(TEMPERS)), key=chances[p].__getitem__) == temper, chances[p]
        assert sum(chances[p]) == pytest.approx(1.0)


def test_before_any_choice_a_player_is_taken_for_the_plain_one() -> None:
    chances = TableWatch(temperature=2.0).tempers(1)
    assert chances == tuple(t.prior for t in TEMPERS)
    assert chances[PLAIN_AT] == max(chances)


def test_without_a_temperature_the_watch_weighs_no_temper(mixed_table) -> None:
    """The other levels' watch counts greedy's hits only, and counts the same ones."""
    plain, reading = TableWatch(), TableWatch(temperature=2.0)
    plain.update(mixed_table, "Anna")
    reading.update(mixed_table, "Anna")
    assert plain.fit == {}
    assert (plain.seen, plain.agreed, plain.by_player) == (
        reading.seen,
        reading.agreed,
        reading.by_player,
    )


def test_a_softmax_gives_the_best_space_the_most_and_an_unvalued_one_nothing() -> None:
    looks = {"a": 3.0, "b": 1.0, "c": -1.0}
    chances = {k: softmax_chance(looks, k, 2.0) for k in looks}  # type: ignore[arg-type]
    assert sum(chances.values()) == pytest.approx(1.0)
    assert chances["a"] > chances["b"] > chances["c"]
    assert softmax_chance(looks, "d", 2.0) == 0.0  # type: ignore[arg-type]


def test_a_seat_sure_to_be_a_banker_plays_the_playout_with_the_bankers_weights() -> None:
    settings = replace(STRONG, seat_tempers=((), (0.0, 0.0, 1.0), (1.0, 0.0, 0.0), ()))
    plain = Weights(learned=4)
    policy = Policy(random.Random(0), PLAIN)
    seats = seat_players(4, 0, settings, plain, policy, random.Random(1))
    banker = PERSONALITIES["banker"]
    assert seats[1][0] == banker[0]
    assert seats[1][1].style == replace(banker[1], noise=settings.noise)
    for p in (0, 2, 3):  # the searching player's own seat, a plain one, one not read
        assert seats[p] == (plain, policy)


def test_a_player_read_as_unsure_is_played_in_each_temper_by_its_chance() -> None:
    settings = replace(STRONG, seat_tempers=((), (0.5, 0.25, 0.25)))
    plain = Weights(learned=4)
    policy = Policy(random.Random(0), PLAIN)
    rng = random.Random(7)
    drawn = [seat_players(2, 0, settings, plain, policy, rng)[1][0] for _ in range(2000)]
    shares = [drawn.count(w) / 2000 for w in (plain, *(w for w, _ in PERSONALITIES.values()))]
    assert shares == pytest.approx([0.5, 0.25, 0.25], abs=0.04)


def test_without_tempers_the_playouts_draw_nothing_more() -> None:
    """The other levels' playouts (no ``seat_tempers``) use the random numbers as before."""
    rng = random.Random(3)
    seat_players(4, 0, replace(STRONG, seat_tempers=()), Weights(), Policy(rng, PLAIN), rng)
    assert rng.random() == random.Random(3).random()


def test_a_search_bot_reading_tempers_gives_its_playouts_each_seats_chances(mixed_table) -> None:
    bot = SearchBot(1, settings=replace(STRONG, read_tempers=True))
    try:
        now = bot._settings_now(mixed_table)
        me = mixed_table.players.index(mixed_table.awaiting.player)
        assert len(now.seat_tempers) == 4
        assert now.seat_tempers[me] == ()
        for p, chances in enumerate(now.seat_tempers):
            if p != me:
                assert sum(chances) == pytest.approx(1.0)
        assert max(range(len(TEMPERS)), key=now.seat_tempers[1].__getitem__) == BANKER_AT
    finally:
        bot.close()
