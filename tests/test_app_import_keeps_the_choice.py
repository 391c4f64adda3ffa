"""Importing several units into one region (issue #24, play log O5): after each import the
list's highlight went back to the first row, so two armies in London took Down, Enter,
Down, Enter. The highlight now stays on the choice just made while it is still offered."""

from __future__ import annotations

from maneuver_helpers import new_game, units
from pilot import drive, option_texts, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.actions import NATION_CODES
from rules.decisions import Decision
from rules.state import NO


def britain_imports() -> Game:
    """Great Britain's turn with its marker put on Import (13M in the treasury)."""
    game = new_game()
    s = game.state
    n = NATION_CODES.index("GB")
    s.turn, s.rondel[n], s.todo = n, NO, ()
    s.awaiting_kind, s.awaiting_player, s.awaiting_nation = "rondel", s.government[n], n
    s.ctx = s.turn_ctx = None
    game.apply("GB rondel import")
    return game


async def test_two_armies_into_london_are_down_enter_enter() -> None:
    game = britain_imports()
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app) as pilot:
        await pilot.pause()
        ol = app.screen.query_one("#decision-options")
        texts = option_texts(app)
        assert texts.index("army in London (1M)") == 1
        await pilot.press("home", "down", "enter")
        await until(pilot, lambda: units(game, "GB", "army", "london") == 1)
        await until(pilot, lambda: ol.highlighted is not None)
        assert option_texts(app)[ol.highlighted] == "army in London (1M)"
        await pilot.press("enter")
        await until(pilot, lambda: units(game, "GB", "army", "london") == 2)
        assert game.awaiting.kind == Decision.IMPORT  # a third import is still to choose
        await pilot.pause()
        assert option_texts(app)[ol.highlighted] == "army in London (1M)"
