"""Driving the app in a test: the one Pilot helper, and the small waits and readers the app
tests share.

A test of the app is an ``async def test_...`` (pytest-asyncio runs it, see pyproject.toml)
that runs the app headless with ``drive``::

    async def test_enter_passes() -> None:
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with drive(app, opened=True) as pilot:
            await pilot.press("enter")
            await until(pilot, lambda: len(session.game.plies) == 1)

Waits are for a condition, never a fixed pause: the machine running the tests may be busy
(other processes, pytest-xdist workers), and then a screen, a notice or a computer player's
move comes some frames later than on a quiet one. ``until`` waits frame by frame for what the
test is about to check; ``opened`` and ``settle`` wait for the board and for a human's
decision.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

from textual import events
from textual.app import App
from textual.pilot import Pilot

from rules import Action, Game

AppT = TypeVar("AppT", bound=App[Any])

SIZE = (80, 24)  # the terminal the app is judged at
_TOLD = "_notices_told_in_test"


@asynccontextmanager
async def drive(
    app: AppT, size: tuple[int, int] = SIZE, *, opened: bool = False
) -> AsyncIterator[Pilot[Any]]:
    """Run ``app`` headless at ``size`` (80x24 unless the test is about another size) and
    hand the test its Pilot; an exception inside the app is raised when the block ends.
    ``opened``: first wait for the first screen and close the "since your last turn" recap
    that greets a resumed game's player (tests that look at the greeting leave it off).
    Every notice the app gives is kept for ``told``."""
    said: list[str] = []
    app.__dict__[_TOLD] = said
    notify = app.notify

    def recording_notify(message: str, *args: Any, **kwargs: Any) -> None:
        said.append(str(message))
        notify(message, *args, **kwargs)

    app.notify = recording_notify  # type: ignore[method-assign]
    async with app.run_test(size=size) as pilot:
        if opened:
            await opened_board(pilot)
        yield pilot


def told(app: App[Any]) -> list[str]:
    """Every notice (toast) the app gave while ``drive`` ran it, also those already gone
    from the screen: a notice times out after some seconds, and on a busy machine the test
    may look later than that."""
    said: list[str] = app.__dict__[_TOLD]
    return said


def humans(game: Game) -> dict[str, str]:
    """Every seat a human at this keyboard (a hot-seat game)."""
    return dict.fromkeys(game.players, "human")


def name_of(app: App[Any]) -> str:
    """The class name of the screen on top (tests compare names: several screens are
    private to their modules)."""
    return type(app.screen).__name__


async def until(
    pilot: Pilot[Any], condition: Callable[[], object], limit: int = 600, what: str = ""
) -> None:
    """Wait, frame by frame, until ``condition()`` holds (at most ``limit`` frames)."""
    for _ in range(limit):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"the app never got there{': ' + what if what else ''}")


def greeted(app: Any) -> str | None:
    """The player the board greets with "since your last turn" at the decision on show (as
    ``GameApp.after_change`` offers it): a human whose decision it is, on a server only this
    connection's player; None when nobody is (a computer's decision, the game over)."""
    session = app.session
    aw = session.view.awaiting
    if aw is None:
        return None
    if not session.runs_seats:
        return aw.player if session.viewer == aw.player else None
    return aw.player if session.is_human(aw.player) else None


def board_ready(app: Any, closed: set[tuple[str, int]]) -> bool:
    """Whether the board has the keys and the recap that may greet the player is settled:
    shown (and in ``closed``, as (player, number of actions)) or not due. The app looks for
    news once the board is up and shows a recap a frame after that, so neither a first frame
    nor the board alone says it is not coming. With no game on show, or another screen over
    the board (a hand-over, the scores, a dialog: the recap waits for the board), there is
    nothing to wait for."""
    board = app.game_screen() if hasattr(app, "game_screen") else None
    if getattr(app, "session", None) is None or board is None or app.screen is not board:
        return True
    player = greeted(app)
    if player is None:
        return True
    end = len(app.session.view.plies)
    if app.follow.shown.get(player) != end:
        return False  # not looked for yet
    found = app.follow.last.get(player)
    if found is not None and found.end == end and (player, end) not in closed:
        return False  # found: on screen a frame later
    focused = app.focused
    return board.too_small or (focused is not None and focused.id == "decision-options")


async def opened_board(pilot: Pilot[Any], limit: int = 600) -> None:
    """The app is up, with the "since your last turn" recap that may greet the player
    closed: frame by frame until the board's decision list has the keys and no recap is
    still to come (``board_ready``)."""
    app = pilot.app
    closed: set[tuple[str, int]] = set()
    for _ in range(limit):
        await pilot.pause()
        if name_of(app) == "RecapScreen":
            found = app.screen.found
            closed.add((found.player, found.end))
            await pilot.press("escape")
            continue
        if board_ready(app, closed):
            return
    raise AssertionError("the board never had the keys with the recap settled")


async def settle(pilot: Pilot[Any], limit: int = 400) -> None:
    """Wait until a human must decide (the computer players move at pace 0); the "since
    your last turn" recap that greets them is read and closed."""
    app: Any = pilot.app
    for _ in range(limit):
        await pilot.pause()
        s = app.session
        if name_of(app) == "RecapScreen":
            await pilot.press("escape")
            continue
        if s is None or s.game.awaiting is None:
            return
        if s.is_human(s.game.awaiting.player) and not app._bot_busy:
            await pilot.pause()
            if name_of(app) == "RecapScreen":
                continue
            return
    raise AssertionError("the computer player did not finish")


async def step(pilot: Pilot[Any], action: Action) -> None:
    """A human's choice made through the app (not by keys); a recap that follows is closed."""
    app: Any = pilot.app
    app.apply_human(action)
    await pilot.pause()
    if name_of(app) == "RecapScreen":
        await pilot.press("escape")
        await pilot.pause()


async def hand_over(pilot: Pilot[Any]) -> None:
    """Pass the keyboard at a hot-seat hand-over, then close the recap that greets the next
    player (if anything changed since their previous decision)."""
    app = pilot.app
    assert name_of(app) == "HandoverScreen", name_of(app)
    await pilot.press("enter")
    await pilot.pause()
    if name_of(app) == "RecapScreen":
        await pilot.press("escape")
        await pilot.pause()


async def highlight(pilot: Pilot[Any], option_id: str) -> None:
    """Highlight the decision option with this id by arrow keys (headings are skipped)."""
    ol: Any = pilot.app.screen.query_one("#decision-options")
    listed = [ol.get_option_at_index(i) for i in range(ol.option_count)]
    ids = [o.id for o in listed if not o.disabled]
    assert option_id in ids, (option_id, ids)
    await pilot.press("home", *["down"] * ids.index(option_id))


async def pick(pilot: Pilot[Any], option_id: str) -> None:
    """Highlight the decision option with this id, then press Enter."""
    await highlight(pilot, option_id)
    await pilot.press("enter")
    await pilot.pause()


async def burst(app: App[Any], *keys: str) -> None:
    """Keys as a terminal delivers them when typed quickly: the app takes each one before the
    screen it was sent to has handled the one before (Textual forwards keys to the focused
    widget's queue; the widget handles them later)."""
    chars = {"enter": "\r", "down": None, "escape": "\x1b"}
    for key in keys:
        await app.on_event(events.Key(key, chars.get(key, key)))


def board_of(app: Any) -> Any:
    """The game screen, also under a dialog (the screen on top where there is none)."""
    return app.game_screen() or app.screen


def options(app: App[Any]) -> list[tuple[str | None, str, bool]]:
    """The decision list as shown: each option's id, text and whether it is a heading."""
    ol = board_of(app).query_one("#decision-options")
    out = []
    for i in range(ol.option_count):
        o = ol.get_option_at_index(i)
        out.append((o.id, o.prompt.plain, o.disabled))
    return out


def option_texts(app: App[Any]) -> list[str]:
    """The texts of the decision list, headings included."""
    return [text for _, text, _ in options(app)]


def screen_lines(app: App[Any]) -> list[str]:
    """The characters on the terminal, line by line (what capture-pane would show)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app: App[Any]) -> str:
    """The characters on the terminal as one text."""
    return "\n".join(screen_lines(app))
