"""The app's session for one SSH connection: the same attributes the panels read (``game``,
``viewer``, ``version``, ``shows_cash_of`` ...), but the game is the table's, seen from this
player's seat, and every change goes to the table with the connection's user.

Per-connection state lives here and in the connection's app (which seat, which version the
screen shows, the "changed since last turn" marks); the game itself is shared.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from imperial_tui.server.table import Table
from imperial_tui.model.session import Session
from rules.bots import Bot
from rules.savefile import SaveError


@dataclass
class RemoteSession(Session):
    table: Any = None
    user: str = ""
    seen: int = -1  # the table's game version on this screen (a choice from an older is stale)

    runs_seats: ClassVar[bool] = False

    @classmethod
    def open(cls, table: Table, user: str) -> RemoteSession:
        player = table.player_of(user)
        view = table.view_for(player)
        assert view is not None, "the table has no game yet"
        session = cls(
            view,
            table.controllers(),
            None,
            hidden_cash=table.hidden_cash,
            pace=table.pace,
            viewer=player,
            table=table,
            user=user,
        )
        session.version = table.version
        session.seen = table.game_version
        return session

    def __post_init__(self) -> None:
        # no bots here: the table runs them
        self._track_turn()

    def refresh(self) -> bool:
        """Take the table's latest state; False when nothing changed."""
        table = self.table
        if self.version == table.version:
            return False
        view = table.view_for(self.viewer)
        if view is None:
            return False
        self.game = view
        self.controllers = table.controllers()
        self.pace = table.pace
        self.version = table.version
        self.seen = table.game_version
        self._track_turn()
        return True

    # -- seats --------------------------------------------------------------------------------
    def controls(self, player: str | None) -> bool:
        return player is not None and player == self.viewer

    def bot_for(self, player: str) -> Bot | None:
        return None

    @property
    def spectator(self) -> bool:
        return self.viewer is None

    # -- changes go to the table --------------------------------------------------------------
    def apply(self, action: Any) -> list[Any]:
        self.table.apply(self.user, action, expect=self.seen)
        self.refresh()
        return []

    def undo_steps(self) -> int:
        return self.table.undo_steps(self.viewer)

    def undo_refusal(self) -> str | None:
        return self.table.undo_refusal(self.viewer)

    def undo(self) -> int:
        steps = self.table.undo(self.user)
        self.refresh()
        return steps

    def say(self, text: str) -> None:
        self.table.say(self.user, text)
        self.refresh()

    # -- saving: the server keeps every move ---------------------------------------------------
    def autosave(self) -> None:
        """The pace (+/-) is the one setting a player changes; the table keeps it."""
        if self.pace != self.table.pace and not self.spectator:
            self.table.set_pace(self.pace)

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        raise SaveError(
            f"the server saves every move itself; the host can export this game with "
            f"`imperial serve export {self.table.id} FILE`"
        )
