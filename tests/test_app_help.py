"""The help browser and the rules pages: topics open at their top without the keys (a topic
of their own), f1 on the scores opens scoring, the tax column is explained, and the pages
list every rule option with its defaults."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

from maneuver_helpers import new_game as maneuver_game
from maneuver_helpers import place, start_maneuver
from pilot import drive, humans, opened_board
from rich.console import Console
from typer.testing import CliRunner

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from imperial_tui.render.rules_text import PAGE_OPTIONS, page
from rules import Game
from rules.bots import GreedyBot, play_out
from rules.options import OPTIONS


async def test_help_topics_open_at_their_top_without_the_keys_and_f1_on_scores() -> None:
    g = maneuver_game()
    place(g, "RU", "army", "odessa")
    start_maneuver(g, "RU")
    session = Session(g, humans(g), None)

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with drive(app) as pilot:
            await opened_board(pilot)
            await pilot.press("f1")
            await pilot.pause()
            body = str(app.screen.query_one("#help-text").render())
            assert "ctrl+z" not in body  # the keys are a topic of their own
            assert "flag_transfer_on_departure" in body and "[true]" in body
            await pilot.press("pagedown", "pagedown")
            await pilot.pause()
            scroll = app.screen.query_one("#help-body")
            assert scroll.scroll_y > 0
            await pilot.press("down")  # another topic: from its first line
            await pilot.pause()
            assert scroll.scroll_y == 0

    await run()

    over = Game.new(["Anna", "Ben"], seed=4)
    play_out(over, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})

    async def scores() -> None:
        app = ImperialApp(session=Session(over, humans(over), None), pace=0.0)
        async with drive(app) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "GameOverScreen"
            await pilot.press("f1")
            await pilot.pause()
            assert app.screen.topic == "scoring"

    await scores()
    from imperial_tui.cli import app as cli

    result = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "100"}).invoke(cli, ["rules", "--help"])
    assert all(topic in result.output for topic in ("maneuver", "investor", "scoring", "keys"))


def test_the_tax_column_is_explained_in_show_and_in_the_help(tmp_path: Path) -> None:
    from imperial_tui.cli import app as cli

    runner = CliRunner(env={"NO_COLOR": "1", "COLUMNS": "80"})
    save = tmp_path / "t.json"
    runner.invoke(cli, ["new", "-p", "Anna,Ben,Cleo", "--seed", "1", "--save", str(save)])
    shown = runner.invoke(cli, ["show", str(save)]).output
    assert "tax chart" in shown and "5M or less" in " ".join(shown.split())
    keys = page("keys")[1]
    assert "tax the nation's space" in keys


def test_rules_pages_list_every_option_with_its_defaults() -> None:
    listed = {name for names in PAGE_OPTIONS.values() for name in names}
    assert listed == set(OPTIONS)
    maneuver = page("maneuver")[1]
    assert "flag_transfer_on_departure: first true / 2010 true" in maneuver
    assert "flag passes" in maneuver or "replaces the old one" in maneuver
    with_game = page("maneuver", Game.new(["Anna", "Ben"], seed=1).rules)[1]
    assert "flag_transfer_on_departure: first true / 2010 true [true]" in with_game


def test_rules_text_json_is_unchanged_by_the_pages() -> None:
    """The pages are text for people; the option list for tools stays the JSON of
    `imperial options --json`."""
    from imperial_tui.cli import app as cli

    out = CliRunner().invoke(cli, ["options", "--json"]).output
    assert {row["name"] for row in json.loads(out)} == set(OPTIONS)
    assert Console(file=StringIO())  # (Rich is what prints the pages)


async def test_question_mark_opens_and_closes_the_help_but_is_typed_into_a_name() -> None:
    """`?` is the help key of many terminal programs (a newcomer pressed it): it does what
    F1 does, except in a text field, where it is a character."""
    from textual.widgets import Input

    from imperial_tui.app.screens.help import HelpScreen

    g = maneuver_game()
    session = Session(g, humans(g), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await opened_board(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)

    app = ImperialApp(pace=0.0, ascii_only=False)  # the new-game screen: a seat's name
    async with drive(app) as pilot:
        await pilot.pause()
        name = app.screen.query_one("#seat-name-0", Input)
        assert app.focused is name
        await pilot.press("end", "question_mark")
        await pilot.pause()
        assert name.value.endswith("?") and not isinstance(app.screen, HelpScreen)


async def test_f1_in_a_game_of_2030_gives_the_2030_rules_first() -> None:
    """A playtest: F1 at a 2030 rondel choice read Imperial's "each further space costs 2M",
    and at a canal question the Maneuver page of London, Dublin and Switzerland. In a game
    of 2030 each page starts with what Imperial 2030 changes there (RULES_2030.md §3, §2.3)
    and lists this game's options only."""
    from rules import RuleSet

    rules = RuleSet.preset(game="2030")
    rondel = page("rondel", rules)[1]
    assert rondel.startswith("IMPERIAL 2030, this game: Rondel: up to 3 spaces are free; each")
    assert "1M plus the nation's power factor" in rondel
    assert "rondel_extra_cost" in rondel and "[power_factor]" in rondel
    maneuver = page("maneuver", rules)[1]
    assert "Canals: Panama Canal joins the Caribbean Sea" in maneuver.split("\n\n")[1]
    assert "armies_may_enter_dublin" not in maneuver and "canal_refusal" in maneuver
    assert "IMPERIAL 2030" not in page("maneuver", RuleSet())[1]  # Imperial's own pages
    assert page("investor", rules) == page("investor", RuleSet.preset("2010"))

    game = Game.new(["Anna", "Ben", "Cleo"], rules, seed=2)
    app = ImperialApp(session=Session(game, humans(game), None), pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        body = str(app.screen.query_one("#help-text").render())
        assert "IMPERIAL 2030, this game:" in body, body[:300]
