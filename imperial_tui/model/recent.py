"""What the app remembers between runs: the seats of the last new game (names and who plays
them) and the game last played, so that the new-game screen starts from the table a group
plays with and "continue" finds the game opened last, also one opened with
``imperial play FILE`` outside the save folder.

Kept in ``$XDG_STATE_HOME/imperial/recent.json`` (``~/.local/state``). The file is bad input
like any other: one that is not ours, too big, or wrong in any field is ignored (the app
starts from its defaults) and replaced at the next write; a write that fails is skipped —
remembering is a convenience, never a reason to stop a game.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from rules.controllers import Controller
from rules.safe_file import FileProblem, read_regular

MAX_SEATS = 6
MAX_NAME = 20
OFF = "off"  # an empty seat on the new-game screen


def recent_file() -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "imperial" / "recent.json"


@dataclass(frozen=True, slots=True)
class Recent:
    """The last new game's seats ((name, controller word) in seat order) and the save file
    of the game last played."""

    seats: tuple[tuple[str, str], ...] = ()
    last_game: Path | None = None


def load_recent(path: Path | None = None) -> Recent:
    """What was remembered; ``Recent()`` for a missing, foreign or damaged file."""
    try:
        doc = json.loads(read_regular(path or recent_file()))
    except (OSError, ValueError, FileProblem, RecursionError):
        return Recent()
    if not isinstance(doc, dict):
        return Recent()
    last = doc.get("last_game")
    last_game = Path(last) if isinstance(last, str) and last and "\0" not in last else None
    return Recent(_seats(doc.get("seats")), last_game)


def _seats(raw: object) -> tuple[tuple[str, str], ...]:
    """The remembered seats, all of them well formed, else none."""
    if not isinstance(raw, list) or len(raw) > MAX_SEATS:
        return ()
    seats: list[tuple[str, str]] = []
    for entry in raw:
        if not (isinstance(entry, list) and len(entry) == 2):
            return ()
        name, word = entry
        if not isinstance(name, str) or not isinstance(word, str):
            return ()
        if len(name) > MAX_NAME or not name.isprintable():
            return ()
        if word != OFF:
            try:
                Controller(word)
            except ValueError:
                return ()
        seats.append((name, word))
    return tuple(seats)


def save_recent(recent: Recent, path: Path | None = None) -> None:
    """Write what to remember (atomically: a crash mid-write leaves the old file)."""
    target = path or recent_file()
    doc = {
        "seats": [list(seat) for seat in recent.seats],
        "last_game": str(recent.last_game) if recent.last_game else None,
    }
    with contextlib.suppress(OSError):
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(target.name + ".tmp")
        temporary.write_text(json.dumps(doc, indent=1), encoding="utf-8")
        temporary.replace(target)


def remember_seats(seats: list[tuple[str, str]], path: Path | None = None) -> None:
    """The new-game screen's seats as started (empty seats included, so the table keeps its
    shape)."""
    old = load_recent(path)
    save_recent(Recent(tuple(seats[:MAX_SEATS]), old.last_game), path)


def remember_game(game_file: Path, path: Path | None = None) -> None:
    """The save file of the game now on show: "continue" offers it next time."""
    old = load_recent(path)
    save_recent(Recent(old.seats, game_file.absolute()), path)
