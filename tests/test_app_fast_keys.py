"""Keys typed faster than the screens open and close (found by play-testers and monkey
runs): keys right after a dialog closes act on what is shown, a panel key pressed as the
board appears is kept, a key kept for a screen that closed meanwhile is dropped, and a
history browser closed at any point of its building goes without ending the app."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pilot import burst, drive, option_texts, until
from test_following import ben_takes_austria

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import GreedyBot, play_out


def two_humans_app() -> ImperialApp:
    """A new game of Anna and Ben, both at this keyboard, not saved."""
    game = Game.new(["Anna", "Ben"], seed=1)
    return ImperialApp(session=Session(game, dict.fromkeys(game.players, "human"), None), pace=0.0)


def hidden_cash_pair() -> Session:
    """Anna (Austria) and Ben (Italy) at one keyboard with hidden cash: a hand-over at
    every change of player."""
    g = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    return Session(g, {"Anna": "human", "Ben": "human"}, None, hidden_cash=True)


async def test_keys_typed_right_after_closing_the_recap_act_on_the_list_as_shown(
    tmp_path: Path,
) -> None:
    session = ben_takes_austria(tmp_path)

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        app.apply_human(session.game.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "RecapScreen")
        assert session.game.awaiting.kind == "rondel"
        second = option_texts(app)[1].split()[0]  # as the list shows it: "Production1"
        count = len(session.game.plies)
        await burst(app, "enter", "down", "enter")  # close, second option, choose
        await until(pilot, lambda: len(session.game.plies) > count)
        chosen = session.game.plies[count].action
        assert chosen.kind == "rondel" and second.lower().startswith(chosen.space[:-1])


async def test_enter_on_show_the_final_scores_right_after_closing_them_shows_them() -> None:
    g = Game.new(["Anna", "Ben"], seed=4)
    play_out(g, {"Anna": GreedyBot(1), "Ben": GreedyBot(2)})
    session = Session(g, dict.fromkeys(g.players, "human"), None)

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen")
        await burst(app, "escape", "enter")  # close the scores, then at once: show them
        await until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen", 50)


async def test_one_hand_over_however_often_the_app_looks_for_the_next_decision() -> None:
    """Hidden cash, two humans: the hand-over to Ben is shown once even when the app asks
    again who is next (a repaint, a resumed screen); one Enter passes the keyboard (a monkey
    run found two stacked hand-overs)."""
    session = hidden_cash_pair()
    g = session.game

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Anna takes the keyboard
        await pilot.pause()
        app.apply_human(g.parse("AH rondel investor"))
        await pilot.pause()
        app.after_change()
        app.after_change()
        await pilot.pause()
        kinds = [type(s).__name__ for s in app.screen_stack]
        assert kinds.count("HandoverScreen") == 1, kinds
        await pilot.press("enter")
        await pilot.pause()
        assert session.viewer == "Ben"
        assert "HandoverScreen" not in [type(s).__name__ for s in app.screen_stack]


async def test_a_panel_key_pressed_as_the_board_appears_is_kept() -> None:
    """A player who sees the board may press 2 at once; the key must not be lost while the
    screen settles (over SSH the board reaches the terminal before the screen is ready: a
    spectator's first key was dropped)."""

    app = two_humans_app()
    async with drive(app) as pilot:
        await pilot.pause()
        app.open_game()  # the board again, as a new screen: the key comes at once
        await pilot.press("2")
        await pilot.pause(0.2)
        assert app.screen.panel == "bonds"  # type: ignore[attr-defined]


async def test_a_panel_chosen_while_another_is_given_the_keys_stays() -> None:
    """2 then 2 4 typed fast: the second 2 gives the bonds panel the keys after the next
    refresh; by then 4 chose the log, and focusing the hidden bonds tab brought it back
    (the board ended on the bonds)."""
    from monkey import press

    app = two_humans_app()
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        await press(pilot, "2", "4")
        await pilot.pause(0.2)
        assert app.screen.panel == "log"  # type: ignore[attr-defined]
        assert app.screen.shown_panel() == "log"  # type: ignore[attr-defined]


async def test_a_panel_key_kept_for_a_screen_that_closes_meanwhile_is_dropped() -> None:
    """h 4 escape typed in one burst: the 4 waits for the history browser to be ready, the
    browser closes first; the key is dropped with it (it ended the app, looking for the
    closed browser's widgets)."""
    from monkey import press

    app = two_humans_app()
    async with drive(app) as pilot:
        await pilot.pause()
        for _ in range(3):
            await press(pilot, "h", "4", "escape")
            await press(pilot, "h", "3", "escape", "2")
        # every browser closes (the last may still be being built on a busy machine)
        await until(pilot, lambda: type(app.screen).__name__ == "GameScreen")
        await pilot.press("4")  # and the board's own keys work
        await until(pilot, lambda: app.screen.panel == "log")  # type: ignore[attr-defined]
    assert app.return_code in (None, 0)


async def test_two_quick_enters_in_the_theme_picker_choose_once_and_keep_the_game() -> None:
    """ctrl+p, Theme: Textual's theme list; two quick Enters chose the theme and then closed
    the game screen beneath (a monkey run left a blank screen). It is our palette now."""
    from monkey import press

    app = two_humans_app()
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p", *"theme")
        await pilot.pause(0.3)
        await pilot.press("enter")  # the "Theme" command: the theme list
        await pilot.pause(0.3)
        await pilot.press(*"nord")
        await pilot.pause(0.3)
        await press(pilot, "enter", "enter")
        await pilot.pause(0.3)
        assert [type(s).__name__ for s in app.screen_stack][1:] == ["GameScreen"]
        assert app.theme == "nord"


async def test_a_history_browser_closed_before_it_was_built_does_not_end_the_app() -> None:
    """h, then at once a hand-over closes the history (the next player never sees the
    previous one's view): the browser is gone before it was built, and the app goes on
    (a monkey run ended the app here with NoMatches)."""

    app = two_humans_app()
    async with drive(app) as pilot:
        await pilot.pause()
        app.action_history()
        app.close_history()
        await pilot.pause(0.1)
        assert [type(s).__name__ for s in app.screen_stack][1:] == ["GameScreen"]
        await pilot.press("h")  # and the history still opens
        await pilot.pause(0.1)
        assert type(app.screen).__name__ == "HistoryScreen"
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("by_key", [True, False], ids=["escape", "hand-over"])
@pytest.mark.parametrize("ticks", range(1, 7))  # 2-5 ended the app (Textual 8.2)
async def test_a_history_browser_closed_while_it_is_being_built_closes_once_built(
    ticks: int, by_key: bool
) -> None:
    """h and at once escape (or a hand-over): closed while Textual mounted its tab strip,
    the strip looked for tabs already taken away and the app ended (a busy machine made
    the window wide enough to hit). Closed at every point of its building, the browser
    goes as soon as it is built and the app goes on."""
    from imperial_tui.app.screens.history import HistoryScreen

    app = two_humans_app()
    async with drive(app) as pilot:
        await pilot.pause()
        app.action_history()
        for _ in range(ticks):
            await asyncio.sleep(0)
        browser = app.screen
        assert isinstance(browser, HistoryScreen)
        if by_key:
            browser.action_present()
        else:
            app.close_history()
        await until(pilot, lambda: type(app.screen).__name__ == "GameScreen")
        assert [type(s).__name__ for s in app.screen_stack][1:] == ["GameScreen"]
    assert app.return_code in (None, 0)


@pytest.mark.parametrize("ticks", range(1, 7))
async def test_a_hand_over_waits_for_a_history_browser_being_built_to_close(ticks: int) -> None:
    """Hidden cash: Anna opened the history as her turn ended; the hand-over to Ben closes
    the browser first (the next player never sees the previous one's view), also when it
    comes while the browser is still being built."""

    session = hidden_cash_pair()
    g = session.game
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Anna takes the keyboard
        await pilot.pause()
        g.apply(g.parse("AH rondel investor"))
        app.action_history()
        for _ in range(ticks):
            await asyncio.sleep(0)
        app.after_change()
        await until(pilot, lambda: type(app.screen).__name__ == "HandoverScreen")
        kinds = [type(s).__name__ for s in app.screen_stack]
        assert kinds[1:] == ["GameScreen", "HandoverScreen"], kinds
    assert app.return_code in (None, 0)
