"""The game as it was: a read-only view of a past position for the history browser, shaped
like the ``Session`` the panels read (``game``, ``viewer``, ``shows_cash_of`` ...), and the
turns of the game to step through. The position comes from the engine (``game_at``: the
position recorded after N actions), never from replaying anything here. No Textual import.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules import Game
from rules.controllers import Controller
from rules.history import TurnLog, game_at, turn_logs


@dataclass(frozen=True, slots=True)
class Turn:
    """One nation turn (or the set-up): its heading and the numbers of its first and last
    actions (``first > last`` for a turn without actions yet)."""

    heading: str
    nation: str | None
    first: int
    last: int
    log: TurnLog


def game_turns(game: Game) -> list[Turn]:
    """Every turn with its actions, in order; the set-up first (it may have none)."""
    out: list[Turn] = []
    done = 0
    for log in turn_logs(game):
        numbers = [a.number for a in log.actions]
        first = numbers[0] if numbers else done + 1
        last = numbers[-1] if numbers else done
        out.append(Turn(log.heading, log.nation, first, last, log))
        done = max(done, last)
    return out


def turn_of(turns: list[Turn], at: int) -> int:
    """The index of the turn in which action ``at`` was taken (0 actions: the first turn)."""
    for i, turn in enumerate(turns):
        if turn.first <= at <= turn.last:
            return i
    if at <= 0:
        return 0
    return len(turns) - 1


@dataclass
class PastView:
    """The position after ``at`` actions of the live session's game, for the panels."""

    live: Any  # the Session
    at: int
    game: Game = field(init=False)
    changed: set[str] = field(default_factory=set)  # regions changed in the shown turn

    def __post_init__(self) -> None:
        self.game = game_at(self.live.view, self.at)

    def mark_changes(self, since: int) -> None:
        """Regions that changed between action ``since`` and the shown position."""
        if since >= self.at:
            self.changed = set()
            return
        before = game_at(self.live.view, since).summary()["regions"]
        now = self.game.summary()["regions"]
        self.changed = {rid for rid, r in now.items() if before.get(rid) != r}

    # -- what the panels read from a session -------------------------------------------------
    @property
    def view(self) -> Game:
        """The past position, from the live game's view: as secret as the live one."""
        return self.game

    @property
    def version(self) -> tuple[str, int, int]:
        return ("past", self.at, len(self.live.game.plies))

    @property
    def controllers(self) -> dict[str, Controller]:
        return dict(self.live.controllers)

    @property
    def viewer(self) -> str | None:
        return self.live.viewer

    @property
    def hidden_cash(self) -> bool:
        return bool(self.live.hidden_cash)

    @property
    def reasons(self) -> Any:
        return self.live.reasons

    @property
    def humans(self) -> list[str]:
        return list(self.live.humans)

    def is_human(self, player: str | None) -> bool:
        return bool(self.live.is_human(player))

    def shows_cash_of(self, player: str) -> bool:
        return bool(self.live.shows_cash_of(player))
