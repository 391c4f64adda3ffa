"""A table: one shared game on the server, its seats, its log and who is watching.

The table is the only place a server game changes. It checks that the connection's user acts
for their own seat (never the UI's word for it), applies the action through ``rules.Game``,
writes it to the store before anyone sees it (a store error takes the action back), tells
every watching app, and lets computer players think in a worker thread so that no player's
screen waits for them.

Each viewer gets a ``TableView``: the game as that player may see it, made by the rules
(``rules.view``: with hidden cash, every other player's cash is the tally of the public
moves, in the position and in every position kept for undo), with the table's chat lines in
its log. No other player's real cash is in it, so none can be rendered, nor sent, to a
terminal.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from imperial_tui.model.session import AppSettings
from imperial_tui.server.store import (
    FINISHED,
    OPEN,
    PLAYING,
    GameRecord,
    LogEntry,
    SeatRecord,
    StoreError,
    now,
)
from rules import Action, Game, IllegalAction, RuleSet, SetupError
from rules.bots import Bot, make_bot
from rules.controllers import Controller
from rules.game import Ply
from rules.savefile import SaveError, game_from_dict, game_to_dict
from rules.state import Event
from rules.view import GameView, PublicTally, view_of

if TYPE_CHECKING:
    from imperial_tui.server.hub import Hub

log = logging.getLogger("imperial.server")

HUMAN, OPEN_SEAT = "human", "open"
CHAT_LIMIT = 200  # characters in one chat line


class Refused(IllegalAction):
    """The table will not take this from this user (not their seat, not their turn, the game
    moved on, the database failed): ``reason`` is one line for them."""


def actor_of(ply: Ply) -> str:
    """The player who made a ply: the donor of a donation, else whoever was to decide."""
    if ply.action.kind == "donate":
        return ply.action.actor
    before = ply.before
    return before.players[before.awaiting_player] if before.awaiting_player >= 0 else ""


def clean_chat(text: str) -> str:
    """One printable line: control characters (escape sequences!) and line breaks removed, at
    most CHAT_LIMIT characters."""
    kept = "".join(
        " " if ch in "\t\r\n" else ch
        for ch in text
        if ch in "\t\r\n" or not unicodedata.category(ch).startswith("C")
    )
    return " ".join(kept.split())[:CHAT_LIMIT]


def chat_cut(text: str) -> str | None:
    """What to tell the author of a chat line that is cut (None: it is not)."""
    kept = "".join(
        " " if ch in "\t\r\n" else ch
        for ch in text
        if ch in "\t\r\n" or not unicodedata.category(ch).startswith("C")
    )
    n = len(" ".join(kept.split()))
    if n <= CHAT_LIMIT:
        return None
    return f"your line was cut to {CHAT_LIMIT} characters (it had {n})"


class TableView(GameView):
    """What one viewer may see of a table's game (``rules.view.GameView``) and the chat
    lines in its log."""

    chat: tuple[tuple[int, str], ...] = ()

    def events(self) -> list[Event]:
        out = list(self.start_events)
        chat = self.chat
        c = 0
        for i, ply in enumerate(self.plies):
            while c < len(chat) and chat[c][0] <= i:
                out.append(Event(chat[c][1]))
                c += 1
            out.extend(ply.events)
        out.extend(Event(text) for _, text in chat[c:])
        return out


def seat_level(kind: str) -> str | None:
    """The computer level of a seat's word ('bot:strong' -> 'strong'), read by
    ``rules.controllers.Controller``; None for a human, an open seat or a word no level has."""
    try:
        return Controller(kind).level
    except ValueError:
        return None


@dataclass(slots=True)
class Seat:
    seat: int
    name: str
    kind: str  # a Controller's word (human, bot:<level>) or OPEN_SEAT
    user: str | None = None
    notified: str | None = None

    @property
    def level(self) -> str | None:
        """The computer level of a computer seat; None for a human or open seat."""
        return seat_level(self.kind)

    @property
    def is_bot(self) -> bool:
        return self.level is not None

    @property
    def is_free(self) -> bool:
        """An open seat nobody has taken: any user may."""
        return self.kind == OPEN_SEAT and not self.user

    @property
    def is_kept(self) -> bool:
        """A seat the game's creator kept for another user by name, not taken yet: only
        that user may take it, and the game waits for them (nobody is put into a game
        without saying yes)."""
        return self.kind == HUMAN and not self.user

    def kept_for(self, user: str) -> bool:
        return self.is_kept and self.name.lower() == user.lower()

    @property
    def controller(self) -> Controller:
        """Who plays the seat in the game: its computer level, else a human (an open seat
        is played by whoever takes it)."""
        level = self.level
        return Controller.bot(level) if level is not None else Controller(HUMAN)

    def belongs_to(self, user: str) -> bool:
        mine = self.user
        if self.is_bot or not mine:
            return False
        return mine.lower() == user.lower()


Listener = Callable[["Table"], None]


class Table:
    """One server game. Created open (waiting for players) or playing (all seats taken)."""

    def __init__(self, hub: Hub, record: GameRecord) -> None:
        self.hub = hub
        self.id = record.id
        self.title = record.title
        self.creator = record.creator
        self.created = record.created
        self.status = record.status
        self.settings = record.settings.copy()
        self.header = record.header
        self.seats = [Seat(s.seat, s.name, s.kind, s.user, s.notified) for s in record.seats]
        self.game: Game | None = None
        self.chat: list[tuple[int, str]] = []  # (plies before it, "Anna: text")
        # the log as the store keeps it, (kind, text, ply): what a worker process's copy of
        # this table is rebuilt from (mirror.py)
        self.log: list[tuple[str, str, int]] = []
        self.version = 0  # any change a screen shows (actions, undo, chat, seats)
        self.game_version = 0  # actions and undos only: a choice made on an older one is stale
        self.damaged: str | None = None  # why the log could not be replayed
        self.bots: dict[str, Bot] = {}
        self.listeners: set[Listener] = set()
        self._views: dict[str | None, TableView] = {}
        self._tally = PublicTally()  # the public payments, for the views
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_failed_at = -1
        self._awaiting_player: str | None = None

    # -- settings and seats -------------------------------------------------------------------
    @property
    def hidden_cash(self) -> bool:
        return bool(self.settings.get("hidden_cash", False))

    @property
    def pace(self) -> float:
        return float(self.settings.get("pace", self.hub.default_pace))

    def set_pace(self, pace: float) -> None:
        self.settings["pace"] = pace
        with contextlib.suppress(StoreError):
            self.hub.store.set_settings(self.id, self.settings)

    def controllers(self) -> dict[str, Controller]:
        return {s.name: Controller(s.controller) for s in self.seats if s.name}

    def seat_of(self, user: str | None) -> Seat | None:
        if user is None:
            return None
        return next((s for s in self.seats if s.belongs_to(user)), None)

    def player_of(self, user: str | None) -> str | None:
        seat = self.seat_of(user)
        return seat.name if seat else None

    def seat_named(self, player: str) -> Seat | None:
        return next((s for s in self.seats if s.name == player), None)

    @property
    def free_seats(self) -> int:
        """The open seats nobody has taken."""
        return sum(s.is_free for s in self.seats)

    @property
    def waiting_seats(self) -> int:
        """The seats the game waits for before it starts: open ones and kept ones."""
        return sum(s.is_free or s.is_kept for s in self.seats)

    def seat_kept_for(self, user: str) -> Seat | None:
        return next((s for s in self.seats if s.kept_for(user)), None)

    def describe_seats(self) -> str:
        return ", ".join(
            (s.name or "(open)")
            + (f" ({s.level})" if s.level else "")
            + (" (invited)" if s.is_kept else "")
            for s in self.seats
        )

    # -- starting and resuming ----------------------------------------------------------------
    def rules(self) -> RuleSet:
        s = self.settings
        # (a game stored before Imperial 2030 has no "game": Imperial)
        game = str(s.get("game", "imperial"))
        return RuleSet.from_dict(s["edition"], s["variant"], dict(s.get("options", {})), game)

    def start(self) -> None:
        """All seats are taken: deal and begin (the header, like a save's, fixes the game)."""
        players = [s.name for s in self.seats]
        game = Game.new(players, rules=self.rules(), seed=self.settings.get("seed"))
        header = game_to_dict(game, self.controllers(), self.app_settings(), self.created)
        header.pop("actions")
        self.hub.store.start_game(self.id, header)
        self.header = header
        self.game = game
        self.status = PLAYING
        self._make_bots()
        self._changed(actions=True)

    def resume(self, entries: list[LogEntry]) -> None:
        """Rebuild the game from its header and log (actions, undos, chat), as a save file
        is loaded: every action is checked again by the rules."""
        if self.header is None:
            return
        self.log.extend((e.kind, e.text, e.ply) for e in entries)
        try:
            loaded = game_from_dict(dict(self.header, actions=[]), source=f"game {self.id}")
            game = loaded.game
            for e in entries:
                if e.kind == "action":
                    game.apply(e.text)
                elif e.kind == "undo":
                    game.undo()
                elif e.kind == "chat":
                    self.chat.append((e.ply, e.text))
        except (SaveError, IllegalAction, IndexError) as exc:
            reason = exc.reason if isinstance(exc, IllegalAction) else str(exc)
            self.damaged = f"cannot be replayed: {reason}"
            log.error("game %s %s", self.id, self.damaged)
            return
        self.game = game
        self._make_bots()
        aw = game.awaiting
        self._awaiting_player = aw.player if aw else None
        if game.is_over and self.status != FINISHED:
            self.status = FINISHED
            self.hub.store.set_status(self.id, FINISHED)

    def _make_bots(self) -> None:
        assert self.game is not None
        seed = self.game.setup.seed or 0
        for old in self.bots.values():  # replaced (a resume): nothing of theirs lingers
            old.close()
        self.bots = {}
        for i, s in enumerate(self.seats):
            level = s.level
            if level is not None:
                # with hidden cash a bot keeps the tally of public payments instead; one
                # process each, as the server runs many games on the same cores
                self.bots[s.name] = make_bot(
                    level, seed + i, hidden_cash=self.hidden_cash, processes=1
                )

    def app_settings(self) -> AppSettings:
        return {"hidden_cash": self.hidden_cash, "pace": self.pace}

    def wake(self) -> None:
        """After a restart: notify whoever must decide (if not yet told) and let bots move.
        A game whose seats are all taken but which was never dealt (its host stopped, or
        died, between writing the last seat and the deal) is dealt now."""
        if self.status == OPEN and self.header is None and self.seats and not self.waiting_seats:
            try:
                self.start()  # (tells whoever must decide and kicks the computers)
            except (ValueError, StoreError) as exc:
                log.error("game %s cannot start: %s", self.id, exc)
            return
        if self.game is None or self.status != PLAYING:
            return
        aw = self.game.awaiting
        if aw is not None:
            seat = self.seat_named(aw.player)
            if seat is not None and not seat.is_bot:
                self.hub.turn_started(self, seat, self.turn_key())
        self._kick()

    # -- what a viewer sees -------------------------------------------------------------------
    def view_for(self, player: str | None) -> TableView | None:
        """The game as ``player`` (None: a spectator) may see it; cached per version."""
        game = self.game
        if game is None:
            return None
        view = self._views.get(player)
        if view is not None:
            return view
        view = view_of(game, player, self.hidden_cash, self._tally, TableView)
        view.chat = tuple(self.chat)
        self._views[player] = view
        return view

    def moves(self) -> int:
        """Moves and undos in the log: what another host's copy compares (game versions are
        counted per process)."""
        return sum(kind != "chat" for kind, _, _ in self.log)

    def turn_key(self) -> str:
        s = self.game.state if self.game else None
        return f"{s.round}:{s.turn}" if s else ""

    # -- changes ------------------------------------------------------------------------------
    def apply(self, user: str, action: Action | str, expect: int | None = None) -> None:
        """``user`` plays ``action``; Refused/IllegalAction (changing nothing) if they may not:
        not seated here, not their decision, or the game moved on since their screen showed
        it (``expect``, the game version they chose from)."""
        game = self.game
        if game is None or self.status != PLAYING:
            raise Refused("this game is not being played")
        seat = self.seat_of(user)
        if seat is None:
            raise Refused("you are watching this game; only its players decide")
        if isinstance(action, str):
            try:
                action = game.parse(action)
            except ValueError as exc:
                raise IllegalAction(str(exc)) from None
        if action.kind == "donate":
            if action.actor != seat.name:
                raise Refused(f"you play {seat.name}; you cannot donate for {action.actor}")
        else:
            aw = game.awaiting
            if aw is None:
                raise Refused("the game is over")
            if aw.player != seat.name:
                raise Refused(f"it is {aw.player}'s decision, not yours")
        if expect is not None and expect != self.game_version:
            raise Refused("the game moved on while you chose: look again")
        self._commit(action, seat.name, user)

    def _commit(self, action: Action, player: str, user: str | None) -> None:
        game = self.game
        assert game is not None
        game.apply(action)  # raises IllegalAction, changing nothing
        entry = LogEntry("action", str(game.history[-1]), player, user, now(), len(game.plies))
        try:
            self.hub.store.append(self.id, entry, seq=len(self.log) + 1)
        except StoreError as exc:
            game.undo()
            raise Refused(f"the server could not save this move ({exc}); nothing changed") from None
        self.log.append((entry.kind, entry.text, entry.ply))
        if game.is_over:
            self.status = FINISHED
            with contextlib.suppress(StoreError):
                self.hub.store.set_status(self.id, FINISHED)
        self._changed(actions=True)

    def undo_refusal(self, player: str | None) -> str | None:
        """Why ``player`` may not undo now (None: they may). Only your own latest decision,
        and only while nobody else has acted since."""
        game = self.game
        if player is None:
            return "you are watching this game"
        if game is None or self.status != PLAYING or not game.plies:
            return "nothing to undo"
        last = actor_of(game.plies[-1])
        if last != player:
            return f"{last} acted since your last decision"
        return None

    def undo_steps(self, player: str | None) -> int:
        return 0 if self.undo_refusal(player) else 1

    def undo(self, user: str) -> int:
        player = self.player_of(user)
        why = self.undo_refusal(player)
        if why:
            raise Refused(f"cannot undo: {why}")
        game = self.game
        assert game is not None
        action = game.undo()
        entry = LogEntry("undo", str(action), player, user, now(), len(game.plies))
        try:
            self.hub.store.append(self.id, entry, seq=len(self.log) + 1)
        except StoreError as exc:
            game.apply(action)
            raise Refused(f"the server could not save the undo ({exc}); nothing changed") from None
        self.log.append((entry.kind, entry.text, entry.ply))
        self._changed(actions=True)
        return 1

    def say(self, user: str, text: str) -> None:
        """A one-line chat message, kept in the log and shown to everyone at the table."""
        line = clean_chat(text)
        if not line:
            return
        plies = len(self.game.plies) if self.game else 0
        said = f"{user}: {line}"
        self.hub.store.append(
            self.id, LogEntry("chat", said, None, user, now(), plies), seq=len(self.log) + 1
        )
        self.log.append(("chat", said, plies))
        self.chat.append((plies, said))
        self._changed(actions=False)

    def seats_changed(self) -> None:
        self._changed(actions=False)

    def _changed(self, actions: bool) -> None:
        self.version += 1
        if actions:
            self.game_version += 1
        self._views.clear()
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:  # one broken connection must not stop the others
                log.exception("a listener of game %s failed", self.id)
        self.hub.table_changed(self)
        if actions:
            self._check_turn()
            self._kick()

    def _check_turn(self) -> None:
        """A human's decision has begun (the decision passed to them from someone else)."""
        game = self.game
        aw = game.awaiting if game else None
        player = aw.player if aw else None
        if player == self._awaiting_player:
            return
        self._awaiting_player = player
        seat = self.seat_named(player) if player else None
        if seat is not None and not seat.is_bot and self.status == PLAYING:
            self.hub.turn_started(self, seat, self.turn_key())

    # -- computer players ---------------------------------------------------------------------
    def _kick(self) -> None:
        game = self.game
        if game is None or self.status != PLAYING or self._bot_task is not None:
            return
        if self._bot_failed_at == self.game_version:
            return
        aw = game.awaiting
        if aw is None or aw.player not in self.bots:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no event loop (the host's command line): bots move when served
        self._bot_task = loop.create_task(self._bot_move(aw.player, self.game_version))

    async def _bot_move(self, player: str, version: int) -> None:
        try:
            if self.pace:
                await asyncio.sleep(self.pace)
            if version != self.game_version or self.game is None:
                return
            snapshot = self.game.copy()
            bot = self.bots[player]
            loop = asyncio.get_running_loop()
            choice = await loop.run_in_executor(self.hub.executor, bot.decide, snapshot)
            if version != self.game_version:
                return  # someone undid or the game changed while it thought
            self._commit(choice.action, player, None)
        except asyncio.CancelledError:
            raise
        except Exception:
            self._bot_failed_at = self.game_version
            log.exception("computer player %s failed in game %s", player, self.id)
        finally:
            self._bot_task = None
        self._kick()

    async def stop(self) -> None:
        task = self._bot_task
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for bot in self.bots.values():
            bot.close()


def seat_records(seats: list[tuple[str, str]], creator: str) -> list[SeatRecord]:
    """The new-game screen's seats as records: the creator's own named seat is theirs at
    once; a seat named for another user is kept for them until they take it (anyone could
    otherwise put others into a game they never asked for, and start it); an open seat
    waits for anyone."""
    out = []
    for i, (name, kind) in enumerate(seats):
        if kind == OPEN_SEAT:
            out.append(SeatRecord(i, "", OPEN_SEAT, None))
        elif kind == HUMAN:
            out.append(
                SeatRecord(i, name, HUMAN, name if name.lower() == creator.lower() else None)
            )
        else:
            out.append(SeatRecord(i, name, kind, None))
    return out


def check_seats(seats: list[tuple[str, str]]) -> None:
    """Refuse a set-up the engine would refuse, before anything is stored (the open seats
    are checked with a stand-in name)."""
    names = [name if kind != OPEN_SEAT else f"Open{i}" for i, (name, kind) in enumerate(seats)]
    from rules.setup import check_players

    try:
        check_players(names)
    except SetupError as exc:
        raise Refused(str(exc)) from None
    if not any(kind in (HUMAN, OPEN_SEAT) for _, kind in seats):
        raise Refused("a server game needs at least one seat for a person")


__all__ = [
    "FINISHED",
    "OPEN",
    "PLAYING",
    "Refused",
    "Seat",
    "Table",
    "TableView",
    "actor_of",
    "chat_cut",
    "check_seats",
    "clean_chat",
    "seat_records",
]
