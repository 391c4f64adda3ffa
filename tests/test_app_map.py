"""The map panel driven by keys (Pilot): the Maneuver brings the map up, a unit and its
destination are chosen on the map, the highlighted destinations are exactly the legal moves,
battles are marked, region details come from the map and from the region list (with their
keys in view at 80x24), and z widens the map at 80x24."""

from __future__ import annotations

import pytest
from maneuver_helpers import new_game, place, start_maneuver, units
from pilot import drive, humans, option_texts, screen_text, until
from textual.widgets import ContentSwitcher

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.dialogs import ChoiceScreen, InfoScreen
from imperial_tui.app.widgets.decision import DecisionPanel
from imperial_tui.app.widgets.map import MapView
from imperial_tui.model.session import Session
from rules import Game


def army_destinations(game, origin: str) -> set[str]:
    return {
        a.dest  # type: ignore[attr-defined]
        for a in game.legal_actions()
        if a.kind == "move_army" and a.origin == origin  # type: ignore[attr-defined]
    }


async def goto(pilot, label: str) -> None:
    """g, the label, enter: the cursor jumps to a region."""
    await pilot.press("g", *label, "enter")
    await pilot.pause()


async def walk(pilot, app, key: str, region: str, limit: int = 6) -> None:
    """Press an arrow until the map cursor is on ``region``."""
    for _ in range(limit):
        if app.screen.map_model.cursor == region:
            return
        await pilot.press(key)
        await pilot.pause()
    assert app.screen.map_model.cursor == region


def austria_maneuvers():
    g = new_game()
    place(g, "AH", "army", "vienna", 2)
    place(g, "AH", "fleet", "ionian_sea")
    start_maneuver(g, "AH")
    return g, Session(g, dict.fromkeys(g.players, "human"), None)


async def test_a_maneuver_chosen_on_the_map_by_keys():
    g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.shown_panel() == "map"  # the Maneuver brought the map up
        await pilot.press("5")  # into the map: arrows now move its cursor
        assert isinstance(app.focused, MapView)
        await goto(pilot, "VIE")
        assert screen.map_model.cursor == "vienna"
        await pilot.press("enter")  # the armies in Vienna: their moves open
        await pilot.pause()
        panel = screen.query_one(DecisionPanel)
        assert panel.open_key == "move_army:vienna"
        marks = screen.map_model.marks
        assert marks.origin == "vienna"
        assert marks.destinations == army_destinations(g, "vienna")
        assert "romania" in marks.destinations  # rail to Budapest, then one step
        assert "budapest" in marks.rail
        # the picture shows them: the info line counts them
        info = str(screen.query_one("#map-info").render())
        assert f"Army Vienna: {len(marks.destinations)} destinations" in info
        await walk(pilot, app, "right", "budapest")
        await walk(pilot, app, "right", "romania")
        await pilot.press("enter")  # one legal move there: it is played
        await pilot.pause()
        assert units(session.game, "AH", "army", "romania") == 1
        assert units(session.game, "AH", "army", "vienna") == 1
        assert any(str(p.action) == "AH move army vienna -> romania" for p in g.plies)


async def test_the_decision_list_highlight_draws_the_unit_and_its_moves():
    g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.shown_panel() == "map"
        assert screen.query_one("#map-view-wide").region.width >= 74  # all of it
        ol = screen.query_one("#decision-options")
        options = [ol.get_option_at_index(i) for i in range(ol.option_count)]
        ids = [o.id for o in options if not o.disabled]  # headings are skipped
        # up/down in the list: the map follows the highlighted unit
        await pilot.press("home", *["down"] * ids.index("g:move_army:vienna"))
        await pilot.pause()
        marks = screen.map_model.marks
        assert marks.origin == "vienna"
        assert marks.destinations == army_destinations(g, "vienna")
        assert screen.map_model.cursor == "vienna"
        await pilot.press("enter", "down")  # the unit's moves, the first destination
        await pilot.pause()
        chosen = screen.query_one(DecisionPanel).highlighted_actions()
        assert len({a.dest for a in chosen}) == 1  # type: ignore[attr-defined]  (one line)
        assert screen.map_model.marks.chosen == chosen[0].dest  # type: ignore[attr-defined]
        assert screen.map_model.cursor == chosen[0].dest  # type: ignore[attr-defined]
        # no unit highlighted ("End maneuver"): the units that can still move are marked
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        origins = {
            a.origin  # type: ignore[attr-defined]
            for a in g.legal_actions()
            if a.kind in ("move_army", "move_fleet")
        }
        assert screen.map_model.marks.origin is None
        assert screen.map_model.marks.movable == origins == {"vienna", "ionian_sea"}


async def test_two_moves_to_one_region_are_told_apart_in_a_choice():
    """Into a foreign home province the army goes hostile or friendly: Enter asks which."""
    _g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("5")
        await goto(pilot, "VIE")
        await pilot.press("enter")
        await goto(pilot, "MUN")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceScreen)
        options = [str(label) for label in app.screen.labels]
        assert any("hostile" in o for o in options) and any("friendly" in o for o in options)
        friendly = next(i for i, o in enumerate(options) if "friendly" in o)
        await pilot.press(*["down"] * friendly, "enter")
        await pilot.pause()
        assert units(session.game, "AH", "army", "munich") == 1
        assert session.game.state.friendly[0][session.game.state.board.index["munich"]] == 1


async def test_a_battle_in_progress_is_marked_on_the_map():
    g = new_game()
    place(g, "AH", "fleet", "ionian_sea")
    place(g, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(g, "RU")
    g.apply("RU move fleet eastern_mediterranean -> ionian_sea")
    assert g.awaiting.kind == "battle"
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.shown_panel() == "map"
        assert screen.map_model.marks.battle == "ionian_sea"
        assert "Battle in Ionian Sea" in str(screen.query_one("#map-info").render())


async def test_region_details_from_the_map_and_from_the_region_list():
    _g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("5")
        await goto(pilot, "VEN")
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, InfoScreen)
        text = str(app.screen.query_one("#info-text").render())
        assert "Venice (VEN)" in text and "home province of IT" in text
        assert "Borders by land:" in text and "Vienna (VIE)" in text
        assert "Coast on: Ionian Sea (ION)" in text
        assert "AH 2 armies in Vienna (one step)" in text  # who can reach it
        await pilot.press("escape")
        await pilot.pause()
        # the region list: tab to it, pick Budapest, enter
        await pilot.press("3")
        screen = app.screen
        screen.query_one("#regions-panel").focus()
        await pilot.pause()
        await pilot.press("down", "down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, InfoScreen)
        assert "Budapest (BUD)" in str(app.screen.query_one("#info-text").render())
        await pilot.press("escape")
        await pilot.pause()
        assert screen.map_model.cursor == "budapest"  # the map follows the list


async def test_z_widens_the_map_over_the_whole_80_columns():
    _g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        view = screen.query_one("#map-view", MapView)
        narrow = view.region.width
        await pilot.press("z")
        await pilot.pause()
        assert screen.has_class("-zoom")
        assert view.region.width > narrow and view.region.width >= 76
        assert app.focused is view
        await pilot.press("escape")  # nothing open in the decision: back to it
        await pilot.pause()
        assert not screen.has_class("-zoom")
        assert app.focused is screen.query_one("#decision-options")


async def test_the_map_goes_away_when_the_maneuver_is_over():
    g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.shown_panel() == "map"
        app.apply_human(next(a for a in g.legal_actions() if a.kind == "end_maneuver"))
        await pilot.pause()
        assert screen.shown_panel() == "rondel"  # the panel it replaced


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_panel_keys_switch_back_and_forth_during_a_maneuver_at_both_sizes(
    size: tuple[int, int],
) -> None:
    """1-5 during a Maneuver (the map came up by itself): each key shows its panel at once
    and the layout settles (no tug of war between the two layouts' switches)."""
    _g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, size) as pilot:
        await pilot.pause()
        screen = app.screen
        for key, name in (("1", "rondel"), ("5", "map"), ("3", "regions"), ("5", "map")):
            await pilot.press(key)
            await pilot.pause()
            assert screen.shown_panel() == name
            assert screen.map_shown() == (name == "map")
        if size == (120, 40):
            assert screen.query_one("#wide-right").has_class("-map")
            assert screen.query_one("#map-view-wide").region.width >= 74


async def test_the_map_and_its_keys_follow_a_resize_between_the_layouts():
    _g, session = austria_maneuvers()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        await pilot.press("5")
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#wide-right").has_class("-map")
        assert app.focused is screen.query_one("#map-view-wide")
        before = screen.map_model.cursor
        await pilot.press("right")
        await pilot.pause()
        assert screen.map_model.cursor != before
        await pilot.press("2")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#panes", ContentSwitcher).current == "bonds"


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_region_details_keep_their_keys_on_screen_however_far_they_scroll(
    size: tuple[int, int],
) -> None:
    """A region's details are taller than an 80x24 window: the line naming their keys was at
    the end of the text, scrolled out of view, so the player did not see how to leave
    (found by playing). It stays on screen at the top, scrolled to the end, and in between."""
    names = ["Anna", "Ben", "Cleo", "Dan"]
    game = Game.new(names, seed=3)
    session = Session(game, dict.fromkeys(names, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, size, opened=True) as pilot:
        await pilot.press("3")
        # the list on screen: the tab's at 80x24, the wide layout's own copy at 120x40
        app.screen.query_one("#regions-panel" if size == (80, 24) else "#regions-wide").focus()
        await pilot.pause()
        await pilot.press("enter")  # Vienna, the list's first region
        await until(pilot, lambda: isinstance(app.screen, InfoScreen), what="the details")
        scroll = app.screen.query_one(".info")
        if size == (80, 24):
            assert scroll.max_scroll_y > 0  # (taller than the window: the case in question)
        for keys in ([], ["pagedown"], ["end"]):
            await pilot.press(*keys)
            await pilot.pause()
            assert "escape close   up/down scroll" in screen_text(app), keys
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, InfoScreen), what="closed")


async def test_go_to_an_unknown_region_keeps_the_box_open_saying_so() -> None:
    """g, a label that is no region: the box stays open with the reason (closed, the next
    Enter would go to the decision list behind it); the cursor stays where it was."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    app = ImperialApp(session=Session(game, humans(game), None), pace=0.0)
    async with drive(app, (120, 40), opened=True) as pilot:
        await pilot.press("5")  # the map has the keys
        before = app.screen.map_model.cursor
        await pilot.press("g", *"XYZ", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "PromptScreen"
        assert "no region 'XYZ' on the map" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen.map_model.cursor == before
        await goto(pilot, "BER")
        assert app.screen.map_model.cursor == "berlin"


async def test_a_units_line_counts_its_destinations_as_the_map_does() -> None:
    """An army in Vienna may end hostile or friendly in a neighbour's home province and
    reach a coast by rail or by convoy: several moves to one place. Its line in the list
    counted the moves ("12 moves") while the map said "10 destinations" (a newcomer's
    report); both count the places now."""
    g, session = austria_maneuvers()
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        places = army_destinations(g, "vienna")
        moves = [a for a in g.legal_actions() if getattr(a, "origin", None) == "vienna"]
        assert len(moves) > len(places)  # (else this shows nothing)
        line = next(t for t in option_texts(app) if t.startswith("Army  Vienna"))
        assert f" {len(places):2} moves" in line
        await pilot.press("5")
        await goto(pilot, "VIE")
        await pilot.press("enter")
        await pilot.pause()
        info = str(app.screen.query_one("#map-info").render())
        assert f"Army Vienna: {len(places)} destinations" in info
