"""Load: the saved games of the autosave directory, newest first, with "continue last game"
on top and "another file..." for a typed path. Each entry says who plays and how far the game
is, read from the save's header (the game itself is replayed only when chosen). Each file is
listed once, whatever name it was reached by (compared resolved: a path relative to where
``imperial play`` ran, a symbolic link); the game to continue is not listed again below."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from imperial_tui.app.screens.guard import DismissFromTop, GuardedDialog
from imperial_tui.model.session import default_save_path
from rules.common import counted
from rules.safe_file import FileProblem, read_regular
from rules.savefile import printable

MAX_LISTED = 40


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A save file as the list shows it."""

    path: Path
    saved: float  # modification time
    players: tuple[str, ...]
    actions: int
    round: int | None = None  # the header's, where it has one (an older save has none)
    winners: tuple[str, ...] = ()  # the header's: a finished game's

    def label(self) -> str:
        when = datetime.fromtimestamp(self.saved).strftime("%Y-%m-%d %H:%M")
        who = ", ".join(self.players) or "?"
        return f"{when}  {printable(who, 40)}  ({self.progress()})  {self.path.name}"

    def progress(self) -> str:
        """How far the game is: "round 12, 345 actions", or who won a finished one."""
        actions = counted(self.actions, "action", "actions")
        if self.winners:
            names = printable(" and ".join(self.winners), 40)
            won = f"{names} won" if len(self.winners) == 1 else f"shared by {names}"
            return f"{actions}, over: {won}"
        if self.round is not None:
            return f"round {self.round}, {actions}"
        return actions


def same_file_key(path: Path) -> Path:
    """What tells two names of one file apart from two files: the resolved path (links
    followed, made absolute); the absolute path where it cannot be resolved."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def once_each(games: list[SavedGame]) -> list[SavedGame]:
    """``games`` with each file listed once: its first entry kept."""
    seen: set[Path] = set()
    kept: list[SavedGame] = []
    for game in games:
        key = same_file_key(game.path)
        if key not in seen:
            seen.add(key)
            kept.append(game)
    return kept


def save_directory() -> Path:
    """Where the app saves new games (``default_save_path``'s directory)."""
    return default_save_path().parent


def saved_games(directory: Path, limit: int = MAX_LISTED) -> list[SavedGame]:
    """The save files in ``directory``, newest first; files that are not saves are left
    out (reading stops at the header: never a replay, never a pipe)."""
    found: list[SavedGame] = []
    try:
        candidates = sorted(
            (p for p in directory.glob("*.json") if p.is_file()),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
    except OSError:
        return []
    for path in candidates[: limit * 2]:
        game = read_saved(path)
        if game is not None:
            found.append(game)
        if len(found) >= limit:
            break
    return found


def read_saved(path: Path) -> SavedGame | None:
    """A save file's entry, read from its header (never a replay, never a pipe); None when
    the file is gone or is no save."""
    try:
        doc = json.loads(read_regular(path))
        if not isinstance(doc, dict) or doc.get("format") != "imperial-save":
            return None
        players = tuple(
            str(p.get("name", "?")) for p in doc.get("players", []) if isinstance(p, dict)
        )
        actions = doc.get("actions", [])
        count = len(actions) if isinstance(actions, list) else 0
        # (informative header fields: whatever their type, they never stop a file's listing)
        number = doc.get("round")
        shown_round = number if type(number) is int and 0 <= number < 10_000 else None
        winners = doc.get("winners")
        won = (
            tuple(winners)
            if isinstance(winners, list)
            and 0 < len(winners) <= len(players)
            and all(isinstance(name, str) and name for name in winners)
            else ()
        )
        return SavedGame(path, path.stat().st_mtime, players, count, shown_round, won)
    except (OSError, ValueError, FileProblem, RecursionError):
        return None


class LoadScreen(DismissFromTop, GuardedDialog, ModalScreen[Path | None]):
    """Choose a saved game; ``current`` (the game on show) is marked, not offered first."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel", id="load.cancel"),
    ]

    def __init__(
        self,
        current: Path | None = None,
        directory: Path | None = None,
        recent: tuple[Path, ...] = (),
    ) -> None:
        """``current``: the game on show, if any. ``recent``: the games played last, the last
        one first (model.recent), listed even when they are not in the save folder (opened
        with ``imperial play FILE``, saved with "save as")."""
        super().__init__()
        self.current = current
        self.directory = directory or save_directory()
        games = saved_games(self.directory)
        games += [played for path in recent if (played := read_saved(path)) is not None]
        self.games = sorted(once_each(games), key=lambda g: g.saved, reverse=True)
        self.last = next(
            (g for g in self.games if recent and same_file_key(g.path) == same_file_key(recent[0])),
            None,
        )

    def shown_now(self, game: SavedGame) -> bool:
        """Whether ``game`` is the game on show (by whatever name it was opened)."""
        return self.current is not None and same_file_key(game.path) == same_file_key(self.current)

    def continued(self) -> SavedGame | None:
        """The game "continue last game" offers when no game is on show: the one played last,
        else the newest save. With a game on show nothing is "the last game" but that one:
        the list is the saves, newest first, and the first not on show is highlighted (a
        playtest: after "save as", the file saved before it was offered as the last game)."""
        if self.current is not None or not self.games:
            return None
        return self.last or self.games[0]

    def compose(self) -> ComposeResult:
        options: list[Option] = []
        first = self.continued()
        if first is not None:  # (on top, and not listed again below)
            i = self.games.index(first)
            label = Text(f"Continue last game: {first.label()}", style="bold")
            options.append(Option(label, id=str(i)))
        for i, g in enumerate(self.games):
            if g is not first:
                mark = " (on show)" if self.shown_now(g) else ""
                options.append(Option(Text(g.label() + mark), id=str(i)))
        options.append(Option(Text("Another file... (type its path)", style="italic"), id="path"))
        with Vertical(classes="dialog wide-dialog"):
            yield Static(f"Load a saved game ({self.directory})", classes="question")
            yield OptionList(*options, id="load-list")
            yield Static("enter load   escape cancel", classes="hint")

    def on_mount(self) -> None:
        listed = self.query_one("#load-list", OptionList)
        shown = {str(i) for i, g in enumerate(self.games) if self.shown_now(g)}
        ids = [listed.get_option_at_index(k).id for k in range(listed.option_count)]
        # (never the game already on show)
        listed.highlighted = next((k for k, oid in enumerate(ids) if oid not in shown), 0)
        listed.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        oid = event.option.id or ""
        if oid == "path":
            from imperial_tui.app.screens.dialogs import PromptScreen

            def typed(value: str | None) -> None:
                if value:
                    self.dismiss(Path(value).expanduser())

            self.app.push_screen(PromptScreen("Load which save file?"), typed)
            return
        if oid.isdigit() and int(oid) < len(self.games):
            self.dismiss(self.games[int(oid)].path)

    def action_cancel(self) -> None:
        self.dismiss(None)
