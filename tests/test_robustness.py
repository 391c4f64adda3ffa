"""The app survives any key at any window size (issue #12): the short-terminal crash, the
minimum-size screen, crash reporting, pace clamping and a seeded monkey."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from monkey import MonkeyLog, monkey, press, resize
from pilot import drive

from imperial_tui.app import ImperialApp
from imperial_tui.app.crash import EXIT_CRASH, Crash
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.model.pacing import PACE_MAX, clamp_pace
from imperial_tui.model.session import Session
from rules import Game


def two_humans(tmp_path: Path, **kwargs) -> Session:
    game = Game.new(["Anna", "Ben"], seed=4)
    return Session(game, {"Anna": "human", "Ben": "human"}, tmp_path / "g.json", **kwargs)


async def test_page_keys_in_a_short_terminal_do_not_crash(tmp_path: Path) -> None:
    """The issue's repro: 80x14, Down, PageUp (and PageDown) in the decision list."""
    app = ImperialApp(session=two_humans(tmp_path), pace=0.0)
    async with drive(app, (80, 14)) as pilot:
        await pilot.press("down", "pageup", "pagedown", "pageup")
        await pilot.pause()
    assert app.return_code in (None, 0)


async def test_page_keys_in_a_zero_height_option_list_move_by_one(tmp_path: Path) -> None:
    """Below the minimum size a page key still never fails, even on a list squeezed to no
    height at all: Textual's own lists (the palette's) are made safe, not only ours."""

    app = ImperialApp(session=two_humans(tmp_path), pace=0.0)
    async with drive(app) as pilot:
        options = app.screen.query_one("#decision-options")
        options.styles.height = 0
        await pilot.pause()
        options.highlighted = 1
        options.action_page_down()
        assert options.highlighted == 2
        options.action_page_up()
        assert options.highlighted == 1


async def test_an_option_list_measured_no_wider_than_its_padding_does_not_crash() -> None:
    """Found by the long monkey run (seed 102, a 1x1 window after the palette): the height of
    an option list measured at the width of its options' padding cut words into zero-cell
    pieces (ValueError in Rich); every option list is made safe, Textual's own too."""
    from textual.app import App
    from textual.geometry import Size
    from textual.widgets import OptionList

    import imperial_tui.app  # noqa: F401  (importing the app makes option lists safe)

    class Lists(App[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            yield OptionList("Production1 free produces 2 armies", "Maneuver", "Quit the game")

    app = Lists()
    async with drive(app, (40, 10)) as pilot:
        await pilot.pause()
        options = app.query_one(OptionList)
        padding = options.get_component_styles("option-list--option").padding.width
        for width in (padding, padding - 1, 0):
            height = options.get_content_height(Size(1, 1), Size(1, 1), width)
            assert height >= options.option_count


async def test_a_window_below_the_minimum_says_so_and_comes_back(tmp_path: Path) -> None:
    session = two_humans(tmp_path)
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        screen = app.screen
        assert isinstance(screen, GameScreen)
        focused = screen.focused
        await pilot.resize_terminal(40, 10)
        await pilot.pause()
        assert screen.too_small
        message = str(screen.query_one("#too-small").render())
        assert "40x10" in message and "at least 64x20" in message
        assert not screen.query_one("#main").display  # the panels are hidden
        # keys do nothing meanwhile: no decision is taken, nothing is lost
        version = session.version
        await pilot.press("enter", "pageup", "pagedown", "ctrl+z", "1", "d")
        await pilot.pause()
        assert session.version == version
        assert app.screen is screen
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.too_small
        assert screen.focused is focused
        await pilot.press("enter")
        await pilot.pause()
        assert session.version == version + 1


async def test_the_new_game_screen_also_has_a_minimum_size() -> None:
    app = ImperialApp(seed=1)
    async with drive(app, (30, 8)) as pilot:
        await pilot.pause()
        assert app.screen.too_small
        await pilot.press("ctrl+g", "enter", "pageup")
        await pilot.pause()
        assert app.session is None  # ctrl+g did not start a game behind the message
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not app.screen.too_small


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1e308, PACE_MAX),
        (float("inf"), PACE_MAX),
        (-1, 0.0),
        (-1e308, 0.0),
        (float("nan"), 0.6),
        ("fast", 0.6),
        ("1.5", 1.5),
        (True, 0.6),
        (None, 0.6),
        (10**400, PACE_MAX),
        (0.3, 0.3),
    ],
    ids=repr,
)
def test_pace_is_clamped_to_a_sane_range(value: object, expected: float) -> None:
    assert clamp_pace(value) == expected


@pytest.mark.parametrize("pace", ["1e308", "-5", "Infinity", "-Infinity"])
def test_a_save_whose_pace_would_stall_play_is_clamped(tmp_path: Path, pace: str) -> None:
    session = two_humans(tmp_path)
    session.save()
    text = session.path.read_text()
    text = text.replace('"pace": 0.6', f'"pace": {pace}')
    assert f'"pace": {pace}' in text
    session.path.write_text(text)
    loaded = Session.load(session.path)
    assert 0.0 <= loaded.pace <= PACE_MAX
    assert any("pace" in w for w in loaded.warnings)


def test_a_crash_is_one_line_naming_the_save_and_the_log(tmp_path: Path) -> None:
    """A crash anywhere exits non-zero with one line; the traceback goes to a log file."""
    save = tmp_path / "g.json"
    two_humans(tmp_path).save()
    script = (
        "import sys\n"
        "from imperial_tui.app import ImperialApp, run_app\n"
        "from imperial_tui.model.session import Session\n"
        "class Broken(ImperialApp):\n"
        "    def on_mount(self):\n"  # Textual also runs ImperialApp.on_mount
        "        self.set_timer(0.5, self.boom)\n"
        "    def boom(self):\n"
        "        raise KeyError('boom')\n"
        f"run_app(Broken(session=Session.load({str(save)!r})))\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "TERM": "xterm-256color",
        "TEXTUAL_HEADLESS": "1",
        "PYTHONPATH": str(Path(__file__).parent.parent),
    }
    program = tmp_path / "broken_app.py"
    program.write_text(script)
    done = subprocess.run(
        [sys.executable, str(program)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=Path(__file__).parent.parent,
    )
    assert done.returncode == EXIT_CRASH, done.stderr
    # what stays on the terminal: everything after leaving the alternate screen (Textual,
    # without a terminal, draws its frames to stderr), minus the restore sequences
    after = done.stderr.rsplit("\x1b[?1049l", 1)[-1]
    plain = re.sub(r"\x1b(\[[0-9;?>=<$ ]*[A-Za-z~]|\][^\x07]*\x07|[=>78])", "", after)
    lines = [line for line in plain.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert str(save) in lines[0] and "KeyError" in lines[0]
    assert "Traceback" not in done.stdout + done.stderr
    logs = list((tmp_path / "state" / "imperial").glob("crash-*.log"))
    assert len(logs) == 1
    assert "Traceback" in logs[0].read_text() and "boom" in logs[0].read_text()
    assert str(logs[0]) in lines[0]


def test_crash_line_is_cut_and_on_one_line() -> None:
    crash = Crash(ValueError("a\nb " + "x" * 500), Path("/tmp/c.log"), Path("g.json"))
    line = crash.line()
    assert "\n" not in line and "g.json" in line and "/tmp/c.log" in line
    assert len(line) < 260


class MonkeyApp(ImperialApp):
    """Quitting, loading and starting a new game leave the game under test: those choices
    (from the command palette) are ignored; the new-game screen has its own monkey."""

    def action_request_quit(self) -> None:
        return

    def action_new_game(self) -> None:
        return

    def action_load(self) -> None:
        return


async def back_to_game_screen(pilot: Any, log: MonkeyLog) -> None:
    """Close whatever the monkey (or the computer's turn) left over the game screen."""
    app = pilot.app
    for _ in range(8):
        await pilot.pause(0.05)  # a recap comes a frame after the computers' last move
        name = type(app.screen).__name__
        if name == "GameScreen":
            break
        # a hand-over waits for Enter, a yes/no question is answered no, the rest
        # (help, palette, prompts, the recap, the score screen) close on escape
        key = {"HandoverScreen": "enter", "ConfirmScreen": "n"}.get(name, "escape")
        await pilot.press(key)
        await pilot.pause()
    assert isinstance(app.screen, GameScreen), (type(app.screen).__name__, log.tail())


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_monkey_keys_and_sizes_never_crash_and_play_goes_on(
    tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random keys and sizes (1x1 and 80x14 among them) in a game with a computer player,
    hidden cash on every other run; afterwards a human can still make a legal move."""
    monkeypatch.chdir(tmp_path)  # "Save as" and screenshots typed by the monkey land here
    game = Game.new(["Anna", "Ben", "Cleo"], seed=seed)
    controllers = {"Anna": "human", "Ben": "bot:greedy", "Cleo": "human"}
    session = Session(game, controllers, tmp_path / "m.json", hidden_cash=seed % 2 == 1)
    log = MonkeyLog()

    app = MonkeyApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        rng = random.Random(seed)
        await resize(pilot, 1, 1)
        await press(pilot, "pageup", "enter", "down")
        await resize(pilot, 80, 14)
        await press(pilot, "down", "pageup", "pagedown")
        await monkey(pilot, rng, 600, log)
        assert app.return_code is None, log.tail()
        # back to a normal window, every dialog closed: a human can still decide
        await pilot.resize_terminal(80, 24)
        await back_to_game_screen(pilot, log)
        live = app.session
        for _ in range(400):
            aw = live.game.awaiting
            if aw is None or (live.is_human(aw.player) and not app._bot_busy):
                break
            await pilot.pause(0.01)
        if live.game.awaiting is None:
            return
        # the computer's turn may end on a hand-over or a "since your last turn" recap
        await back_to_game_screen(pilot, log)
        before = len(live.game.plies)
        options = app.screen.query_one("#decision-options")
        options.focus()
        await pilot.press("home", "enter")
        await pilot.pause()
        if len(live.game.plies) == before:  # a maneuver opens a unit's moves first
            await pilot.press("enter")
            await pilot.pause()
        assert len(live.game.plies) > before, log.tail()


async def test_monkey_on_the_new_game_screen_never_crashes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Random keys and sizes on the new-game screen (typing into names, cycling options,
    starting a game or not): no exception."""
    monkeypatch.chdir(tmp_path)
    log = MonkeyLog()

    app = ImperialApp(save_path=tmp_path / "n.json", seed=5, pace=0.0)
    async with drive(app) as pilot:
        await monkey(pilot, random.Random(5), 500, log)
        assert app.return_code is None, log.tail()
