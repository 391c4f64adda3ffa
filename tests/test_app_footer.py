"""The footer shows the keys of what has the focus, and is rebuilt only when they change
(``imperial_tui.app.widgets.footer``: Textual's footer rebuilt itself after every key, a
large share of a key's CPU time in the app and on the server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot import drive, until
from textual.screen import Screen
from textual.widgets._footer import FooterKey

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.model.session import Session
from rules import Game

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def footer_keys(app: ImperialApp) -> list[FooterKey]:
    return list(app.screen.query(FooterKey))


def described(app: ImperialApp) -> list[str]:
    return [key.description for key in footer_keys(app)]


async def test_the_footer_follows_the_focus_and_keeps_its_keys_when_they_stay(
    tmp_path: Path,
) -> None:
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "f.json")
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await until(pilot, lambda: "panels" in described(app), what="the footer")
        shown = footer_keys(app)
        assert "region details" not in described(app)
        await pilot.press("down", "up", "2", "1")  # the same keys on offer
        await pilot.pause()
        assert footer_keys(app) == shown  # the very same widgets: not rebuilt
        await pilot.press("3", "tab")  # the regions panel: Enter shows a region's details
        await until(pilot, lambda: "region details" in described(app), what="Enter's key")
        assert app.focused is not None and app.focused.id == "regions-panel"
        await pilot.press("tab")  # back to the decision list
        await until(pilot, lambda: "region details" not in described(app), what="rebuilt")
        assert described(app)[0] == "panels"


async def test_the_first_frame_is_drawn_with_the_keys_in_the_footer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The footer builds a new screen's keys as soon as they are known, not after a refresh:
    the board is never laid out and drawn without them first (one layout and one drawing
    less before the first frame, issue 26)."""
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "g.json")
    drawn: list[int] = []  # the keys in the footer at each drawing of the board
    refresh = Screen._compositor_refresh

    def recording(screen: Screen[object]) -> None:
        if isinstance(screen, GameScreen):
            drawn.append(len(screen.query(FooterKey)))
        refresh(screen)

    monkeypatch.setattr(Screen, "_compositor_refresh", recording)
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        assert drawn and drawn[0] > 0 and drawn[0] == len(footer_keys(app)), drawn


async def test_keys_come_back_to_the_footer_when_a_window_started_too_small_grows(
    tmp_path: Path,
) -> None:
    """Started in a window below the minimum, the screen's keys do nothing (``check_action``);
    grown to 80x24 they work again, and the footer offers them again (they stayed missing
    until another screen came and went: found by playing)."""
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "s.json")
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, (50, 14)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.too_small
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "panels" in described(app), what="the panels' key")
        await pilot.resize_terminal(50, 14)
        await until(pilot, lambda: app.screen.too_small, what="too small again")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "panels" in described(app), what="the panels' key again")
