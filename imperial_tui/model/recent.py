"""What the app remembers between runs: the seats of the last new game (names and who plays
them) and the games played last, so that the new-game screen starts from the table a group
plays with, "continue" finds the game opened last and Load lists the others, also those
opened with ``imperial play FILE`` or saved with "save as" outside the save folder.

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
MAX_GAMES = 12  # the games played last, each listed by Load wherever its file is
OFF = "off"  # an empty seat on the new-game screen


def recent_file() -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    return base / "imperial" / "recent.json"


@dataclass(frozen=True, slots=True)
class Recent:
    """The last new game's seats ((name, controller word) in seat order) and the save files
    of the games played last, the last one first. Load lists them wherever they are: a game
    saved with "save as" outside the save folder was lost from the list as soon as another
    game was opened (a playtest)."""

    seats: tuple[tuple[str, str], ...] = ()
    games: tuple[Path, ...] = ()

    @property
    def last_game(self) -> Path | None:
        """The game played last: the one "continue last game" offers."""
        return self.games[0] if self.games else None


def load_recent(path: Path | None = None) -> Recent:
    """What was remembered; ``Recent()`` for a missing, foreign or damaged file."""
    try:
        doc = json.loads(read_regular(path or recent_file()))
    except (OSError, ValueError, FileProblem, RecursionError):
        return Recent()
    if not isinstance(doc, dict):
        return Recent()
    listed = doc.get("games")
    if not isinstance(listed, list):  # (a file written before the list: its one game)
        listed = [doc.get("last_game")]
    games = tuple(Path(g) for g in listed[:MAX_GAMES] if isinstance(g, str) and g and "\0" not in g)
    return Recent(_seats(doc.get("seats")), games)


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
        "games": [str(game) for game in recent.games[:MAX_GAMES]],
        # (read by an older program, which knows only the one game)
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
    save_recent(Recent(tuple(seats[:MAX_SEATS]), old.games), path)


def remember_game(game_file: Path, path: Path | None = None) -> None:
    """The save file of the game now on show: "continue" offers it next time, and Load
    lists it with the others played last."""
    old = load_recent(path)
    shown = game_file.absolute()
    games = (shown, *(game for game in old.games if game != shown))
    save_recent(Recent(old.seats, games[:MAX_GAMES]), path)
