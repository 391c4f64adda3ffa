"""The game screen repaints only what is on screen and what changed: a panel in a hidden tab
(or the other layout's copy) is brought up to date when it comes into view, never shown stale;
a text that did not change is not set again."""

from __future__ import annotations

import asyncio
from io import StringIO
from pathlib import Path

from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from imperial_tui.app import ImperialApp
from imperial_tui.session import Session
from imperial_tui.widgets.base import set_content
from imperial_tui.widgets.rondel import RondelPanel
from rules import Game


def plain(panel: RondelPanel) -> str:
    console = Console(file=StringIO(), width=60, color_system=None)
    console.print(panel.render_key(panel._last_key))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_a_hidden_panel_is_repainted_when_its_tab_is_shown(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            rondel = screen.query_one("#rondel-panel", RondelPanel)
            wide = screen.query_one("#rondel-wide", RondelPanel)
            assert "AH to move" in plain(rondel)
            await pilot.press("2")  # bonds: the rondel's tab is hidden
            await pilot.pause()
            await pilot.press("enter")  # Anna chooses AH's rondel space
            await pilot.pause()
            assert len(game.plies) == 1
            # hidden: not repainted for the move (nor the wide layout's copy)
            assert rondel._last_key != rondel.key(app.session)
            assert wide._last_key != wide.key(app.session)
            await pilot.press("1")
            await pilot.pause()
            # in view again: it shows the game as it is now
            assert rondel._last_key == rondel.key(app.session)
            assert "AH to move" not in plain(rondel)
            assert "AH is on" in plain(rondel) or "IT to move" in plain(rondel)

    asyncio.run(run())


def test_the_wide_layout_shows_panels_changed_while_it_was_hidden(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")

    async def run() -> None:
        app = ImperialApp(session=session, pace=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("enter")  # a move while the wide layout is hidden
            await pilot.pause()
            wide = app.screen.query_one("#rondel-wide", RondelPanel)
            assert wide._last_key != wide.key(app.session)
            await pilot.resize_terminal(120, 40)
            for _ in range(5):
                await pilot.pause()
            assert wide._last_key == wide.key(app.session)

    asyncio.run(run())


def test_setting_the_same_text_again_does_not_update_the_widget() -> None:
    updates: list[object] = []

    class Probe(Static):
        def update(self, content: object = "", *, layout: bool = True) -> None:
            updates.append((content, layout))

    probe = Probe()
    assert set_content(probe, Text("AH 12", style="bold"), layout=False)
    assert not set_content(probe, Text("AH 12", style="bold"), layout=False)
    assert set_content(probe, Text("AH 12"), layout=False)  # another style is a change
    assert set_content(probe, Text("AH 13"))
    assert [layout for _, layout in updates] == [False, False, True]
