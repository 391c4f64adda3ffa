"""The app's session for one SSH connection: a ``GameSession`` (the protocol the app plays
through, ``imperial_tui.model.session``) whose game is the table's, seen from this player's
seat, and whose every change goes to the table with the connection's user.

Per-connection state lives here and in the connection's app (which seat, which version the
screen shows, the "changed since last turn" marks); the game itself is shared. The table runs
the computer players and keeps the save, so this session has neither.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from imperial_tui.model.reasons import Reason
from imperial_tui.model.session import TurnMarks, humans_of
from imperial_tui.server.table import Table, TableView
from rules import Action
from rules.bots import Bot
from rules.controllers import HUMAN, Controller
from rules.state import Event


@dataclass
class RemoteSession:
    """One connection's seat at a table (``viewer`` None: a spectator)."""

    game: TableView
    table: Table
    user: str
    viewer: str | None
    controllers: dict[str, Controller]
    hidden_cash: bool
    pace: float
    version: int = 0
    seen: int = -1  # the table's game version on this screen (a choice from an older is stale)
    pause: str = "off"  # the table's computer players move at the table's pace, never wait
    warnings: list[str] = field(default_factory=list)
    reasons: Mapping[int, Reason] = field(default_factory=dict)
    marks: TurnMarks = field(default_factory=TurnMarks)

    runs_seats: ClassVar[bool] = False

    @classmethod
    def open(cls, table: Table, user: str) -> RemoteSession:
        player = table.player_of(user)
        view = table.view_for(player)
        assert view is not None, "the table has no game yet"
        session = cls(
            view,
            table,
            user,
            viewer=player,
            controllers=table.controllers(),
            hidden_cash=table.hidden_cash,
            pace=table.pace,
            version=table.version,
            seen=table.game_version,
        )
        session.marks.track(view)
        return session

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
        self.marks.track(view)
        return True

    # -- what the panels read ------------------------------------------------------------------
    @property
    def view(self) -> TableView:
        """The table's game as this seat may see it (the table made it: ``Table.view_for``)."""
        return self.game

    @property
    def changed(self) -> set[str]:
        return self.marks.changed

    @property
    def humans(self) -> list[str]:
        return humans_of(self.game, self.controllers)

    def is_human(self, player: str | None) -> bool:
        return player is not None and self.controllers.get(player, HUMAN).is_human

    def shows_cash_of(self, player: str) -> bool:
        return self.game.shows_cash_of(player)

    # -- seats ---------------------------------------------------------------------------------
    @property
    def spectator(self) -> bool:
        return self.viewer is None

    def controls(self, player: str | None) -> bool:
        return player is not None and player == self.viewer

    def bot_for(self, player: str) -> Bot | None:
        return None  # the table runs them

    def donor(self) -> str | None:
        return self.viewer

    def close_bots(self) -> None:
        """Nothing to close: the table's computer players are the table's."""

    # -- changes go to the table ---------------------------------------------------------------
    def apply(self, action: Action | str, reason: str = "") -> list[Event]:
        self.table.apply(self.user, action, expect=self.seen)
        self.refresh()
        return []

    def undo_steps(self) -> int:
        return self.table.undo_steps(self.viewer)

    def undo_refusal(self) -> str:
        return self.table.undo_refusal(self.viewer) or "nothing to undo"

    def undo(self) -> int:
        steps = self.table.undo(self.user)
        self.refresh()
        return steps

    def say(self, text: str) -> None:
        self.table.say(self.user, text)
        self.refresh()

    def keep_settings(self) -> None:
        """The pace (+/-) is the one setting a player changes; the table keeps it for
        everyone at it."""
        if self.pace != self.table.pace and not self.spectator:
            self.table.set_pace(self.pace)
