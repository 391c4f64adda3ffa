"""The local app's save file: saving (ctrl+p Save, Save as), loading (ctrl+o), a save that
failed, and noticing that another program (a shell `imperial apply`, a second app) changed
the file, with the offer to reload it rather than overwrite it. Only the local app has files
on the player's machine (``Features.save_files``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from imperial_tui.model.follow import Following
from imperial_tui.model.recent import load_recent, remember_game
from imperial_tui.model.session import Session, short_path
from rules.savefile import SaveConflict, SaveError, typed_save_path

if TYPE_CHECKING:  # what this part of the app needs of the rest is checked against it
    from imperial_tui.app.base import GameApp

    _App = GameApp[Session]
else:
    _App = object


class SaveFileActions(_App):
    _reload_offered: bool

    def save_failed(self, exc: SaveError) -> None:
        """A save did not happen: a file changed by another program is offered for reloading
        (never overwritten); any other problem is shown as it is."""
        if isinstance(exc, SaveConflict):
            self.offer_reload()
        else:
            self.notify(str(exc), severity="error", timeout=8)

    def check_file(self) -> None:
        """Every few seconds: has another program changed the save since we read or wrote it?"""
        session = self.session
        if session is None or self._reload_offered or session.conflict:
            return
        if session.file_changed():
            session.conflict = True  # no autosave over the other program's version
            self.offer_reload()

    def offer_reload(self) -> None:
        from imperial_tui.app.screens.dialogs import ConfirmScreen

        session = self.session
        if session is None or session.path is None or self._reload_offered:
            return
        self._reload_offered = True
        path = session.path

        def done(yes: bool | None) -> None:
            self._reload_offered = False
            if yes:
                self.load(path)
            else:
                self.notify(
                    f"{path} is left as the other program saved it; this game is not saved "
                    "until you save it under another name (ctrl+p, Save as)",
                    severity="warning",
                    timeout=10,
                )

        self.push_screen(
            ConfirmScreen(
                f"{path} was changed by another program. Reload it? (No: keep this game "
                "here without saving over it.)"
            ),
            done,
        )

    def show_warnings(self) -> None:
        if self.session is not None:
            for warning in self.session.warnings:
                self.notify(warning, severity="warning", timeout=8)

    def said_saved(self, path: Path) -> None:
        """Saved: said on the board's last-event line, where it hides nothing, with the
        path as the player would type it (from the current folder or ~)."""
        shown = short_path(path)
        screen = self.game_screen()
        if screen is not None and self.screen is screen:
            screen.say_briefly(f" saved to {shown}")
        else:
            self.notify(f"saved to {shown}")

    def action_save(self) -> None:
        if self.session is None:
            return
        try:
            path = self.session.save()
            self.said_saved(path)
        except SaveError as exc:
            self.save_failed(exc)

    def action_save_as(self) -> None:
        from imperial_tui.app.screens.dialogs import PromptScreen

        if self.session is None:
            return

        def done(value: str | None) -> None:
            if value and self.session is not None:
                try:
                    saved = self.session.save(typed_save_path(value))
                    remember_game(saved)  # (the game is now this file: Load lists it)
                    self.said_saved(saved)
                except (SaveError, OSError) as exc:
                    self.notify(str(exc), severity="error")

        self.push_screen(PromptScreen("Save to which file?", str(self.session.path or "")), done)

    def action_load(self) -> None:
        """ctrl+o: the saved games (newest first, "continue last game" on top), or a path."""
        from imperial_tui.app.screens.load import LoadScreen

        current = self.session.path if self.session is not None else None

        def done(value: Path | None) -> None:
            if value is not None:
                self.load(value)

        self.push_screen(LoadScreen(current, recent=load_recent().games), done)

    def load(self, path: Path) -> None:
        """Open a save (the Load prompt, or the reload after another program changed it).
        ``Session.load`` refuses a pipe or a device before reading, so this never waits."""
        try:
            self.session = Session.load(path)
        except (SaveError, OSError) as exc:
            self.notify(str(exc), severity="error", timeout=6)
            return
        remember_game(path)
        self._over_shown = -1
        self.follow = Following()
        self.open_game()
        self.show_warnings()

    def play_session(self, session: Session) -> None:
        """Switch to another game (a branch from the history): it is on show at once, the
        one before stays in its own file."""
        self.session = session
        self._over_shown = -1
        self.follow = Following()
        self.open_game()
