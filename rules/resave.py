"""Whether a save needs writing again, and whether it could be written, without writing it.

Opening a save in the app used to write it again at once, and every save carries when and by
which program it was written: another app showing the same file then saw it changed and
offered a reload although nothing had. So a save is written again only when it would hold
something else (``save_needed``); otherwise only whether it could be written is checked
(``check_can_save``), since the app autosaves to it and a read-only save is refused before
the app starts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.game import Game
from rules.safe_file import FileProblem, check_writable, digest, read_regular, target_of
from rules.safe_json import JsonProblem, read_json
from rules.savefile import SaveError, game_to_dict

# What a save says of when and by which program it was written, not of the game: a save that
# differs from the file only in these changes nothing (``save_needed``).
STAMPS = ("saved", "program")


def save_needed(
    path: str | os.PathLike[str],
    game: Game,
    controllers: Mapping[str, str] | None = None,
    app: Mapping[str, Any] | None = None,
    created: str | None = None,
    *,
    expected_digest: str | None = None,
) -> bool:
    """Whether ``save_game`` with these arguments would change what the file holds, apart
    from its ``STAMPS``: the seats or app settings differ, the save is written in an older
    form (a field missing or written otherwise), or the file cannot be read as a save. With
    ``expected_digest``, a file changed since it was read needs one too (which
    ``save_game`` then refuses: ``SaveConflict``). Reads the file; writes nothing."""
    try:
        raw = read_regular(Path(path))
    except FileProblem:
        return True
    if expected_digest is not None and digest(raw) != expected_digest:
        return True
    try:
        on_disk = read_json(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, JsonProblem):
        return True
    if not isinstance(on_disk, dict):
        return True
    doc = game_to_dict(game, controllers, app, created)
    ours = {k: v for k, v in doc.items() if k not in STAMPS}
    return ours != {k: v for k, v in on_disk.items() if k not in STAMPS}


def check_can_save(path: str | os.PathLike[str]) -> None:
    """Raise the one-line SaveError ``save_game`` would give if it could not replace the file
    ``path`` names (read-only, a directory or a device, a folder that cannot be written),
    without writing anything."""
    try:
        target = target_of(Path(path))
        check_writable(target)
        if not os.access(target.parent, os.W_OK | os.X_OK):
            raise FileProblem("cannot save: Permission denied (the folder is not writable)")
    except FileProblem as exc:
        raise SaveError(f"{path}: {exc}") from None
