"""An internal error in the app: one line for the player, the traceback in a log file.

A crash must never print a traceback over the game, nor pass for a normal exit: the player
gets one line naming the save file (the game is autosaved after every move) and the log file,
and the process exits with EXIT_CRASH.
"""

from __future__ import annotations

import os
import traceback
from datetime import datetime
from pathlib import Path

EXIT_CRASH = 3  # the app stopped on an internal error (1: a file or the game refused)


class Crash:
    """An internal error that ended the app: the error, its log file and the save."""

    def __init__(self, error: BaseException, log: Path | None, save: Path | None) -> None:
        self.error = error
        self.log = log
        self.save = save

    def line(self) -> str:
        """One line for the terminal: what happened, where the game is, where the details
        are."""
        what = f"{type(self.error).__name__}: {self.error}"
        what = " ".join(what.split())[:120]
        where = f"the game is saved in {self.save}" if self.save else "no game was open"
        log = f"; details in {self.log}" if self.log else ""
        return f"imperial: the app stopped on an internal error ({what}); {where}{log}"


def crash_dir() -> Path:
    """Where crash logs go: the user's state directory (XDG), not the game's."""
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "imperial"


def write_crash_log(error: BaseException) -> Path | None:
    """The traceback in a file of its own; None if even that fails."""
    try:
        directory = crash_dir()
        directory.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
        path = directory / f"crash-{stamp}.log"
        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        path.write_text(text, encoding="utf-8")
        return path
    except Exception:
        return None
