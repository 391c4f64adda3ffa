"""A window too small for the game (issue #24, item 10): while the "make it at least 64x20"
message shows, no key acts on the game, whether the board or a dialog over it would take
it; quitting and the help still answer, and everything is as it was when the window grows."""

from __future__ import annotations

from pilot import drive

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.dialogs import ConfirmScreen
from imperial_tui.app.screens.help import HelpScreen
from imperial_tui.model.session import Session
from rules import Game

PLAYERS = ["Anna", "Ben", "Cleo"]


def three_humans() -> Session:
    game = Game.new(PLAYERS, seed=5)
    return Session(game, dict.fromkeys(PLAYERS, "human"), None)


async def test_enter_behind_the_too_small_message_plays_nothing() -> None:
    session = three_humans()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, (20, 5)) as pilot:
        await pilot.pause()
        assert app.screen.too_small
        await pilot.press("enter", "enter", "down", "enter", "5", "ctrl+z", "enter")
        await pilot.pause()
        assert session.game.plies == []
        # the help answers: F1 opens it, its own keys work, escape closes it
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("down", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        # so does the quit question, and its answer
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert session.game.plies == []
        # the window grows: the board is back with the decision list's keys
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert not app.screen.too_small
        assert app.focused is not None and app.focused.id == "decision-options"
        await pilot.press("enter")
        await pilot.pause()
        assert len(session.game.plies) == 1


async def test_a_dialog_left_open_under_the_message_takes_no_key() -> None:
    session = three_humans()

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Anna's rondel space
        await pilot.pause()
        played = len(session.game.plies)
        await pilot.press("ctrl+z")  # the undo question is up
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.resize_terminal(20, 5)
        await pilot.pause()
        await pilot.press("enter", "enter", "enter", "y")
        await pilot.pause()
        assert len(session.game.plies) == played  # nothing undone, nothing played
        assert isinstance(app.screen, ConfirmScreen)  # the question waits
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.press("n")  # answered once it can be seen
        await pilot.pause()
        assert len(session.game.plies) == played


async def test_a_dialog_hides_with_the_board_in_a_window_too_small_and_comes_back() -> None:
    """The donation box in a 50x15 window was drawn cut off, its question half gone, over
    the notice (a newcomer's report): it hides, the notice shows, and when the window grows
    the box is back with the keys, the amount typed then given."""
    from pilot import screen_text

    session = three_humans()
    game = session.game
    aw = game.awaiting
    assert aw is not None
    game.state.cash[PLAYERS.index(aw.player)] = 5

    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert "donate how many M" in screen_text(app)
        await pilot.resize_terminal(50, 15)
        await pilot.pause()
        text = screen_text(app)
        assert "donate how many M" not in text
        assert "The window is 50x15. Make it at least 64x20" in " ".join(text.split())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "donate how many M" in screen_text(app)
        assert "The window is" not in screen_text(app)
        await pilot.press("2", "enter")
        await pilot.pause()
        assert str(game.plies[-1].action) == f"{aw.player} donates 2 to {aw.nation}"
