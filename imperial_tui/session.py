"""The game being played and everything around it that is not a rule: who controls each
seat, where it is saved, hidden cash, undo limits and the "changed last turn" marks.

No Textual import: this is the app's model, tested without a terminal.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rules import Game
from rules.bots import Bot, make_bot
from rules.savefile import LoadedGame, load_game, save_game

HUMAN = "human"


def default_save_path() -> Path:
    """A fresh file in the user's data directory (told to the player when the game starts)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / "imperial" / f"game-{stamp}.json"


def bot_level(controller: str) -> str | None:
    """``bot:greedy`` -> ``greedy``; None for a human seat."""
    return controller.split(":", 1)[1] if controller.startswith("bot:") else None


@dataclass
class Session:
    """A game with its seats and save file. ``version`` grows with every change so panels can
    tell cheaply whether they must repaint."""

    game: Game
    controllers: dict[str, str]
    path: Path | None = None
    hidden_cash: bool = False
    pace: float = 0.6  # seconds between computer moves
    created: str | None = None
    version: int = 0
    viewer: str | None = None  # whose private view is on screen (hidden cash)
    bots: dict[str, Bot] = field(default_factory=dict)
    _turn_key: tuple[int, int] = (-2, -2)
    _turn_start: dict[str, Any] = field(default_factory=dict)
    _prev_start: dict[str, Any] = field(default_factory=dict)
    changed: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        seed = self.game.setup.seed or 0
        for i, (name, ctl) in enumerate(self.controllers.items()):
            level = bot_level(ctl)
            if level:
                self.bots[name] = make_bot(level, seed + i)
        self._track_turn()

    # -- creation ----------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Session:
        loaded: LoadedGame = load_game(path)
        app = loaded.app or {}
        return cls(
            loaded.game,
            {p: loaded.controllers.get(p, HUMAN) for p in loaded.game.players},
            Path(path),
            hidden_cash=bool(app.get("hidden_cash", False)),
            pace=float(app.get("pace", 0.6)),
            created=loaded.header.get("created"),
        )

    # -- seats -------------------------------------------------------------------------------
    def is_human(self, player: str | None) -> bool:
        return player is not None and self.controllers.get(player, HUMAN) == HUMAN

    @property
    def humans(self) -> list[str]:
        return [p for p in self.game.players if self.is_human(p)]

    def bot_for(self, player: str) -> Bot | None:
        return self.bots.get(player)

    def shows_cash_of(self, player: str) -> bool:
        """With hidden cash a player's cash is shown only in his own private view (bots' cash
        stays hidden from humans too)."""
        if not self.hidden_cash:
            return True
        return player == self.viewer

    # -- changes -----------------------------------------------------------------------------
    def apply(self, action: Any) -> list[Any]:
        """Apply through the engine, then autosave and update the marks."""
        events = self.game.apply(action)
        self._changed()
        return events

    def undo_steps(self) -> int:
        """How many actions ctrl+z takes back: the last human decision and the computer moves
        after it. 0 when nothing may be undone (hidden cash: never past another human)."""
        plies = self.game.plies
        for steps, ply in enumerate(reversed(plies), start=1):
            actor = (
                ply.before.players[ply.before.awaiting_player]
                if (ply.before.awaiting_player >= 0)
                else None
            )
            if self.is_human(actor):
                if self.hidden_cash and len(self.humans) > 1:
                    current = self.game.awaiting.player if self.game.awaiting else None
                    if actor != current:
                        return 0
                return steps
        return 0

    def undo(self) -> int:
        steps = self.undo_steps()
        for _ in range(steps):
            self.game.undo()
        if steps:
            self._changed()
        return steps

    def _changed(self) -> None:
        self.version += 1
        self._track_turn()
        self.autosave()

    def _track_turn(self) -> None:
        """Remember the regions at the start of each nation turn; the marks show what changed
        since the start of the previous turn."""
        s = self.game.state
        key = (s.round, s.turn)
        regions = {
            rid: (r["units"], r["flag"], r["factory"])
            for rid, r in self.game.summary()["regions"].items()
        }
        if key != self._turn_key:
            self._prev_start = self._turn_start or regions
            self._turn_start = regions
            self._turn_key = key
        base = self._prev_start or regions
        self.changed = {rid for rid, v in regions.items() if base.get(rid) != v}

    # -- saving ------------------------------------------------------------------------------
    def app_settings(self) -> dict[str, Any]:
        return {"hidden_cash": self.hidden_cash, "pace": self.pace}

    def autosave(self) -> None:
        if self.path is not None:
            self.save(self.path)

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        target = Path(path) if path is not None else (self.path or default_save_path())
        target.parent.mkdir(parents=True, exist_ok=True)
        doc = save_game(self.game, target, self.controllers, self.app_settings(), self.created)
        self.created = doc.get("created", self.created)
        self.path = target
        return target
