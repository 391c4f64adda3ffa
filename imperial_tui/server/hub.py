"""The hub: every table of the server, who is connected, the lobby's lists, and telling a
player that it is their turn (a bell on their terminals, or the host's ``--notify`` command
when they are not connected).

Plain asyncio, no Textual: apps subscribe with callbacks that post messages to themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from imperial_tui.app.widgets.shared import SharedRenders
from imperial_tui.server.limits import Sessions
from imperial_tui.server.redraws import Redraws
from imperial_tui.server.store import (
    FINISHED,
    OPEN,
    PLAYING,
    GameRecord,
    GameSettings,
    LogEntry,
    SeatRecord,
    Store,
    StoreError,
    now,
)
from imperial_tui.server.table import (
    HUMAN,
    Refused,
    Seat,
    Table,
    actor_of,
    check_seats,
    seat_level,
    seat_records,
)
from rules import RuleSet
from rules.engine import DECISION_WORDS
from rules.games import GameName, game_title
from rules.savefile import LoadedGame, SaveError, game_to_dict, load_game, to_json, write_atomically

log = logging.getLogger("imperial.server")

NOTIFY_TIMEOUT = 30.0  # seconds a --notify command may take before it is stopped
IMPORT_POLL = 5.0  # seconds between looks for games imported by the host


@dataclass(frozen=True, slots=True)
class LobbyRow:
    """One game as a lobby line shows it to one user."""

    id: int
    title: str
    status: str  # open, playing, finished, damaged
    seats: str
    yours: bool  # the user has a seat
    your_turn: bool  # ... and the decision is theirs
    free: int  # open seats
    turn: str  # "Ben: GE maneuver" / "waiting for 1 player" / "Anna wins"
    game: str = "Imperial"  # or "Imperial 2030"
    kept: bool = False  # a seat of this open game is kept for the user (they may take it)


class Client:
    """A connected terminal, as the hub sees it: who, and how to reach its app."""

    def __init__(self, user: str, on_turn: Callable[[Table], None], on_lobby: Callable[[], None]):
        self.user = user
        self.on_turn = on_turn
        self.on_lobby = on_lobby


class Hub:
    def __init__(
        self,
        store: Store,
        notify: str | None = None,
        default_pace: float = 0.6,
        executor: Executor | None = None,
    ) -> None:
        self.store = store
        self.notify_command = notify
        self.default_pace = default_pace
        self.executor = executor or ThreadPoolExecutor(1, thread_name_prefix="imperial-bot")
        self.tables: dict[int, Table] = {}
        self.clients: set[Client] = set()
        self.sessions = Sessions()  # admitted and not yet ended (limits.py)
        self._notify_tasks: set[asyncio.Task[None]] = set()
        self.notifications: list[dict[str, str]] = []  # what was sent (tests, the log)
        self.renders = SharedRenders()  # panels drawn once for every screen that shows them
        self.redraws = Redraws()  # other players' moves drawn behind the players' keys
        self._rung: dict[int, tuple[str, int]] = {}  # game -> (user, plies) last rung for

    # -- start and stop -----------------------------------------------------------------------
    def load(self) -> list[Table]:
        """Rebuild every game from the store (a restart resumes each exactly); called again
        while serving, it picks up games the host imported (or another host made)
        meanwhile, also one numbered below a game made here since (numbers are handed out
        by the database, not in the order this server hears of the games)."""
        new = []
        top = max(self.tables, default=0)
        holes = (
            [i for i in self.store.game_ids() if i < top and i not in self.tables] if top else []
        )
        records = [r for r in map(self.store.game, holes) if r is not None]
        for record in records + self.store.games(after=top):
            table = self.make_table(record)
            self.tables[record.id] = table
            new.append(table)
        return new

    def make_table(self, record: GameRecord) -> Table:
        """A stored game as a table of this hub, rebuilt from its log."""
        table = Table(self, record)
        table.resume(self.store.log(record.id))
        return table

    async def pick_up_imports(self) -> None:
        """Games the host imports while the server runs (imperial serve import) appear: told
        to every screen (and worker) first, then woken (a bot moves, a player is rung)."""
        while True:
            await asyncio.sleep(IMPORT_POLL)
            try:
                for table in self.load():
                    log.info("picked up game #%s (%s)", table.id, table.title)
                    self.table_changed(table)
                    table.wake()
            except StoreError as exc:
                log.error("%s", exc)

    def wake(self) -> None:
        """With the event loop running: bots move, pending turns are notified."""
        for table in self.tables.values():
            table.wake()

    async def stop(self) -> None:
        for table in self.tables.values():
            await table.stop()
        for task in list(self._notify_tasks):
            task.cancel()
        self.redraws.stop()
        self.executor.shutdown(wait=False, cancel_futures=True)

    # -- connections --------------------------------------------------------------------------
    def admit(self, user: str) -> str | None:
        """A session of ``user`` may start (None), or why not (the server's cap on sessions,
        or the user's); ``release`` when it ends. Counted where the tables are, so that the
        caps hold across worker processes."""
        return self.sessions.admit(user)

    def release(self, user: str) -> None:
        self.sessions.release(user)

    def connect(self, client: Client) -> None:
        self.clients.add(client)

    def disconnect(self, client: Client) -> None:
        self.clients.discard(client)

    def connected(self, user: str) -> list[Client]:
        return [c for c in self.clients if c.user.lower() == user.lower()]

    # -- games --------------------------------------------------------------------------------
    def create_game(
        self,
        creator: str,
        seats: list[tuple[str, str]],
        rules: RuleSet,
        seed: int | None,
        hidden_cash: bool,
        title: str | None = None,
    ) -> Table:
        """A new game from the new-game screen's seats (``human`` named, ``open`` for anyone,
        ``bot:<level>``). It starts at once when no seat waits: none is open, and none is
        kept for another user (``seat_records``)."""
        check_seats(seats)
        settings: GameSettings = {
            "game": rules.game,
            "edition": rules.edition,
            "variant": rules.variant,
            "options": rules.options(),
            "seed": seed,
            "hidden_cash": hidden_cash,
            "pace": self.default_pace,
        }
        records = seat_records(seats, creator)
        name = title or f"{creator}'s {'2030 ' if rules.game == '2030' else ''}game"
        game_id = self.store.create_game(name, creator, settings, records)
        record = self.store.game(game_id)
        assert record is not None
        table = Table(self, record)
        self.tables[game_id] = table
        if table.waiting_seats == 0:
            self._start(table)
        else:
            self.table_changed(table)
        return table

    def _start(self, table: Table) -> None:
        try:
            table.start()
        except (ValueError, StoreError) as exc:
            raise Refused(f"the game cannot start: {exc}") from None

    def join(self, user: str, table: Table) -> Seat:
        """Take the seat kept for ``user``, else a free seat (the game starts when it was
        the last one waiting)."""
        if table.seat_of(user) is not None:
            raise Refused("you already have a seat in this game")
        if table.status != OPEN:
            raise Refused("this game has no free seat")
        seat = table.seat_kept_for(user)
        if seat is None:
            if any(s.name.lower() == user.lower() for s in table.seats):
                raise Refused(f"a seat of this game is already called {user}")
            seat = next((s for s in table.seats if s.is_free), None)
        if seat is None:
            raise Refused("this game has no free seat")
        name = seat.name if seat.is_kept else user
        self.store.take_seat(table.id, seat.seat, name, user)
        seat.name, seat.user = name, user
        if table.waiting_seats == 0:
            self._start(table)
        else:
            table.seats_changed()
        return seat

    def listing(self, user: str) -> list[LobbyRow]:
        rows = []
        for table in self.tables.values():
            rows.append(self.row(table, user))
        return rows

    def row(self, table: Table, user: str) -> LobbyRow:
        mine = table.player_of(user)
        kept = table.seat_kept_for(user) is not None
        game = table.game
        aw = game.awaiting if game is not None else None
        status = "damaged" if table.damaged else table.status
        if table.damaged:
            turn = table.damaged
        elif table.status == OPEN:
            n = table.waiting_seats
            turn = f"waiting for {n} more player{'s' if n != 1 else ''}"
            if kept:
                turn += "; a seat is kept for you"
        elif aw is None:
            result = game.result() if game is not None else None
            turn = result.describe() if result is not None else "game over"
        else:
            words = DECISION_WORDS.get(aw.kind, aw.kind)
            turn = f"{aw.player}: " + (f"{aw.nation} " if aw.nation else "") + words
        return LobbyRow(
            table.id,
            table.title,
            status,
            table.describe_seats(),
            mine is not None,
            mine is not None and aw is not None and aw.player == mine and not table.damaged,
            table.free_seats,
            turn,
            game_title(table.settings.get("game", GameName.IMPERIAL.value)),
            kept,
        )

    def table_changed(self, table: Table) -> None:
        for client in list(self.clients):
            try:
                client.on_lobby()
            except Exception:
                log.exception("telling %s about the lobby failed", client.user)

    # -- your turn ----------------------------------------------------------------------------
    def turn_started(self, table: Table, seat: Seat, turn: str) -> None:
        """It became ``seat``'s decision: ring their terminals (here, and on other hosts
        through ``ring_elsewhere``), or run the host's notify command once per turn for a
        player who is connected nowhere. Only the process that runs the game calls this."""
        user = seat.user or seat.name
        clients = self.ring(table, user)
        elsewhere = self.ring_elsewhere(table, seat)
        if clients or elsewhere or seat.notified == turn:
            return
        seat.notified = turn
        with contextlib.suppress(StoreError):
            self.store.set_notified(table.id, seat.seat, turn)
        game = table.game
        aw = game.awaiting if game is not None else None
        if aw is None:
            return
        words = DECISION_WORDS.get(aw.kind, aw.kind)
        env = {
            "IMPERIAL_PLAYER": seat.name,
            "IMPERIAL_GAME": str(table.id),
            "IMPERIAL_GAME_TITLE": table.title,
            "IMPERIAL_DECISION": (f"{aw.nation} " if aw.nation else "") + words,
            "IMPERIAL_NATION": aw.nation or "",
            "IMPERIAL_ROUND": str(game.state.round) if game else "",
        }
        self.notifications.append(env)
        log.info("your turn: %s in game %s (%s)", seat.name, table.id, env["IMPERIAL_DECISION"])
        if self.notify_command:
            self._run_notify(env)

    def ring(self, table: Table, user: str) -> list[Client]:
        """Ring ``user``'s terminals connected here for the decision now awaited in
        ``table``, once for that decision (a game taken over from another host is woken
        at a decision its player may have been rung for already); the clients rung."""
        clients = self.connected(user)
        game = table.game
        decision = (user.lower(), len(game.plies) if game is not None else -1)
        if not clients or self._rung.get(table.id) == decision:
            return clients
        self._rung[table.id] = decision
        for client in clients:
            try:
                client.on_turn(table)
            except Exception:
                log.exception("ringing %s failed", user)
        return clients

    def ring_elsewhere(self, table: Table, seat: Seat) -> bool:
        """Whether the seat's player is connected to another host (several hosts on one
        database: owner.py), who then rings them; one host alone has no other."""
        return False

    def _run_notify(self, env: dict[str, str]) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        task = loop.create_task(self._notify(env))
        self._notify_tasks.add(task)
        task.add_done_callback(self._notify_tasks.discard)

    async def _notify(self, env: dict[str, str]) -> None:
        assert self.notify_command is not None
        try:
            proc = await asyncio.create_subprocess_shell(
                self.notify_command,
                env={**os.environ, **env},
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.PIPE,
            )
        except OSError as exc:
            log.error("--notify command could not start: %s", exc)
            return
        try:
            _, err = await asyncio.wait_for(proc.communicate(), NOTIFY_TIMEOUT)
        except TimeoutError:
            proc.kill()
            log.error("--notify command took longer than %ss and was stopped", NOTIFY_TIMEOUT)
            return
        if proc.returncode:
            tail = err.decode(errors="replace").strip().splitlines()[-1:] if err else []
            log.error(
                "--notify command failed (%s)%s", proc.returncode, f": {tail[0]}" if tail else ""
            )

    # -- save files ---------------------------------------------------------------------------
    def export(self, game_id: int, path: Path) -> Path:
        table = self.tables.get(game_id)
        if table is None or table.game is None:
            raise SaveError(f"game {game_id}: no such game on this server, or not started yet")
        created = table.header.get("created") if table.header else None
        doc = game_to_dict(
            table.game,
            table.controllers(),
            table.app_settings(),
            created if isinstance(created, str) else None,  # (game_to_dict wrote a string)
        )
        write_atomically(path, to_json(doc) + "\n")
        return path

    def same_game(self, path: Path) -> int | None:
        """The number of a game here with the same players, deal and moves as the save file
        (importing it again would make a second copy), or None."""
        loaded = load_game(path)
        game = loaded.game
        moves = [str(a) for a in game.history]
        for table in self.tables.values():
            mine = table.game
            if (
                mine is not None
                and mine.players == game.players
                and mine.setup.seed == game.setup.seed
                and mine.rules == game.rules
                and [str(a) for a in mine.history] == moves
            ):
                return table.id
        return None

    def import_save(self, path: Path, creator: str = "host") -> Table:
        """A save file becomes a server game: its human seats belong to the users of those
        names, its computer seats keep their level, and its actions are the game's log."""
        loaded: LoadedGame = load_game(path)
        game = loaded.game
        seats = []
        for i, name in enumerate(game.players):
            ctl = loaded.controllers.get(name, HUMAN)
            computer = seat_level(ctl) is not None
            seats.append(SeatRecord(i, name, ctl if computer else HUMAN, None))
            if not computer:
                seats[-1].user = name
        settings: GameSettings = {
            "game": game.rules.game,
            "edition": game.rules.edition,
            "variant": game.rules.variant,
            "options": game.rules.options(),
            "seed": game.setup.seed,
            "hidden_cash": bool(loaded.app.get("hidden_cash", False)),
            "pace": float(loaded.app.get("pace", self.default_pace)),
        }
        header = game_to_dict(game, loaded.controllers, settings, loaded.header.get("created"))
        header.pop("actions")
        entries = [
            LogEntry("action", str(ply.action), actor_of(ply), None, now(), i)
            for i, ply in enumerate(game.plies, start=1)
        ]
        game_id = self.store.import_game(
            path.stem, creator, settings, seats, header, entries,
            FINISHED if game.is_over else PLAYING,
        )  # fmt: skip
        record = self.store.game(game_id)
        assert record is not None
        table = Table(self, record)
        table.resume(self.store.log(game_id))
        self.tables[game_id] = table
        return table


def describe(table: Table) -> dict[str, object]:
    """A plain summary of a table for the host's command line."""
    row = table.hub.row(table, "")
    return {
        "id": table.id,
        "title": table.title,
        "status": row.status,
        "seats": row.seats,
        "now": row.turn,
        "created": table.created,
        "playing": table.status == PLAYING,
    }
