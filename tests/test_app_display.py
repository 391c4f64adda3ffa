"""What the terminal shows without colour and in ASCII mode: with NO_COLOR every nation is
bold and bright; with IMPERIAL_ASCII=1 (--ascii) no character outside ASCII on any screen,
Textual's own widgets included."""

from __future__ import annotations

from pathlib import Path

from pilot import drive, humans, opened_board, screen_text, until
from textual.color import Color

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.actions import NATION_CODES
from rules.bots import GreedyBot, play_out


def nation_cells(app: ImperialApp) -> dict[str, list]:
    """The styles the nation codes are drawn with on the screen."""
    out: dict[str, list] = {}
    for strip in app.screen._compositor.render_strips():
        for seg in strip:
            if seg.text.strip() in NATION_CODES and seg.style is not None:
                out.setdefault(seg.text.strip(), []).append(seg.style)
    return out


async def test_without_colour_every_nation_is_bold_and_bright(monkeypatch) -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    for _ in range(30):
        game.apply(GreedyBot(2).choose(game))

    async def cells(no_color: bool) -> dict[str, list]:
        if no_color:
            monkeypatch.setenv("NO_COLOR", "1")
        else:
            monkeypatch.delenv("NO_COLOR", raising=False)
        app = ImperialApp(session=Session(game.copy(), humans(game), None), pace=0.0)
        async with drive(app) as pilot:
            await opened_board(pilot)
            assert app.no_color is no_color
            return nation_cells(app)

    def grey(style) -> float:
        return Color.from_rich_color(style.color).monochrome.brightness

    coloured = await cells(False)
    assert min(grey(s) for s in coloured["GB"]) < 0.4  # red turns into a dark grey
    plain = await cells(True)
    for code in NATION_CODES:
        assert plain[code], code
        for style in plain[code]:
            assert style.bold and grey(style) >= 0.6, (code, style)


def non_ascii(app: ImperialApp) -> str:
    return "".join(sorted({c for c in screen_text(app) if ord(c) > 127}))


async def test_ascii_mode_draws_only_ascii_on_every_screen(monkeypatch, tmp_path: Path) -> None:
    """Textual's own widgets too: tabs, scrollbars, the footer, frames, dropdowns, the
    switch, the palette, toasts, and the screens of this issue."""
    monkeypatch.setenv("IMPERIAL_ASCII", "1")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    found: dict[str, str] = {}

    async def new_game_screens() -> None:
        app = ImperialApp(seed=1, pace=0.0)
        async with drive(app) as pilot:
            await pilot.pause()
            found["new game"] = non_ascii(app)
            await pilot.press("tab", "enter")
            await pilot.pause()
            found["dropdown"] = non_ascii(app)
            await pilot.press("escape", "ctrl+p")
            await pilot.pause(0.2)
            found["palette"] = non_ascii(app)
            await pilot.press("escape", "f1")
            await pilot.pause()
            found["help"] = non_ascii(app)
            await pilot.press("escape", "ctrl+q")
            await pilot.pause()
            found["question"] = non_ascii(app)

    async def game_screens(size: tuple[int, int]) -> None:
        game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
        for _ in range(45):
            game.apply(GreedyBot(2).choose(game))
        session = Session(game, humans(game), tmp_path / f"a{size[0]}.json", hidden_cash=True)
        app = ImperialApp(session=session, pace=0.0)
        async with drive(app, size) as pilot:
            await pilot.pause()
            found[f"hand-over {size}"] = non_ascii(app)
            await pilot.press("enter")
            await pilot.pause()
            found[f"recap {size}"] = non_ascii(app)
            await pilot.press("escape")
            app.notify("a toast")
            for key in "12345":  # 5: the map, its info line too
                await pilot.press(key)
                await pilot.pause()
                found[f"game {size} {key}"] = non_ascii(app)
            for keys, name in ((["v"], "standings"), (["h"], "history"), (["b"], "branch")):
                await pilot.press(*keys)
                await pilot.pause()
                found[f"{name} {size}"] = non_ascii(app)
            await pilot.press("escape", "escape", "ctrl+o")
            await pilot.pause()
            found[f"load {size}"] = non_ascii(app)

    async def score_screen() -> None:
        game = Game.new(["Anna", "Ben"], seed=4)

        play_out(game, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})
        app = ImperialApp(session=Session(game, humans(game), None), pace=0.0)
        async with drive(app) as pilot:
            await pilot.pause()
            found["score"] = non_ascii(app)

    await new_game_screens()
    await game_screens((80, 24))
    await game_screens((120, 40))
    await score_screen()
    assert not {k: v for k, v in found.items() if v}, found


async def test_ascii_mode_switched_from_the_palette_redraws_the_focused_panels_mark(
    tmp_path: Path,
) -> None:
    """At 120x40 the panel that has the keys is marked in its box's title; switching ASCII
    mode on and off from the palette redraws that mark too (it stayed the old glyph until
    the next panel key: found by playing)."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, humans(game), tmp_path / "a.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (120, 40), opened=True) as pilot:
        await pilot.press("1")
        await until(pilot, lambda: "▶ Rondel" in screen_text(app), what="the marked title")
        for marked, gone in (("> Rondel", "▶ Rondel"), ("▶ Rondel", "> Rondel")):
            await pilot.press("ctrl+p")
            await pilot.press(*"ascii")
            await until(pilot, lambda: "ASCII" in screen_text(app), what="the palette's line")
            await pilot.press("enter")
            await until(pilot, lambda m=marked: m in screen_text(app), what=marked)
            assert gone not in screen_text(app)
