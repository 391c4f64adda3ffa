"""What every command module of ``imperial`` shares: the exit codes, the one-line failure,
loading a save (whole, or at an earlier position with ``--at``), the FILE, ``--at`` and
``--ascii`` arguments, and opening the app (Textual imported only inside ``_start_app``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from rules import Game
from rules.savefile import LoadedGame, SaveError, load_game, printable

EXIT_GAME = 1  # the save file or the game refused: bad save, illegal action
EXIT_USAGE = 2  # the command line itself is wrong: bad option, impossible set-up


FileArg = Annotated[
    Path,
    typer.Argument(
        metavar="FILE",
        help="A save file (written by `imperial new` or the app).",
        show_default=False,
    ),
]


AsciiOpt = Annotated[
    bool,
    typer.Option(
        "--ascii",
        help="Plain ASCII characters only in the app (also IMPERIAL_ASCII=1), for terminals "
        "without Unicode.",
    ),
]


def _want_ascii(flag: bool) -> None:
    """``--ascii`` sets IMPERIAL_ASCII=1, which the app reads (``imperial_tui.render.style``),
    so the flag and the environment variable mean exactly the same."""
    if flag:
        os.environ["IMPERIAL_ASCII"] = "1"


def _console() -> Console:
    """Standard output console; Rich itself honours NO_COLOR and non-terminal output."""
    return Console(highlight=False, soft_wrap=False)


MAX_LINE = 400  # characters of one message line; what a user typed may be of any length


def one_line(message: str, limit: int = MAX_LINE) -> str:
    """``message`` safe to print on one line of at most ``limit`` characters. A longer one
    (a huge value typed or read from a file, echoed in the reason) loses its middle, so that
    its start (what failed) and its end (why) stay."""
    text = printable(message)
    if len(text) <= limit:
        return text
    half = (limit - 5) // 2
    return f"{text[:half]} ... {text[-half:]}"


def shown(value: str, limit: int = 40) -> str:
    """A value the user typed, quoted and cut for a message (``'Ann=gree...'``)."""
    return repr(printable(value, limit))


def _fail(message: str, code: int = EXIT_GAME) -> NoReturn:
    """One line to stderr and the exit code: the user sees what went wrong, not where."""
    sys.stderr.write(f"imperial: {one_line(message)}\n")
    raise typer.Exit(code)


def _load(path: Path) -> LoadedGame:
    try:
        return load_game(path)
    except SaveError as exc:
        _fail(str(exc))


AtOpt = Annotated[
    int | None,
    typer.Option(
        "--at",
        metavar="N",
        help="The position after the first N actions (0: the start; -N: N actions before "
        "the last).",
        show_default=False,
    ),
]


def _game_at(path: Path, at: int | None) -> Game:
    """The saved game, or the position after its first ``at`` actions (``game_at``: the
    position the engine recorded then, exactly as undo restores it)."""
    from rules.history import game_at

    game = _load(path).game
    if at is None:
        return game
    total = len(game.history)
    n = at if at >= 0 else total + at
    if not 0 <= n <= total:
        _fail(f"--at {at}: {path} has {total} action{'s' if total != 1 else ''}", EXIT_USAGE)
    return game_at(game, n)


def _start_app(path: Path | None) -> None:
    """Open the Textual app on a save file (None: the new-game screen), for bare ``imperial``
    and ``imperial new`` without ``--save`` at a terminal. Textual is imported only inside
    this function so that every other command stays free of it."""
    from imperial_tui.app import run

    try:
        run(str(path) if path is not None else None)
    except SaveError as exc:
        _fail(str(exc))
