"""The app's save file: saving (ctrl+p Save, Save as), loading (ctrl+o), a save that failed,
and noticing that another program (a shell `imperial apply`, a second app) changed the file,
with the offer to reload it rather than overwrite it. A mixin of ``ImperialApp``, kept apart
from the game loop; the SSH server's app replaces the save and load commands (its table saves
every move)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from imperial_tui.model.follow import Following
from imperial_tui.model.session import Session
from rules.savefile import SaveConflict, SaveError


class SaveFileActions:
    """Needs the App's ``session``, ``pace_override``, ``follow``, ``_over_shown``,
    ``_reload_offered``, ``open_game`` and screens."""

    session: Session | None
    pace_override: float | None
    follow: Following
    _over_shown: int
    _reload_offered: bool

    def save_failed(self, exc: SaveError) -> None:
        """A save did not happen: a file changed by another program is offered for reloading
        (never overwritten); any other problem is shown as it is."""
        app: Any = self
        if isinstance(exc, SaveConflict):
            self.offer_reload()
        else:
            app.notify(str(exc), severity="error", timeout=8)

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

        app: Any = self
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
                app.notify(
                    f"{path} is left as the other program saved it; this game is not saved "
                    "until you save it under another name (ctrl+p, Save as)",
                    severity="warning",
                    timeout=10,
                )

        app.push_screen(
            ConfirmScreen(
                f"{path} was changed by another program. Reload it? (No: keep this game "
                "here without saving over it.)"
            ),
            done,
        )

    def show_warnings(self) -> None:
        app: Any = self
        if self.session is not None:
            for warning in self.session.warnings:
                app.notify(warning, severity="warning", timeout=8)

    def action_save(self) -> None:
        app: Any = self
        if self.session is None:
            return
        try:
            path = self.session.save()
            app.notify(f"saved to {path}")
        except SaveError as exc:
            self.save_failed(exc)

    def action_save_as(self) -> None:
        from imperial_tui.app.screens.dialogs import PromptScreen

        app: Any = self
        if self.session is None:
            return

        def done(value: str | None) -> None:
            if value and self.session is not None:
                try:
                    app.notify(f"saved to {self.session.save(Path(value).expanduser())}")
                except (SaveError, OSError) as exc:
                    app.notify(str(exc), severity="error")

        app.push_screen(PromptScreen("Save to which file?", str(self.session.path or "")), done)

    def action_load(self) -> None:
        """ctrl+o: the saved games (newest first, "continue last game" on top), or a path."""
        from imperial_tui.app.screens.load import LoadScreen

        app: Any = self
        current = self.session.path if self.session is not None else None

        def done(value: Path | None) -> None:
            if value is not None:
                self.load(value)

        app.push_screen(LoadScreen(current), done)

    def load(self, path: Path) -> None:
        """Open a save (the Load prompt, or the reload after another program changed it).
        ``Session.load`` refuses a pipe or a device before reading, so this never waits."""
        app: Any = self
        try:
            self.session = Session.load(path)
        except (SaveError, OSError) as exc:
            app.notify(str(exc), severity="error", timeout=6)
            return
        if self.pace_override is not None:
            self.session.pace = self.pace_override
        self._over_shown = -1
        self.follow = Following()
        app.open_game()
        self.show_warnings()
