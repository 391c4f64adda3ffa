"""When a new decision arrives, the keys go where it is answered and the map to the region it
is about (issue #24, items 1 and 3): a battle after a move chosen on the map is answered from
the decision list without a Tab, the Maneuver then goes on on the map, and at 80x24 the map
window shows the battle even when the cursor was elsewhere."""

from __future__ import annotations

from maneuver_helpers import new_game, place, start_maneuver
from pilot import drive, until

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.dialogs import ChoiceScreen
from imperial_tui.app.widgets.map import MapView
from imperial_tui.model.session import Session
from rules.decisions import Decision


async def goto(pilot, label: str) -> None:
    """g, the label, enter: the map cursor jumps to a region."""
    await pilot.press("g", *label, "enter")
    await pilot.pause()


async def test_a_battle_after_a_move_on_the_map_takes_the_keys_to_the_decision_list():
    game = new_game()
    place(game, "RU", "army", "romania")
    place(game, "AH", "army", "budapest")
    start_maneuver(game, "RU")
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("5")  # the keys on the map
        assert isinstance(app.focused, MapView)
        await goto(pilot, "RUM")
        await pilot.press("enter")  # the army in Romania
        await pilot.pause()
        await goto(pilot, "BUD")
        await pilot.press("enter")  # Budapest: hostile or friendly?
        await until(pilot, lambda: isinstance(app.screen, ChoiceScreen))
        hostile = next(i for i, o in enumerate(app.screen.labels) if "hostile" in str(o))
        await pilot.press(*["down"] * hostile, "enter")
        await until(pilot, lambda: game.awaiting.kind == Decision.BATTLE)
        await until(pilot, lambda: app.focused is not None)
        # the battle question: its answers have the keys, no Tab needed
        assert app.focused.id == "decision-options"
        assert app.screen.map_model.cursor == "budapest"
        await pilot.press("home", "enter")  # the first answer: fight
        await until(pilot, lambda: game.awaiting.kind == Decision.MANEUVER)
        assert "fights" in str(game.plies[-1].action)
        # the Maneuver goes on where the player was making it: on the map
        await until(pilot, lambda: isinstance(app.focused, MapView))


async def test_the_map_at_80x24_shows_the_battle_the_decision_is_about():
    game = new_game()
    for region in ("st_petersburg", "moscow", "warsaw", "kiev"):
        place(game, "RU", "army", region)
    place(game, "AH", "fleet", "ionian_sea")
    place(game, "RU", "fleet", "eastern_mediterranean")
    start_maneuver(game, "RU")
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("5")
        await goto(pilot, "STP")  # the map window far in the north-east
        assert app.screen.map_model.cursor == "st_petersburg"
        # a move made elsewhere (as a computer's, or another screen's, would come) while
        # the keys are on the map: into the Ionian Sea, where a battle is asked
        session.apply("RU move fleet eastern_mediterranean -> ionian_sea")
        app.after_change()
        await until(pilot, lambda: app.screen.map_model.cursor == "ionian_sea")
        view = app.screen.query_one("#map-view", MapView)
        await until(pilot, lambda: "ION" in "".join(view.render_line(y).text for y in range(17)))


async def tab_stops(pilot, app, count: int = 8) -> list[str]:
    """Tab ``count`` times; each stop must be on screen where the player can see it (the
    widget is what lies at its own centre) and marked (its panel's title says ▶, or it is
    the decision list or the map, whose cursor shows)."""
    seen = []
    for _ in range(count):
        await pilot.press("tab")
        await pilot.pause()
        widget = app.focused
        assert widget is not None
        region = widget.region
        assert region.area > 0, f"Tab stop {widget!r} has no place on screen"
        x, y = region.x + region.width // 2, region.y + min(region.height // 2, 1)
        under, _ = app.screen.get_widget_at(x, y)
        assert under is widget or widget in under.ancestors, f"{widget!r} is hidden by {under!r}"
        if widget.id not in ("decision-options",) and not isinstance(widget, MapView):
            assert app.screen.focused_panel() is not None, f"{widget!r} is not marked"
        seen.append(widget.id or type(widget).__name__)
    return seen


async def test_every_tab_stop_is_visible_and_marked_at_both_sizes():
    game = new_game()
    place(game, "RU", "army", "romania")
    start_maneuver(game, "RU")
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    for size in ((80, 24), (120, 40)):
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with drive(app, size) as pilot:
            await pilot.pause()
            stops = await tab_stops(pilot, app, 5)
            for keys in ("5", "z", "2", "4"):  # the map, widened (80x24), bonds, the log
                await pilot.press(*keys)
                await pilot.pause()
                stops += await tab_stops(pilot, app, 3)
            assert "decision-options" in stops
