"""Enter on the map does what the footer says (issue #24, play log O3): with no unit opened,
a destination the map marks (◆, the moves of the unit the decision list highlights) was
shown as region details while the footer said "⏎ choose here". Now Enter there moves the
highlighted unit, and where Enter only shows the region the footer says "details"."""

from __future__ import annotations

from maneuver_helpers import new_game, place, start_maneuver, units
from pilot import drive, highlight, screen_lines, until

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.dialogs import ChoiceScreen, InfoScreen
from imperial_tui.app.widgets.map import MapView
from imperial_tui.model.session import Session


def footer(app: ImperialApp) -> str:
    return screen_lines(app)[-1]


async def test_enter_on_a_marked_destination_moves_the_highlighted_unit() -> None:
    game = new_game()
    place(game, "AH", "army", "vienna")
    place(game, "AH", "fleet", "ionian_sea")
    start_maneuver(game, "AH")
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        # the army in Vienna highlighted in the list, not opened: the map marks its moves
        await highlight(pilot, "g:move_army:vienna")
        await until(pilot, lambda: "romania" in screen.map_model.marks.destinations)
        await pilot.press("5", "g", *"RUM", "enter")
        await until(pilot, lambda: screen.map_model.cursor == "romania")
        assert isinstance(app.focused, MapView)
        await until(pilot, lambda: "choose here" in footer(app))
        assert "Enter: move to Romania" in str(screen.query_one("#map-info").render())
        await pilot.press("enter")
        await until(pilot, lambda: units(game, "AH", "army", "romania") == 1)
        assert units(game, "AH", "army", "vienna") == 0


async def test_where_enter_only_shows_the_region_the_footer_says_details() -> None:
    game = new_game()
    place(game, "AH", "army", "vienna")
    start_maneuver(game, "AH")
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("5", "g", *"LON", "enter")  # nothing to choose in London
        await until(pilot, lambda: app.screen.map_model.cursor == "london")
        await until(pilot, lambda: "details" in footer(app))
        assert "choose here" not in footer(app)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, InfoScreen))
        await pilot.press("escape")
        await pilot.press("g", *"VIE", "enter")  # the army: Enter chooses it
        await until(pilot, lambda: "choose here" in footer(app))


async def test_a_marked_destination_with_a_unit_of_ones_own_asks_which() -> None:
    """Budapest is a destination of the army in Vienna, highlighted in the list, and holds an
    army of its own: Enter there asks, so the unit the player went to is not moved past."""
    game = new_game()
    place(game, "AH", "army", "vienna")
    place(game, "AH", "army", "budapest")
    start_maneuver(game, "AH")
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app) as pilot:
        await pilot.pause()
        board = app.screen
        await highlight(pilot, "g:move_army:vienna")
        await until(pilot, lambda: "budapest" in board.map_model.marks.destinations)
        await pilot.press("5", "g", *"BUD", "enter")
        await until(pilot, lambda: board.map_model.cursor == "budapest")
        assert "Enter: choose in Budapest" in str(board.query_one("#map-info").render())
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        labels = [str(label) for label in app.screen.labels]
        assert labels[0].startswith("Army Vienna → Budapest"), labels
        assert any(label.startswith("Army in Budapest:") for label in labels), labels
        await pilot.press("enter")  # the first: the army from Vienna
        await until(pilot, lambda: units(game, "AH", "army", "budapest") == 2)
        assert units(game, "AH", "army", "vienna") == 0
