"""The footer shows the keys of what has the focus, and is rebuilt only when they change
(``imperial_tui.app.widgets.footer``: Textual's footer rebuilt itself after every key, a
large share of a key's CPU time in the app and on the server)."""

from __future__ import annotations

from pathlib import Path

from pilot import drive, until
from textual.widgets._footer import FooterKey

from imperial_tui.app import ImperialApp
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
