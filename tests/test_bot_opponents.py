"""A search player with ``far_horizon`` watches how predictable the other players are
(``rules.bots.opponents``): it looks further ahead only while their rondel choices are the ones
its playouts simulate, from public moves only, and starts afresh after an undo."""

from __future__ import annotations

from dataclasses import replace

from rules import Game
from rules.bots import make_bot
from rules.bots.opponents import TableWatch

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def played(levels: list[str], plies: int, seed: int = 3) -> Game:
    names = NAMES[: len(levels)]
    game = Game.new(names, seed=seed)
    bots = {
        n: make_bot(level, seed + i) for i, (n, level) in enumerate(zip(names, levels, strict=True))
    }
    while game.awaiting is not None and len(game.plies) < plies:
        game.apply(bots[game.awaiting.player].choose(game))
    return game


def test_greedy_players_play_as_predicted() -> None:
    game = played(["greedy"] * 4, 150)
    watch = TableWatch()
    watch.update(game, "Anna")
    assert watch.seen >= 12
    assert watch.agreed >= 0.9 * watch.seen
    assert watch.predictable(0.9, 8)


def test_random_players_do_not() -> None:
    game = played(["random"] * 4, 150)
    watch = TableWatch()
    watch.update(game, "Anna")
    assert watch.seen >= 12
    assert not watch.predictable(0.9, 8)


def test_a_players_own_choices_are_not_counted() -> None:
    game = played(["greedy"] * 4, 150)
    everyone, others = TableWatch(), TableWatch()
    everyone.update(game, "nobody")
    others.update(game, "Anna")
    assert 0 < others.seen < everyone.seen


def test_the_watch_reads_public_moves_only() -> None:
    """A rival's cash edited by hand (no public move made it) changes nothing."""
    game = played(["greedy"] * 4, 150)
    edited = game.copy()
    edited.state.cash[1] += 500
    plain, changed = TableWatch(), TableWatch()
    plain.update(game, "Anna")
    changed.update(edited, "Anna")
    assert (plain.seen, plain.agreed) == (changed.seen, changed.agreed)


def test_after_an_undo_the_watch_starts_afresh() -> None:
    game = played(["greedy"] * 4, 150)
    watch = TableWatch()
    watch.update(game, "Anna")
    seen = watch.seen
    earlier = Game(game.setup)
    for action in game.history[:40]:
        earlier.apply(action)
    watch.update(earlier, "Anna")
    assert watch.seen < seen
    watch.update(game, "Anna")  # and forward again, move by move
    assert watch.seen == seen


def watching(seed: int = 1):
    """The strong level, which looks 10 nation turns ahead at a predictable table."""
    bot = make_bot("strong", seed)
    assert bot.settings.far_horizon == 10
    return bot


def test_far_horizon_only_at_a_predictable_table() -> None:
    strong = watching()
    opening = Game.new(NAMES, seed=3)
    assert strong._settings_now(opening).horizon == 6  # nothing seen yet
    greedy_table = played(["greedy"] * 4, 150)
    assert watching()._settings_now(greedy_table).horizon == 10
    random_table = played(["random"] * 4, 150)
    assert watching()._settings_now(random_table).horizon == 6
    assert make_bot("normal", 1)._settings_now(greedy_table).horizon == 4  # off for normal


def test_the_reason_says_when_it_looked_far_ahead() -> None:
    game = played(["greedy"] * 4, 150)
    while game.awaiting.kind != "rondel" or len(game.legal_actions()) < 2:
        game.apply(make_bot("greedy", 1).choose(game))
    strong = watching()
    strong.settings = replace(strong.settings, playouts=4, processes=1)
    choice = strong.decide(game)
    assert choice.action in game.legal_actions()
    assert "10 turns ahead" in choice.reason
