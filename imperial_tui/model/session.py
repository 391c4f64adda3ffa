"""The game being played and everything around it that is not a rule: who controls each
seat, where it is saved, hidden cash, undo limits and the "changed last turn" marks.

Two protocols are the seam between the screens and a game. ``SessionView`` is what the panels
read (the local game, a remote player's seat at a server table and a past position in the
history browser all answer it); ``GameSession`` adds what the app does to a game (apply, undo,
donate, the pace). ``Session`` is the local implementation (a save file, computer players run
here); the SSH server's ``RemoteSession`` sends every change to its table. What only a local
game offers (its save file) is not in the protocols: the local app alone reaches for it.

No Textual import: this is the app's model, tested without a terminal.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import ClassVar, Protocol, TypedDict

from imperial_tui.model.pacing import PACE_MAX, PAUSE_MODES, clamp_pace
from imperial_tui.model.reasons import MAX_REASON, Reason, reasons_from, reasons_to_json
from rules import Action, Game
from rules.bots import Bot, make_bot
from rules.controllers import HUMAN, Controller
from rules.history import decider
from rules.resave import check_can_save, save_needed
from rules.safe_file import FileProblem, digest, read_regular, target_of
from rules.savefile import (
    LoadedGame,
    SaveConflict,
    SaveError,
    document_digest,
    load_game,
    printable,
    save_game,
)
from rules.state import Event
from rules.summary import UnitSummary
from rules.view import GameView


class SessionView(Protocol):
    """What the panels read of a game on show, from one viewer's seat."""

    @property
    def view(self) -> Game:
        """The game as the viewer may see it (``Game.view_for``): with hidden cash, nothing
        in it comes from another player's real cash. Panels read this, never the game."""
        ...

    @property
    def viewer(self) -> str | None:
        """Whose private view is on screen (their own cash); None for nobody's."""
        ...

    @property
    def version(self) -> object:
        """Changes with every change of what is shown: panels repaint when it does."""
        ...

    @property
    def hidden_cash(self) -> bool: ...

    @property
    def controllers(self) -> Mapping[str, Controller]: ...

    @property
    def reasons(self) -> Mapping[int, Reason]: ...

    @property
    def changed(self) -> set[str]:
        """Regions that changed since the start of the previous nation turn."""
        ...

    @property
    def humans(self) -> list[str]: ...

    def is_human(self, player: str | None) -> bool: ...

    def controls(self, player: str | None) -> bool:
        """Whether this terminal decides for ``player`` (the decision panel offers the
        choices then)."""
        ...

    def shows_cash_of(self, player: str) -> bool: ...


class GameSession(SessionView, Protocol):
    """A game the app plays: what the panels read, and every change the app makes to it.
    ``runs_seats``: whether this app runs the computer players and hands the keyboard from
    one human to the next (the server's table does both for a remote player)."""

    runs_seats: ClassVar[bool]
    viewer: str | None
    pace: float
    pause: str
    warnings: list[str]

    @property
    def spectator(self) -> bool:
        """Watching only: nothing this viewer does changes the game."""
        ...

    @property
    def game(self) -> Game:
        """The game itself, which the app acts on (and computer players think on)."""
        ...

    def bot_for(self, player: str) -> Bot | None: ...

    def donor(self) -> str | None:
        """Who donates when the player at this terminal asks to (None: nobody may)."""
        ...

    def apply(self, action: Action | str, reason: str = "") -> list[Event]: ...

    def undo_steps(self) -> int: ...

    def undo_refusal(self) -> str: ...

    def undo(self) -> int: ...

    def keep_settings(self) -> None:
        """The pace or the pause changed: keep them with the game. Raises SaveError."""
        ...

    def close_bots(self) -> None: ...


class AppSettings(TypedDict, total=False):
    """The app's own settings, kept in a save's ``app`` block (never read by the rules)."""

    hidden_cash: bool
    pace: float  # seconds between computer moves
    pause: str  # pacing.PAUSE_MODES
    reasons: dict[str, dict[str, str]]  # reasons.reasons_to_json


# what the "changed last turn" marks compare of a region: its units, flag and factory
RegionMark = tuple[list[UnitSummary], str | None, str | None]


@dataclass
class TurnMarks:
    """The regions that changed since the start of the previous nation turn, kept up to
    date after every change of the game (``track``)."""

    changed: set[str] = field(default_factory=set)
    _turn_key: tuple[int, int] = (-2, -2)
    _turn_start: dict[str, RegionMark] = field(default_factory=dict)
    _prev_start: dict[str, RegionMark] = field(default_factory=dict)

    def track(self, game: Game) -> set[str]:
        """Remember the regions at the start of each nation turn; returns the regions that
        changed since the start of the previous turn."""
        s = game.state
        key = (s.round, s.turn)
        regions: dict[str, RegionMark] = {
            rid: (r["units"], r["flag"], r["factory"])
            for rid, r in game.summary()["regions"].items()
        }
        if key != self._turn_key:
            self._prev_start = self._turn_start or regions
            self._turn_start = regions
            self._turn_key = key
        base = self._prev_start or regions
        self.changed = {rid for rid, v in regions.items() if base.get(rid) != v}
        return self.changed


def short_path(path: Path) -> str:
    """A path as a player would type it: from the current folder when it is inside it,
    else from ~ when under the home folder, else whole ('games/g.json', '~/g.json')."""
    path = Path(path).absolute()
    for base, prefix in ((Path.cwd(), ""), (Path.home(), "~/")):
        try:
            return prefix + str(path.relative_to(base))
        except ValueError:
            continue
    return str(path)


def humans_of(game: Game, controllers: Mapping[str, Controller]) -> list[str]:
    """The players a human plays (a seat nobody named is a human's)."""
    return [p for p in game.players if controllers.get(p, HUMAN).is_human]


DEFAULT_PACE = 0.6


def default_save_path() -> Path:
    """A fresh file in the user's data directory (told to the player when the game starts)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / "imperial" / f"game-{stamp}.json"


def app_settings_from(app: Mapping[str, object], where: str) -> tuple[bool, float, list[str]]:
    """The app's own settings in a save (hidden cash, pace), each of the wrong type or out of
    range ignored with a one-line warning: they are the app's, never worth refusing a game."""
    warnings: list[str] = []
    hidden = app.get("hidden_cash", False)
    if not isinstance(hidden, bool):
        warnings.append(
            f"{where}: app setting hidden_cash must be true or false, not "
            f"{printable(repr(hidden), 30)}; ignored (cash is shown)"
        )
        hidden = False
    raw = app.get("pace", DEFAULT_PACE)
    pace = clamp_pace(raw, None)
    if pace is None:
        warnings.append(
            f"{where}: app setting pace must be a number of seconds, not "
            f"{printable(repr(raw), 30)}; ignored ({DEFAULT_PACE}s per computer move)"
        )
        pace = DEFAULT_PACE
    elif pace != raw:
        # a pace that would stall play (1e308) or make no sense (negative) is clamped
        warnings.append(
            f"{where}: app setting pace {printable(repr(raw), 30)} is outside 0 to "
            f"{PACE_MAX:g} seconds; {pace:g}s per computer move is used"
        )
    return hidden, pace, warnings


@dataclass
class Session:
    """A game with its seats and save file. ``version`` grows with every change so panels can
    tell cheaply whether they must repaint.

    ``digest`` is the content of the save as this session last read or wrote it: a save that
    finds the file changed since (a shell ``imperial apply``, another app) raises
    ``SaveConflict`` instead of overwriting it, and ``conflict`` then stops the autosave
    until the game is reloaded or saved elsewhere (the app offers the reload)."""

    game: Game
    controllers: dict[str, Controller]  # who plays each seat (a word: Controller(...) too)
    path: Path | None = None
    hidden_cash: bool = False
    pace: float = DEFAULT_PACE  # seconds between computer moves
    created: str | None = None
    version: int = 0
    digest: str | None = None
    conflict: bool = False
    warnings: list[str] = field(default_factory=list)  # about the save's app settings
    viewer: str | None = None  # whose private view is on screen (hidden cash)
    bots: dict[str, Bot] = field(default_factory=dict)
    # computer players' reasons by action number (saved in the app settings: reasons.py)
    reasons: dict[int, Reason] = field(default_factory=dict)
    pause: str = "off"  # when computer players wait for a key (pacing.PAUSE_MODES)
    marks: TurnMarks = field(default_factory=TurnMarks)
    _view: tuple[object, GameView] | None = None  # (version and viewer it was made for, view)
    # this app runs the computer players and hands the keyboard from one human to the next
    runs_seats: ClassVar[bool] = True

    def __post_init__(self) -> None:
        seed = self.game.setup.seed or 0
        controllers: dict[str, Controller] = {}
        for player, word in self.controllers.items():
            try:
                controllers[player] = Controller(word)
            except ValueError as exc:
                raise SaveError(f"{player}: {exc}") from None
        self.controllers = controllers
        for i, (name, ctl) in enumerate(self.controllers.items()):
            level = ctl.level
            if level:
                try:
                    # with hidden cash a bot keeps a tally of public payments instead of
                    # reading the other players' cash
                    self.bots[name] = make_bot(level, seed + i, hidden_cash=self.hidden_cash)
                except ValueError as exc:
                    raise SaveError(f"player {name}: {exc}") from None
        self.marks.track(self.game)

    # -- creation ----------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Session:
        """Raises SaveError (one line); app settings of the wrong type are ignored and
        reported in ``warnings``."""
        loaded: LoadedGame = load_game(path)
        app = loaded.app or {}
        hidden, pace, warnings = app_settings_from(app, str(path))
        reasons, reason_warnings = reasons_from(app, str(path))
        pause = app.get("pause", "off")
        if pause not in PAUSE_MODES:
            warnings.append(
                f"{path}: app setting pause must be one of {', '.join(PAUSE_MODES)}, not "
                f"{printable(repr(pause), 30)}; ignored (computer players do not pause)"
            )
            pause = "off"
        return cls(
            loaded.game,
            {p: loaded.controllers.get(p, HUMAN) for p in loaded.game.players},
            Path(path),
            hidden_cash=hidden,
            pace=pace,
            created=loaded.header.get("created"),
            digest=loaded.digest,
            warnings=[*loaded.warnings, *warnings, *reason_warnings],
            reasons=reasons,
            pause=pause,
        )

    # -- seats -------------------------------------------------------------------------------
    def is_human(self, player: str | None) -> bool:
        return player is not None and self.controllers.get(player, HUMAN).is_human

    @property
    def humans(self) -> list[str]:
        return humans_of(self.game, self.controllers)

    @property
    def spectator(self) -> bool:
        return False  # at one keyboard everyone plays

    @property
    def changed(self) -> set[str]:
        return self.marks.changed

    @property
    def view(self) -> GameView:
        """The game as the player at the keyboard (``viewer``) may see it: made once per
        change of the game or of the viewer (a hand-over)."""
        key = (self.version, self.viewer, self.hidden_cash, len(self.game.plies))
        if self._view is None or self._view[0] != key:
            self._view = (key, self.game.view_for(self.viewer, self.hidden_cash))
        return self._view[1]

    def controls(self, player: str | None) -> bool:
        """Whether this terminal decides for ``player``: every human at one keyboard."""
        return self.is_human(player)

    def donor(self) -> str | None:
        """A donation asked for at this keyboard: the human deciding now gives, or, while a
        computer player decides, the player whose view is on screen."""
        aw = self.game.awaiting
        if aw is not None and self.is_human(aw.player):
            return aw.player
        return self.viewer

    def bot_for(self, player: str) -> Bot | None:
        return self.bots.get(player)

    def close_bots(self) -> None:
        """Stop the computer players' playout processes (the strong level searches in two
        where the machine has the cores). Called when the app leaves this game for another,
        so that an evening of many games does not gather idle processes; a bot asked to
        decide afterwards still can, in one process."""
        for bot in self.bots.values():
            bot.close()

    def shows_cash_of(self, player: str) -> bool:
        """With hidden cash a player's cash is shown only in their own private view (bots' cash
        stays hidden from humans too), until the game is over."""
        return self.view.shows_cash_of(player)

    # -- changes -----------------------------------------------------------------------------
    def apply(self, action: Action | str, reason: str = "") -> list[Event]:
        """Apply through the engine, then autosave and update the marks; ``reason`` is a
        computer player's reason for the log (kept with the save)."""
        events = self.game.apply(action)
        number = len(self.game.plies)
        self.reasons.pop(number, None)
        if reason:
            text = printable(reason, MAX_REASON)
            self.reasons[number] = Reason(str(self.game.plies[-1].action), text)
        self._changed()
        return events

    def undo_steps(self) -> int:
        """How many actions ctrl+z takes back: the last human decision and the computer moves
        after it. 0 when nothing may be undone: with hidden cash and several humans, only the
        player at the keyboard (the viewer, or whoever decides now) takes back their own
        decision, never another human's."""
        for steps, ply in enumerate(reversed(self.game.plies), start=1):
            actor = decider(ply)
            if self.is_human(actor):
                if self.hidden_cash and len(self.humans) > 1:
                    current = self.game.awaiting.player if self.game.awaiting else None
                    if actor not in (current, self.viewer):
                        return 0
                return steps
        return 0

    def undo_refusal(self) -> str:
        """Why ctrl+z takes nothing back, in words (when ``undo_steps()`` is 0)."""
        last = next(
            (who for who in (decider(p) for p in reversed(self.game.plies)) if self.is_human(who)),
            None,
        )
        if last is None:
            return "nothing to undo"
        current = self.game.awaiting.player if self.game.awaiting else None
        holder = self.viewer or current
        return (
            f"the last decision is {last}'s and the keyboard is {holder}'s now (hidden cash); "
            f"{last} can take it back on the hand-over screen, before passing the keyboard"
        )

    def undo(self) -> int:
        steps = self.undo_steps()
        for _ in range(steps):
            self.game.undo()
        for number in [n for n in self.reasons if n > len(self.game.plies)]:
            del self.reasons[number]
        if steps:
            self._changed()
        return steps

    def _changed(self) -> None:
        self.version += 1
        self.marks.track(self.game)
        self.autosave()

    # -- saving ------------------------------------------------------------------------------
    def app_settings(self) -> AppSettings:
        settings: AppSettings = {
            "hidden_cash": self.hidden_cash,
            "pace": self.pace,
            "pause": self.pause,
        }
        if self.reasons:
            settings["reasons"] = reasons_to_json(self.reasons)
        return settings

    def keep_settings(self) -> None:
        """The pace or the pause changed: they are saved with the game."""
        self.autosave()

    def autosave(self) -> None:
        """Save after a change, unless the file changed on disk since (``conflict``): then the
        other program's version is kept until the player reloads or saves elsewhere."""
        if self.path is not None and not self.conflict:
            self.save(self.path)

    def save(self, path: str | os.PathLike[str] | None = None) -> Path:
        """Save to ``path`` (default: this session's file). Saving to this session's own file
        raises SaveConflict if another program changed it since it was read or written here."""
        target = Path(path) if path is not None else (self.path or default_save_path())
        target.parent.mkdir(parents=True, exist_ok=True)
        same = self.path is not None and target_of(target) == target_of(self.path)
        try:
            doc = save_game(
                self.game,
                target,
                self.controllers,
                self.app_settings(),
                self.created,
                expected_digest=self.digest if same else None,
            )
        except SaveConflict:
            self.conflict = True
            raise
        self.created = doc.get("created", self.created)
        self.path = target
        self.digest = document_digest(doc)
        self.conflict = False
        return target

    def save_if_changed(self) -> bool:
        """Save to this session's file unless it already holds this game with these seats
        and settings, apart from when and by which program it was saved (``save_needed``):
        rewriting a save only for those would make another app showing it offer a reload
        although nothing changed. Either way raises SaveError when the file could not be
        saved (read-only, say): the game is autosaved to it. True when it saved."""
        if self.path is not None and not save_needed(
            self.path,
            self.game,
            self.controllers,
            self.app_settings(),
            self.created,
            expected_digest=self.digest,
        ):
            check_can_save(self.path)
            return False
        self.save()
        return True

    def file_changed(self) -> bool:
        """Whether the save file now holds something else than this session last read or
        wrote (another program saved it); cheap enough to ask every few seconds."""
        if self.path is None or self.digest is None:
            return False
        try:
            return digest(read_regular(self.path)) != self.digest
        except FileProblem:
            return False  # gone or unreadable: the next save says so
