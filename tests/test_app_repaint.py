"""The game screen repaints only what is on screen and what changed: a panel in a hidden tab
(or the other layout's copy) is brought up to date when it comes into view, never shown stale;
a text that did not change is not set again."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from pilot import drive, opened_board
from rich.console import Console
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.app.widgets.base import set_content
from imperial_tui.app.widgets.rondel import RondelPanel
from imperial_tui.app.widgets.shared import SharedRenders
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import GreedyBot


def plain(panel: RondelPanel) -> str:
    console = Console(file=StringIO(), width=60, color_system=None)
    console.print(panel.render_key(panel._last_key))
    return console.file.getvalue()  # type: ignore[attr-defined]


async def test_a_hidden_panel_is_repainted_when_its_tab_is_shown(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
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


async def test_the_wide_layout_shows_panels_changed_while_it_was_hidden(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # a move while the wide layout is hidden
        await pilot.pause()
        wide = app.screen.query_one("#rondel-wide", RondelPanel)
        assert wide._last_key != wide.key(app.session)
        await pilot.resize_terminal(120, 40)
        for _ in range(5):
            await pilot.pause()
        assert wide._last_key == wide.key(app.session)


async def test_setting_the_same_text_again_does_not_update_the_widget() -> None:
    updates: list[object] = []

    class Probe(Static):
        def update(self, content: object = "", *, layout: bool = True) -> None:
            updates.append((content, layout))
            super().update(content, layout=layout)  # type: ignore[arg-type]

    class ProbeApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Probe(id="probe")

    app = ProbeApp()
    async with drive(app, (40, 5)) as pilot:
        await pilot.pause()
        probe = app.query_one(Probe)
        assert set_content(probe, Text("AH 12", style="bold"), layout=False)
        assert not set_content(probe, Text("AH 12", style="bold"), layout=False)
        assert set_content(probe, Text("AH 12"), layout=False)  # another style: a change
        assert set_content(probe, Text("AH 13"))
        probe.update(Text("set elsewhere"))  # set directly: compared with what it shows
        assert set_content(probe, Text("AH 13"), layout=None)
        assert [layout for _, layout in updates] == [False, False, True, True, False]


async def test_apps_in_one_process_share_rendered_panels_and_show_the_same() -> None:
    """Two apps with shared renders (as the SSH server's connections have) draw the nations
    table and the rondel once; what they show is what an app drawing alone shows."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    cache = SharedRenders()

    class SharingApp(ImperialApp):
        shared_renders = cache

    def lines(app: ImperialApp, wid: str) -> list[str]:
        return [strip.text for strip in app.screen.query_one(wid)._render_cache.lines]

    apps = [
        cls(session=Session(game, dict.fromkeys(game.players, "human"), None), pace=0.0)
        for cls in (SharingApp, SharingApp, ImperialApp)
    ]
    a, b, alone = apps
    async with (
        drive(a) as pa,
        drive(b) as pb,
        drive(alone) as pc,
    ):
        for pilot in (pa, pb, pc):
            await pilot.pause()
        assert cache.hits >= 2  # b reused a's nations table and rondel
        for wid in ("#nations", "#rondel-panel"):
            assert lines(b, wid) == lines(alone, wid) == lines(a, wid)
            assert any("AH" in line for line in lines(b, wid))


def test_shared_renders_keep_the_newest_entries() -> None:
    cache = SharedRenders(size=2)
    for k in "abc":
        cache.put(k, [k])
    assert cache.get("a") is None and cache.get("c") == ["c"] and len(cache) == 2


async def test_shared_renders_keep_colour_and_no_colour_apart() -> None:
    """A NO_COLOR app shows nations in bold, not colour (style.py): it never takes a coloured
    nations table drawn by another app in the process, nor gives its own to one."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    cache = SharedRenders()

    class SharingApp(ImperialApp):
        shared_renders = cache

    def styles(app: ImperialApp) -> set[str]:
        strips = app.screen.query_one("#nations")._render_cache.lines
        return {str(seg.style) for strip in strips for seg in strip if "AH" in seg.text}

    plain, colour = (
        SharingApp(session=Session(game, dict.fromkeys(game.players, "human"), None), pace=0.0)
        for _ in range(2)
    )
    plain.no_color = True
    async with drive(plain) as pa, drive(colour) as pb:
        await pa.pause()
        await pb.pause()
        assert styles(plain) != styles(colour)
        assert all("bold" in s for s in styles(plain))


async def test_log_lines_written_while_hidden_are_wrapped_at_the_panels_width() -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    controllers = {"Anna": "human", "Ben": "bot:greedy", "Cleo": "bot:greedy", "Dan": "bot:greedy"}
    session = Session(game, controllers, None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("4", "1")  # the log shown once, then hidden
        await pilot.pause()
        bot = GreedyBot(5)
        for _ in range(12):  # the computer players move while the log is hidden
            for _ in range(40):
                aw = game.awaiting
                if aw is None or (aw.player == "Anna" and not app._bot_busy):
                    break
                await pilot.pause()
            if game.awaiting is None:
                break
            app.apply_human(bot.choose(game))
            await opened_board(pilot)
        await pilot.press("4")  # (over a recap: it closes and passes the key on)
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, GameScreen) and app.screen.shown_panel() == "log":
                break
        log = app.screen.query_one("#log-panel")
        width = log.scrollable_content_region.width
        shown = [line.text.rstrip() for line in log.lines]
        assert len(shown) > 40
        log.show(session, force=True)  # written again now, at the real width
        assert shown == [line.text.rstrip() for line in log.lines]
        assert max(len(line) for line in shown) > width - 8


async def test_the_game_screen_is_styled_once_before_its_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80x24 the board's widgets are styled as they are mounted, and not all again when
    the screen is first shown nor when the first Resize brings the size's classes (issue
    26: each a sixth of the work before the first frame): the classes come before the
    widgets (``GameScreen._set_breakpoint_classes``), the first resume skips its restyle
    (``GuardedScreen.on_screen_resume``)."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")
    restyled: list[object] = []  # the nodes restyled with the widgets in them
    update_styles = App.update_styles

    def recording(app: App[None], node: DOMNode, animate: bool = True) -> None:
        if node.children:  # (the screen's classes set before its widgets: nothing to do)
            restyled.append(node)
        update_styles(app, node, animate)

    monkeypatch.setattr(App, "update_styles", recording)
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        assert screen.has_class("-narrow", "-short")
        assert screen not in restyled


async def test_a_resize_to_the_size_laid_out_already_lays_nothing_out_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A screen posts itself a Resize once it is first laid out; at the size it was laid out
    at, with its size's classes, Textual's handler would lay it out and draw it again, the
    same (issue 26: a tenth of the work before the first frame). A Resize to another size
    still lays it out, and brings the classes of that size."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")
    laid_out: list[object] = []
    refresh_layout = Screen._refresh_layout

    def recording(screen: Screen[object], size: Size | None = None, scroll: bool = False) -> None:
        laid_out.append(screen)
        refresh_layout(screen, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", recording)
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        laid_out.clear()
        screen.post_message(events.Resize(app.size, app.size))
        await pilot.pause()
        assert screen not in laid_out
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert screen in laid_out and screen.has_class("-wide", "-tall")


async def test_the_game_screen_is_not_laid_out_inside_textuals_start_up_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual mounts the app inside a batch update, whose drawing it throws away; a game
    screen opened there would be laid out and drawn twice before the first frame (issue
    26: 40 ms of 340). So the first screen opens once that batch is over
    (``GameApp.first_screen``)."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), tmp_path / "g.json")
    in_batch: list[object] = []  # screens laid out while Textual's batch was open
    refresh_layout = Screen._refresh_layout

    def recording(screen: Screen[object], size: Size | None = None, scroll: bool = False) -> None:
        if screen.app._batch_count:
            in_batch.append(screen)
        refresh_layout(screen, size, scroll)

    monkeypatch.setattr(Screen, "_refresh_layout", recording)
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert not any(isinstance(screen, GameScreen) for screen in in_batch)
