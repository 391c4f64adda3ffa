"""The board's panels by keys: the focus is visible, a panel key shows a panel and a second
one gives it the keys to scroll, and the region list's nation filter understands names and
refuses nonsense."""

from __future__ import annotations

from pilot import drive, humans, opened_board, screen_lines, screen_text

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import GreedyBot


async def focus_settles(pilot, app, wanted: str) -> None:  # type: ignore[no-untyped-def]
    """The focus moves after the panel's repaint (a frame later, more on a busy machine)."""
    for _ in range(20):
        await pilot.pause()
        if app.focused is not None and app.focused.id == wanted:
            break
    assert app.focused is not None and app.focused.id == wanted, app.focused


async def test_focus_is_visible_and_panels_scroll_directly() -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    for _ in range(45):
        game.apply(GreedyBot(2).choose(game))

    async def run(size: tuple[int, int]) -> None:
        session = Session(game.copy(), humans(game), None)
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with drive(app, size) as pilot:
            await opened_board(pilot)
            status = app.screen.query_one("#status")
            assert app.focused.id == "decision-options"
            if size == (80, 24):
                await pilot.press("tab")  # past the tab strip, into the panel on show
                await focus_settles(pilot, app, "rondel-scroll")
                assert "scrolling Rondel" in str(status.render())
                await pilot.press("escape")
                await focus_settles(pilot, app, "decision-options")
                await pilot.press("3")  # shows the regions; the decision keeps the keys
                await focus_settles(pilot, app, "decision-options")
                await pilot.press("3")  # again: now the keys go to the region list
                await focus_settles(pilot, app, "regions-panel")
                assert "scrolling Regions" in str(status.render())
                top = screen_lines(app)[0].rstrip()  # whole at 80 columns, not "the deci…"
                assert top.endswith(
                    "scrolling Regions: up/down, pgup/pgdn; esc: back to the decision"
                )
                scroll = app.screen.query_one("#regions-scroll")
                await pilot.press(*["down"] * 30)
                await pilot.pause()
                assert scroll.scroll_y > 0
                await pilot.press("4")  # while scrolling, another panel takes the keys
                await focus_settles(pilot, app, "log-panel")
            else:
                await pilot.press("2")  # all panels on show: the key gives it the keys
                for _ in range(20):  # the focus moves after the panel's repaint
                    await pilot.pause()
                    if str(app.focused.border_title) == "▶ Bonds":
                        break
                assert app.focused.id == "bonds-wide-scroll"
                assert str(app.focused.border_title) == "▶ Bonds"
                assert "scrolling Bonds" in str(status.render())
                await pilot.press("escape")
                await pilot.pause()
                assert app.focused.id == "decision-options"
                assert str(app.screen.query_one("#bonds-wide-scroll").border_title) == "Bonds"

    await run((80, 24))
    await run((120, 40))


async def test_a_nonsense_region_filter_is_refused_and_names_are_understood() -> None:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)

    app = ImperialApp(session=Session(game, humans(game), None), pace=0.0)
    async with drive(app, opened=True) as pilot:
        panel = app.screen.query_one("#regions-panel")
        for typed, expected in (("germany", "GE"), ("xx", "GE"), ("ru", "RU"), ("", None)):
            await pilot.press("f")
            await pilot.pause()
            await pilot.press(*typed, "enter")
            await pilot.pause()
            if typed == "xx":  # the box stays open, saying why; escape keeps the filter
                assert type(app.screen).__name__ == "PromptScreen"
                assert "no nation 'xx'" in screen_text(app)
                await pilot.press("escape")
                await pilot.pause()
            assert panel.nation_filter == expected, typed
        await pilot.press("f", "enter")
        await pilot.pause()
        assert panel.nation_filter is None


async def test_a_click_on_a_tabs_label_shows_its_panel_as_its_key_does() -> None:
    """At 80x24 the tab strip (PanelTabs) answers the mouse as Textual's tabs did: a click on
    a label shows that panel, and the label under the pointer brightens."""
    from textual.widgets import ContentSwitcher

    from imperial_tui.app.widgets.panel_tabs import PanelTabs

    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, humans(game), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (80, 24)) as pilot:
        await opened_board(pilot)
        tabs = app.screen.query_one("#tabs", PanelTabs)
        panes = app.screen.query_one("#panes", ContentSwitcher)
        start, end = tabs.spans["bonds"]
        await pilot.click("#tabs", offset=(start + 1, 0))
        await pilot.pause()
        assert panes.current == "bonds" and tabs.active == "bonds"
        await pilot.click("#tabs", offset=(end, 0))  # the space between two labels
        await pilot.pause()
        assert panes.current == "bonds"

        def color(name: str) -> object:
            labels = tabs.render().renderables[0]  # type: ignore[attr-defined]
            first = tabs.spans[name][0]
            return next(s.style.color for s in labels.spans if s.start == first)

        dim = color("log")
        await pilot.hover("#tabs", offset=(tabs.spans["log"][0], 0))
        await pilot.pause()
        assert color("log") != dim and color("log") == color("bonds")  # as bright as active


async def test_the_panel_with_the_keys_keeps_them_when_the_window_narrows() -> None:
    """At 120x40, 2 gives the bonds the keys; narrowed to 80x24, the bonds' tab shows and
    keeps them (Textual gave the keys to the rondel, hidden under another tab, and the status
    line said "scrolling Rondel" over the bonds: found by looking, issue 26)."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, humans(game), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (120, 40)) as pilot:
        await opened_board(pilot)
        await pilot.press("2")
        await focus_settles(pilot, app, "bonds-wide-scroll")
        await pilot.resize_terminal(80, 24)
        await focus_settles(pilot, app, "bonds-scroll")
        assert "scrolling Bonds" in str(app.screen.query_one("#status").render())
        await pilot.press("escape")
        await focus_settles(pilot, app, "decision-options")
        await pilot.press("2", "2")  # the bonds again, with the keys
        await focus_settles(pilot, app, "bonds-scroll")
        await pilot.resize_terminal(120, 40)
        await focus_settles(pilot, app, "bonds-wide-scroll")


async def test_the_tabs_are_drawn_anew_when_ascii_mode_is_switched() -> None:
    """ASCII mode switched from the palette: the tab strip loses its bar (the active tab in
    reverse instead) and gets it back when switched again."""
    from pilot import screen_lines, screen_text, until

    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, humans(game), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (80, 24)) as pilot:
        await opened_board(pilot)

        def bar_shown() -> bool:
            return "━" in screen_lines(app)[2]

        assert bar_shown()
        for wanted in (False, True):
            await pilot.press("ctrl+p")
            await pilot.press(*"ascii")
            await until(pilot, lambda: "ASCII" in screen_text(app), what="the palette's line")
            await pilot.press("enter")
            await until(pilot, lambda w=wanted: bar_shown() == w, what=f"bar shown: {wanted}")
