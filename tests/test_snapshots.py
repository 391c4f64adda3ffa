"""SVG snapshots of the new-game screen, the main screen mid-game and the score screen at
80x24 and 120x40 (pytest-textual-snapshot; update with `--snapshot-update`)."""

from __future__ import annotations

import pytest

from imperial_tui.app import ImperialApp
from imperial_tui.session import Session
from rules import Game
from rules.bots import GreedyBot, RandomBot, play_out

SIZES = [(80, 24), (120, 40)]
PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def humans() -> dict[str, str]:
    return {p: "human" for p in PLAYERS}


def mid_game() -> ImperialApp:
    game = Game.new(PLAYERS, seed=2)
    bot = GreedyBot(2)
    for _ in range(45):
        game.apply(bot.choose(game))
    return ImperialApp(session=Session(game, humans(), None), pace=0.0, ascii_only=False)


def finished() -> ImperialApp:
    game = Game.new(PLAYERS, seed=3)
    play_out(
        game, {"Anna": GreedyBot(1), "Ben": RandomBot(2), "Cleo": GreedyBot(3), "Dan": RandomBot(4)}
    )
    return ImperialApp(session=Session(game, humans(), None), pace=0.0, ascii_only=False)


@pytest.mark.parametrize("size", SIZES)
def test_new_game_screen(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(ImperialApp(seed=42, pace=0.0, ascii_only=False), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen_mid_game(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(mid_game(), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen_regions_panel(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(mid_game(), terminal_size=size, press=["3"])


@pytest.mark.parametrize("size", SIZES)
def test_score_screen(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(finished(), terminal_size=size)
