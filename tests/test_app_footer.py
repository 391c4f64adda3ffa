"""The footer shows the keys of what has the focus, and is repainted only when they change
(``imperial_tui.app.widgets.footer``: Textual's footer rebuilt itself after every key, a
large share of a key's CPU time in the app and on the server); only the keys that fit beside
the palette's key "^p palette", whole; a click on a key presses it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pilot import drive, screen_lines, screen_text, until
from textual.screen import Screen

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.app.widgets.footer import FooterItem, KeysFooter
from imperial_tui.model.session import Session
from rules import Game

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def footer(app: ImperialApp) -> KeysFooter:
    return app.screen.query_one(KeysFooter)


def footer_keys(app: ImperialApp) -> list[FooterItem]:
    """The keys on show, as last drawn, in order (the palette's last)."""
    return [item for _start, _end, item in footer(app).spans]


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
        shown = footer(app).items
        assert "region details" not in described(app)
        await pilot.press("down", "up", "2", "1")  # the same keys on offer
        await pilot.pause()
        assert footer(app).items is shown  # the very same keys: not read and drawn anew
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
            drawn.append(len(screen.query_one(KeysFooter).items))
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


PALETTE_HINT = "^p palette"


def is_palette_key(key: FooterItem) -> bool:
    return key.palette


def left_of_the_hint(app: ImperialApp) -> list[str]:
    """The keys written on the bottom line left of the palette's key, as the player reads
    them (separated by two spaces or more); the line must end with the whole hint."""
    line = screen_lines(app)[-1].rstrip()
    assert line.endswith(" " + PALETTE_HINT) or line.endswith("▏" + PALETTE_HINT), line
    left = line[: -len(PALETTE_HINT)].rstrip("▏ ")
    return re.split(r"\s{2,}", left.strip())


@pytest.mark.parametrize("ascii_only", [True, False], ids=["ascii", "unicode"])
async def test_at_80_columns_the_footer_shows_whole_keys_and_the_palette_hint_intact(
    tmp_path: Path, ascii_only: bool
) -> None:
    """The keys that do not fit beside "^p palette" are left out whole: in ASCII mode, with
    Enter spelt "enter" and no border before the hint, a key cut under it ran into it
    ("h history  ^^p palette"); and in either mode one was cut mid-word ("^z und▏^p")."""
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "a.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=ascii_only)
    enter = "enter" if ascii_only else "⏎"
    async with drive(app, opened=True) as pilot:
        for panel, first in (("1", "1-5 panels"), ("3", f"{enter} region details")):
            await pilot.press(panel)
            await until(pilot, lambda f=first: described(app) and left_of_the_hint(app)[0] == f)
            keys = [k for k in footer_keys(app) if not is_palette_key(k)]
            assert left_of_the_hint(app) == [f"{k.display} {k.description}" for k in keys]
            spans = footer(app).spans
            (hint,) = [start for start, _end, k in spans if is_palette_key(k)]
            assert all(end <= hint for _start, end, k in spans if not is_palette_key(k))
        await pilot.press("5")  # the map: the most keys
        await until(pilot, lambda: "go to region" in described(app), what="the map's keys")
        keys = [k for k in footer_keys(app) if not is_palette_key(k)]
        assert left_of_the_hint(app) == [f"{k.display} {k.description}" for k in keys]
        assert left_of_the_hint(app)[0] == f"{enter} details"


@pytest.mark.parametrize("ascii_only", [True, False], ids=["ascii", "unicode"])
async def test_the_footer_reckons_each_keys_width_as_it_is_drawn(
    tmp_path: Path, ascii_only: bool
) -> None:
    """``FooterItem.width`` (which keys fit) counts the cells each key takes on the screen."""
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "w.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=ascii_only)
    async with drive(app, (120, 40), opened=True) as pilot:
        await pilot.press("5")
        await until(pilot, lambda: "go to region" in described(app), what="the map's keys")
        await pilot.pause()
        line = screen_lines(app)[-1]
        for start, end, key in footer(app).spans:
            assert end - start == key.width(ascii_only), key
            drawn = line[start:end].strip(" ▏")
            assert drawn == f"{key.display} {key.description}", (drawn, key)


async def test_switching_ascii_mode_spells_the_footer_keys_anew_and_fits_them(
    tmp_path: Path,
) -> None:
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "t.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("5")
        await until(pilot, lambda: "go to region" in described(app), what="the map's keys")
        for first in ("enter details", "⏎ details"):
            await pilot.press("ctrl+p")
            await pilot.press(*"ascii")
            await until(pilot, lambda: "ASCII" in screen_text(app), what="the palette's line")
            await pilot.press("enter")
            await until(pilot, lambda f=first: left_of_the_hint(app)[0] == f, what=first)
            keys = [k for k in footer_keys(app) if not is_palette_key(k)]
            assert left_of_the_hint(app) == [f"{k.display} {k.description}" for k in keys]


async def test_the_footer_fits_its_keys_again_when_the_window_is_resized(
    tmp_path: Path,
) -> None:
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "r.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=True)
    async with drive(app, (120, 40), opened=True) as pilot:
        await pilot.press("5")
        await until(pilot, lambda: "^q quit" in left_of_the_hint(app), what="the keys at 120")
        await pilot.resize_terminal(80, 24)
        await until(pilot, lambda: "^q quit" not in left_of_the_hint(app), what="fitted to 80")
        keys = [k for k in footer_keys(app) if not is_palette_key(k)]
        assert left_of_the_hint(app) == [f"{k.display} {k.description}" for k in keys]


async def test_a_click_on_a_key_in_the_footer_presses_it(tmp_path: Path) -> None:
    """As on Textual's footer: the standings' key, clicked, opens the standings."""
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "c.json")
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, (120, 40), opened=True) as pilot:
        await until(pilot, lambda: "standings" in described(app), what="the standings' key")
        (start,) = [s for s, _e, k in footer(app).spans if k.description == "standings"]
        await pilot.click(KeysFooter, offset=(start + 1, 0))
        await until(pilot, lambda: type(app.screen).__name__ == "StandingsScreen", what="it")


async def test_the_key_under_the_pointer_is_lit(tmp_path: Path) -> None:
    """As on Textual's footer: the key under the mouse pointer takes the hover background;
    the others keep the footer's."""
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), tmp_path / "h.json")
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, (120, 40), opened=True) as pilot:
        await until(pilot, lambda: "standings" in described(app), what="the standings' key")
        bar = footer(app)

        def background_at(x: int) -> object:
            text = bar.render()
            return next(
                span.style.bgcolor  # type: ignore[union-attr]
                for span in text.spans
                if span.start <= x < span.end
            )

        (start,) = [s for s, _e, k in bar.spans if k.description == "standings"]
        other = bar.spans[0][0]
        before = background_at(start + 1)
        await pilot.hover(KeysFooter, offset=(start + 1, 0))
        await pilot.pause()
        assert background_at(start + 1) != before
        assert background_at(other + 1) == before
