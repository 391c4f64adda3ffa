"""SVG snapshots of the new-game screen, the main screen mid-game, the map in a Maneuver
(Unicode and ASCII, and widened with z at 80x24), the score screen, the "since your last turn"
recap, the standings and the history browser at 80x24 and 120x40, and an Imperial 2030 game
(mid-game, and the canal decision with the world map) at both sizes (pytest-textual-snapshot;
update with `--snapshot-update`).

The games are hot-seat games opened on a player's decision: the player is greeted with the
recap, which the board snapshots close first (escape)."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game, RuleSet
from rules.bots import GreedyBot, RandomBot, play_out

SIZES = [(80, 24), (120, 40)]


async def recap_up(pilot: Pilot[None]) -> None:
    """Wait until the recap that greets a hot-seat player is up: it opens a frame after the
    board."""
    for _ in range(200):
        if type(pilot.app.screen).__name__ == "RecapScreen":
            return
        await pilot.pause(0.02)


async def settled(pilot: Pilot[None]) -> None:
    """The board, once the recap has come and been closed (an escape pressed at once could
    come before the recap: on a busy machine the snapshot then caught the recap)."""
    await recap_up(pilot)
    await pilot.press("escape")
    await pilot.pause()


async def steady_cursor(pilot: Pilot[None]) -> None:
    """The text cursor stays drawn (its blinking made the picture depend on the instant)."""
    from textual.widgets import Input

    await pilot.pause()
    for field in pilot.app.screen.query(Input):
        field.cursor_blink = False
    await pilot.pause()


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
    assert snap_compare(
        ImperialApp(seed=42, pace=0.0, ascii_only=False),
        terminal_size=size,
        run_before=steady_cursor,
    )


@pytest.mark.parametrize("size", SIZES)
def test_main_screen_mid_game(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(mid_game(), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_main_screen_regions_panel(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(mid_game(), terminal_size=size, run_before=settled, press=["3"])


def test_since_your_last_turn(snap_compare) -> None:
    assert snap_compare(mid_game(), terminal_size=(80, 24), run_before=recap_up)


def test_standings(snap_compare) -> None:
    assert snap_compare(mid_game(), terminal_size=(80, 24), run_before=settled, press=["v"])


@pytest.mark.parametrize("size", SIZES)
def test_history(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(mid_game(), terminal_size=size, run_before=settled, press=["h", "left"])


def maneuver(ascii_only: bool) -> ImperialApp:
    """Round 10: Germany (Dan) maneuvers with fleets in Hamburg and armies in Berlin, Denmark
    and Holland; the other nations' units, flags and factories all over the board."""
    game = Game.new(PLAYERS, seed=2)
    bot = GreedyBot(2)
    for _ in range(120):
        game.apply(bot.choose(game))
    while True:
        if game.awaiting.kind == "rondel" and game.state.units_of(game.state.turn) >= 4:
            moves = [a for a in game.legal_actions() if "maneuver" in str(a)]
            if moves:
                game.apply(moves[0])
                break
        game.apply(bot.choose(game))
    return ImperialApp(session=Session(game, humans(), None), pace=0.0, ascii_only=ascii_only)


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
@pytest.mark.parametrize("size", SIZES)
def test_map_in_a_maneuver(snap_compare, size: tuple[int, int], ascii_only: bool) -> None:
    """The Maneuver brings the map up; the decision list's second unit (the armies in Berlin)
    is highlighted, so the map shows them and every destination of theirs."""
    assert snap_compare(
        maneuver(ascii_only), terminal_size=size, run_before=settled, press=["down"]
    )


def test_map_widened_at_80x24(snap_compare) -> None:
    assert snap_compare(
        maneuver(False), terminal_size=(80, 24), run_before=settled, press=["down", "z"]
    )


@pytest.mark.parametrize("size", SIZES)
def test_score_screen(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(finished(), terminal_size=size)


def mid_game_2030() -> ImperialApp:
    game = Game.new(PLAYERS, rules=RuleSet.preset(game="2030"), seed=2)
    bot = GreedyBot(2)
    for _ in range(45):
        game.apply(bot.choose(game))
    return ImperialApp(session=Session(game, humans(), None), pace=0.0, ascii_only=False)


def canal_2030() -> ImperialApp:
    """Brazil (Dan) asked to let a US fleet through the Panama Canal (Brazil's flag stands in
    Colombia); the map is up for the Maneuver."""
    from test_app_2030 import CROSS, hot_seat, us_fleet_at_panama

    game = us_fleet_at_panama()
    game.apply(CROSS)
    return ImperialApp(session=hot_seat(game), pace=0.0, ascii_only=False)


@pytest.mark.parametrize("size", SIZES)
def test_2030_main_screen_mid_game(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(mid_game_2030(), terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES)
def test_2030_canal_decision_on_the_world_map(snap_compare, size: tuple[int, int]) -> None:
    """At 120x40 the whole world beside the decision; at 80x24 the map's window on Colombia,
    whose flag decides."""
    assert snap_compare(canal_2030(), terminal_size=size, run_before=settled)
