"""The Maneuver's plan line at 80x24 (issue #24, play log O1 and O2): the newest step is
always read whole (the older one is shortened instead, "so far: fleet Naples→Western
Mediterranean Sea; battle in Western" lost the end of the newest), and a battle's answers
say who answered ("3 so far, last: does not fight; battle in Paris" named nobody)."""

from __future__ import annotations

from typing import Any

from maneuver_helpers import new_game, place, start_maneuver
from pilot import drive, pick, screen_lines, until
from textual.content import Content

from imperial_tui.app import ImperialApp
from imperial_tui.app.widgets.plan_line import fitted_plan
from imperial_tui.model.session import Session
from rules import Game
from rules.decisions import Decision


def option_id(app: ImperialApp, text: str) -> str:
    """The decision option id of the legal action written ``text``."""
    assert app.session is not None
    return str([str(a) for a in app.session.game.legal_actions()].index(text))


def plan_shown(app: Any) -> str:
    """The plan line as the terminal shows it (only the lines its box has room for), its
    lines joined by spaces."""
    plan = app.screen.query_one("#decision-plan")
    region = plan.content_region
    lines = screen_lines(app)[region.y : region.y + region.height]
    return " ".join(line[region.x : region.x + region.width].strip() for line in lines)


def italy_moves_into_a_french_fleet() -> Game:
    """Italy's Maneuver: its fleet in Naples may enter the Western Mediterranean Sea, where
    a French fleet lies; an Italian army in Rome keeps the Maneuver going after the battle."""
    game = new_game()
    place(game, "IT", "fleet", "naples")
    place(game, "IT", "army", "rome")
    place(game, "FR", "fleet", "western_mediterranean")
    start_maneuver(game, "IT")
    return game


async def enter_the_sea(pilot: Any, app: ImperialApp, game: Game) -> None:
    # the fleet's one destination is a line of its own in the list of units
    await pick(pilot, option_id(app, "IT move fleet naples -> western_mediterranean"))
    await until(pilot, lambda: game.awaiting.kind == Decision.BATTLE)


async def fight_at_sea(pilot: Any, app: ImperialApp, game: Game) -> None:
    """The fleet enters the sea and fights there; Italy's Maneuver goes on, two steps so far."""
    await pilot.pause()
    await enter_the_sea(pilot, app, game)
    await pick(pilot, option_id(app, "IT fleet fights FR fleet in western_mediterranean"))
    await until(pilot, lambda: game.awaiting.kind == Decision.MANEUVER)
    await until(pilot, lambda: "so far" in plan_shown(app))


async def test_the_newest_step_of_the_maneuver_is_read_whole_at_80x24() -> None:
    game = italy_moves_into_a_french_fleet()
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app) as pilot:
        await fight_at_sea(pilot, app, game)
        shown = plan_shown(app)
        assert shown.endswith("IT fights FR in Western Mediterranean Sea"), shown
        assert "fleet Naples" in shown  # the older step, shortened where it must be


async def test_a_battle_answer_in_the_plan_line_names_who_answered() -> None:
    game = italy_moves_into_a_french_fleet()
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app) as pilot:
        await pilot.pause()
        await enter_the_sea(pilot, app, game)
        await pick(pilot, option_id(app, "IT does not fight"))
        await until(pilot, lambda: game.awaiting.nation == "FR")
        await pick(pilot, option_id(app, "FR fleet fights IT fleet in western_mediterranean"))
        await until(pilot, lambda: game.awaiting.kind == Decision.MANEUVER)
        await until(pilot, lambda: "so far" in plan_shown(app))
        shown = plan_shown(app)
        assert shown.startswith("3 so far, last: IT does not"), shown
        assert shown.endswith("; FR fights IT in Western Mediterranean Sea"), shown


def test_the_plan_line_keeps_the_newest_step_and_shortens_the_one_before_it() -> None:
    """``fitted_plan`` at the panel's 40 columns and 2 lines, word by word, as it wraps."""
    older, newest = "fleet Naples->Western Mediterranean Sea", "IT fights FR in Paris"
    assert fitted_plan("", ["army Rome->Naples", newest], 40, 2) == (
        "so far: army Rome->Naples; IT fights FR in Paris"  # both fit: both whole
    )
    newest = "IT fights FR in Western Mediterranean Sea"
    fitted = fitted_plan("", ["a", older, newest], 40, 2, more="...")
    # "fleet Naples->Western..." is too long, and "fleet..." alone says nothing (a playtest)
    assert fitted == "3 so far, last: " + newest
    assert len(Content(fitted).wrap(40)) <= 2
    shorter = "IT fights FR in Naples"
    fitted = fitted_plan("", ["a", older, shorter], 40, 2, more="...")
    assert fitted == "3 so far, last: fleet Naples->Western Mediterranean...; " + shorter
    assert len(Content(fitted).wrap(40)) == 2
    # nothing of the older step fits beside the newest: the count, and the newest whole
    assert fitted_plan("", [older, "x" * 60], 40, 2) == "2 so far, last: " + "x" * 60


async def test_the_plan_line_is_fitted_again_when_the_decision_panel_narrows() -> None:
    """The panel's width changes without a new decision (Imperial 2030's world map at
    120x40 takes the width it needs and the decision the rest, #left's class -map-fit):
    the line is fitted to the new width, the newest step still whole."""
    game = italy_moves_into_a_french_fleet()
    app = ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None))
    async with drive(app, size=(120, 40)) as pilot:
        await fight_at_sea(pilot, app, game)
        wide = plan_shown(app)
        app.screen.query_one("#left").styles.width = 34  # as the world map's fit does
        newest = "IT fights FR in Western Mediterranean Sea"
        await until(pilot, lambda: app.screen.query_one("#decision-plan").content_region.width < 40)
        await until(pilot, lambda: plan_shown(app).endswith(newest), limit=60, what="fitted")
        assert plan_shown(app) != wide
