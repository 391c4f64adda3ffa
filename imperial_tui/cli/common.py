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

from imperial_tui.cli.messages import (  # noqa: F401 (the command modules import them here)
    EXIT_GAME,
    EXIT_USAGE,
    CommandError,
    one_line,
    shown,
)
from imperial_tui.cli.quick import load_at, start_app
from rules import Game
from rules.savefile import LoadedGame, SaveError, load_game

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
    """The saved game, or the position after its first ``at`` actions (``quick.load_at``)."""
    try:
        return load_at(path, at)
    except CommandError as exc:
        _fail(str(exc), exc.code)


def _start_app(path: Path | None) -> None:
    """Open the Textual app on a save file (None: the new-game screen), for bare ``imperial``
    and ``imperial new`` without ``--save`` at a terminal (Textual is imported only then)."""
    try:
        start_app(path)
    except CommandError as exc:
        _fail(str(exc), exc.code)
