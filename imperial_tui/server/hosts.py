"""Several ``imperial serve`` hosts on one PostgreSQL database (``--store postgresql://...``).

A game must change in exactly one place, because its table serialises its actions. So each
game is run by one host at a time: the host that holds the game's PostgreSQL advisory lock
(a session lock on the host's own connection, which PostgreSQL frees when that connection
ends: the host stopped, died, or lost the network). Every other host keeps a copy
(``CopyTable``, a worker's copy fed from the database instead of from an owner process) and
a player may connect to any host and play any game:

- a change a player makes to a game another host runs (a move, an undo, a chat line, a seat,
  the pace: the calls marked ``hosts`` in calls.py) is written to the ``requests`` table and
  announced (NOTIFY); the running host answers it through the same code that answers its
  own workers, writes the answer, and announces that; the asking host then catches up and
  answers its player as if the game were its own;
- every write to a game announces the game's id (NOTIFY carries ids only); a host that hears
  it reads the game's record and the log lines after the last it has (NOTIFY is not
  replayed: the log is, so a host that missed announcements still catches up);
- every second each host tries to take the lock of every game that nobody holds: a new game
  imported from the command line, or the games of a host that died. The first to get it
  rebuilds the game from its log (as a restart does), answers the requests left pending, and
  runs it from then on: a host's death costs the time to notice it (up to a second, or the
  database's TCP keep-alive of about 10 s when the host's machine vanished without closing
  its connections) and to replay the game.
- a request that was answered by a log line (a move) is never played twice: the line names
  the request, and a host taking over answers such a request from the log (a join: by the
  player's seat);
- the host that runs a game alone decides how a player learns that a decision is theirs:
  it rings them where they are connected (itself, or the hosts that the ``presence`` table
  names, asked by ``t<id>``) and runs ``--notify`` only for a player connected to no host,
  once per turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import uuid
from dataclasses import astuple
from typing import TYPE_CHECKING

from imperial_tui.server.calls import CALLS, Op
from imperial_tui.server.mirror import MirrorTable
from imperial_tui.server.store import StoreError
from imperial_tui.server.store_pg import CHANNEL, GAME_LOCKS, HOST_LOCKS, PostgresStore, connect
from imperial_tui.server.table import Refused, Seat, Table
from imperial_tui.server.wire import Message
from rules import Action

if TYPE_CHECKING:
    from imperial_tui.server.hub import Hub
    from imperial_tui.server.owner import Owner

log = logging.getLogger("imperial.server")

TAKEOVER_POLL = 1.0  # seconds between looks for games nobody runs
FORWARD_TIMEOUT = 15.0  # seconds a player's call waits for the host that runs the game
REQUEST_KEEP = "1 hour"  # answered requests are deleted after this

# a presence row p counts while its host holds its own lock (PostgreSQL frees it when the
# host's connection ends); its one parameter is HOST_LOCKS
_ALIVE = (
    "EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted "
    "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND l.classid = %s::bigint::oid AND l.objid = p.host::bigint::oid AND l.objsubid = 2)"
)


class CopyTable(MirrorTable):
    """A game another host runs, as this host sees it: rebuilt from the database's log and
    caught up on every announcement. Changed only by that host (the owner forwards the
    calls, ``Cluster.forward``), which also says when to ring a player connected here
    (``Cluster.ring_elsewhere``): a copy never rings or notifies on its own word."""

    def catch_up(self, store: PostgresStore) -> bool:
        """Read the game's record and the log lines after the last this copy has; True when
        something changed (then every screen of this host is told)."""
        record = store.game(self.id)
        if record is None:
            return False
        entries = store.log(self.id, after=len(self.log))
        seats = [astuple(s) for s in record.seats]
        same = (
            not entries
            and record.status == self.status
            and record.settings == self.settings
            and seats == [astuple(s) for s in self.seats]
            and (record.header is None) == (self.header is None)
        )
        if same and self.taken:
            return False
        moved = any(e.kind != "chat" for e in entries)
        self.take(
            {
                "title": record.title,
                "status": record.status,
                "settings": record.settings,
                "seats": seats,
                "header": record.header,
                "damaged": None,
                "version": self.version + 1,
                "game_version": self.game_version + (1 if moved else 0),
                "from": len(self.log),
                "log": [(e.kind, e.text, e.ply) for e in entries],
            }
        )
        return True

    # -- never here: the owner forwards these (Owner.answer) -----------------------------------
    def apply(self, user: str, action: Action | str, expect: int | None = None) -> None:
        raise Refused("this game is run by another host; try again")

    def undo(self, user: str) -> int:
        raise Refused("this game is run by another host; try again")

    def say(self, user: str, text: str) -> None:
        raise Refused("this game is run by another host; try again")

    def set_pace(self, pace: float) -> None:
        raise Refused("this game is run by another host; try again")


def copy_of(hub: Hub, store: PostgresStore, game_id: int, before: Table | None) -> CopyTable | None:
    """A copy of a game from the database (None: it is gone), continuing ``before``'s version
    so that the workers' copies take it."""
    record = store.game(game_id)
    if record is None:
        return None
    copy = CopyTable(hub, record)
    if before is not None:
        copy.version = before.version
        copy.game_version = before.game_version
    copy.catch_up(store)
    return copy


class Cluster:
    """This host's part in a cluster of hosts on one database: which games it runs (their
    locks), announcements, forwarded calls and taking over."""

    def __init__(self, owner: Owner, store: PostgresStore) -> None:
        self.owner = owner
        self.store = store
        self.hub = owner.hub
        self.name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.locks = connect(store.url)  # holds this host's games' advisory locks
        # ... and this host's own, which says it is alive (its players in ``presence``)
        self.key = self._hold_host_lock(None)
        self.runs: set[int] = set()
        self.waiting: dict[int, asyncio.Future[Message]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._busy: set[int] = set()  # games whose requests are being answered
        self.takeovers = 0
        store.on_create = self.lock_new
        # a line this host meant to write was written by another: that host runs it now
        store.on_conflict = lambda game_id: asyncio.get_running_loop().call_soon(self.lost, game_id)

    # -- locks ----------------------------------------------------------------------------------
    def try_lock(self, game_id: int) -> bool:
        if game_id in self.runs:
            return True
        row = self.locks.execute(
            "SELECT pg_try_advisory_lock(%s, %s)", (GAME_LOCKS, game_id)
        ).fetchone()
        if row and row[0]:
            self.runs.add(game_id)
            return True
        return False

    def _hold_host_lock(self, key: int | None) -> int:
        """Take this host's own lock (the same key again after the lock connection broke,
        when it is free): its players' rows in ``presence`` count while it is held."""
        while True:
            key = key or secrets.randbelow(2**31 - 2) + 1
            row = self.locks.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (HOST_LOCKS, key)
            ).fetchone()
            if row and row[0]:
                return key
            key = None

    def lock_new(self, game_id: int) -> None:
        """A game this host creates is its own before any other host can see it."""
        if not self.try_lock(game_id):
            raise StoreError(f"game {game_id} is locked by another host")

    def unlock(self, game_id: int) -> None:
        if game_id in self.runs:
            self.runs.discard(game_id)
            with contextlib.suppress(Exception):
                self.locks.execute("SELECT pg_advisory_unlock(%s, %s)", (GAME_LOCKS, game_id))

    # -- running --------------------------------------------------------------------------------
    async def start(self) -> None:
        with contextlib.suppress(StoreError):  # (rows of hosts that died: count for nothing)
            self.store._run(f"DELETE FROM presence p WHERE NOT {_ALIVE}", (HOST_LOCKS,))
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._take_over())]
        for game_id in list(self.runs):  # requests left by a host that died before we started
            self.answer_requests(game_id)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for future in self.waiting.values():
            if not future.done():
                future.set_result({"refused": "the server is stopping"})
        with contextlib.suppress(Exception):  # (its players are connected nowhere now)
            self.store._run("DELETE FROM presence WHERE host=%s", (self.key,))
        with contextlib.suppress(Exception):
            self.locks.close()

    async def _listen(self) -> None:
        """Announcements: ``g<id>`` a game changed, ``r<id>`` a request for game id,
        ``a<id>`` request id was answered. Reconnects when the connection breaks (and then
        catches up every copy: announcements are not replayed)."""
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.store.url, autocommit=True)
            except psycopg.Error as exc:
                log.error("cannot listen to the database: %s", exc)
                await asyncio.sleep(1.0)
                continue
            try:
                await conn.execute(f"LISTEN {CHANNEL}")
                self.catch_up_all()
                async for note in conn.notifies():
                    self.heard(note.payload)
            except psycopg.Error as exc:
                log.error("listening to the database failed: %s", exc)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()
            await asyncio.sleep(0.5)

    def heard(self, payload: str) -> None:
        """``g<game>``, ``r<game>``, ``a<request>``; ``t<game>``: ring the player whose
        decision it is in that game, if they are connected here."""
        kind, number = payload[:1], payload[1:]
        try:
            n = int(number)
        except ValueError:
            return
        try:
            if kind == "g":
                self.game_changed(n)
            elif kind == "r" and n in self.runs:
                self.answer_requests(n)
            elif kind == "a" and n in self.waiting:
                self.collect(n)
            elif kind == "t":
                self.ring(n)
        except StoreError as exc:
            log.error("%s", exc)
        except Exception:
            log.exception("an announcement %r could not be taken", payload)

    def game_changed(self, game_id: int) -> None:
        table = self.hub.tables.get(game_id)
        if table is None:  # a game another host (or the host's command line) made
            self.hub.load()
            new = self.hub.tables.get(game_id)
            if new is not None:
                self.hub.table_changed(new)
                new.wake()
        elif isinstance(table, CopyTable) and table.catch_up(self.store):
            self.hub.table_changed(table)

    def catch_up_all(self) -> None:
        for table in list(self.hub.tables.values()):
            if isinstance(table, CopyTable) and table.catch_up(self.store):
                self.hub.table_changed(table)
        self.hub.load()

    async def _take_over(self) -> None:
        while True:
            await asyncio.sleep(TAKEOVER_POLL)
            try:
                self.take_over()
            except Exception as exc:  # the lock connection broke: our locks are gone
                log.error("the database connection that holds this host's games broke: %s", exc)
                self.lost_all()

    def take_over(self) -> list[int]:
        """Lock every game nobody runs; run each from its log."""
        rows = self.locks.execute(
            "SELECT id FROM (SELECT id FROM games WHERE NOT (id = ANY(%s)) OFFSET 0) g "
            "WHERE pg_try_advisory_lock(%s, g.id)",
            (sorted(self.runs), GAME_LOCKS),
        ).fetchall()
        taken = []
        for (game_id,) in rows:
            self.runs.add(game_id)
            self.run_here(game_id)
            taken.append(game_id)
        return taken

    def run_here(self, game_id: int) -> None:
        """This host now holds the game's lock: a real table, from the log."""
        before = self.hub.tables.get(game_id)
        record = self.store.game(game_id)
        if record is None:
            self.unlock(game_id)
            return
        table = Table(self.hub, record)
        table.resume(self.store.log(game_id))
        if before is not None:
            table.version = before.version + 1
            table.game_version = before.game_version + 1
        self.hub.tables[game_id] = table
        self.takeovers += 1
        log.info("running game %s here from now on", game_id)
        self.hub.table_changed(table)
        table.wake()
        self.answer_requests(game_id)

    def lost(self, game_id: int) -> None:
        """Another host runs this game now (it wrote a line this host meant to write)."""
        table = self.hub.tables.get(game_id)
        self.unlock(game_id)
        if table is None or isinstance(table, CopyTable):
            return
        log.error("game %s is run by another host now", game_id)
        asyncio.get_running_loop().create_task(table.stop())
        copy = copy_of(self.hub, self.store, game_id, table)
        if copy is not None:
            copy.version = max(copy.version, table.version + 1)
            self.hub.tables[game_id] = copy
            self.hub.table_changed(copy)

    def lost_all(self) -> None:
        with contextlib.suppress(Exception):
            self.locks.close()
        self.locks = connect(self.store.url)
        key, self.key = self.key, self._hold_host_lock(self.key)
        if key != self.key:  # (taken meanwhile: this host's players move to its new key)
            self.store._run("UPDATE presence SET host=%s WHERE host=%s", (self.key, key))
        for game_id in list(self.runs):
            self.runs.discard(game_id)
            self.lost(game_id)

    # -- who is connected where ----------------------------------------------------------------
    def arrived(self, user: str) -> None:
        """A session of ``user`` began on this host (counted for the other hosts, which
        then neither notify them nor ring them elsewhere)."""
        with contextlib.suppress(StoreError):
            self.store._run(
                'INSERT INTO presence (host, "user", sessions) VALUES (%s, lower(%s), 1) '
                'ON CONFLICT (host, "user") DO UPDATE SET sessions = presence.sessions + 1',
                (self.key, user),
            )

    def left(self, user: str) -> None:
        with contextlib.suppress(StoreError):
            self.store._run(
                'UPDATE presence SET sessions = sessions - 1 WHERE host=%s AND "user"=lower(%s)',
                (self.key, user),
            )
            self.store._run("DELETE FROM presence WHERE host=%s AND sessions <= 0", (self.key,))

    def ring_elsewhere(self, table: Table, seat: Seat) -> bool:
        """The seat's player is connected to another live host: that host is asked to ring
        them (``t<game>``; it catches up first) and True, so this host, which runs the game,
        does not run --notify for them. The one place that decides, for every host."""
        try:
            row = self.store._run(
                f'SELECT 1 FROM presence p WHERE p."user" = lower(%s) AND p.host <> %s '
                f"AND p.sessions > 0 AND {_ALIVE} LIMIT 1",
                (seat.user or seat.name, self.key, HOST_LOCKS),
            ).fetchone()
            if row is None:
                return False
            self.store._run("SELECT pg_notify(%s, %s)", (CHANNEL, f"t{table.id}"))
        except StoreError as exc:
            log.error("%s", exc)
            return False
        return True

    def ring(self, game_id: int) -> None:
        """Another host, which runs the game, says a decision began there: ring its player
        if they are connected here."""
        table = self.hub.tables.get(game_id)
        if not isinstance(table, CopyTable):
            return  # (this host's own word: it rang its players already)
        if table.catch_up(self.store):
            self.hub.table_changed(table)
        game = table.game
        aw = game.awaiting if game is not None else None
        seat = table.seat_named(aw.player) if aw is not None else None
        if seat is not None and not seat.is_bot:
            self.hub.ring(table, seat.user or seat.name)

    # -- forwarded calls --------------------------------------------------------------------------
    async def forward(self, table: CopyTable, op: Op, message: Message) -> Message:
        """A player here changes a game another host runs: ask that host through the
        database; its answer, once this copy has caught up with what it wrote."""
        call = CALLS[op]
        args = {k: message[k] for k in (*call.args, *call.optional, "id") if k in message}
        if args.get("expect") is not None:  # (game versions are this process's numbering)
            if args.pop("expect") != table.game_version:
                return {"refused": "the game moved on while you chose: look again"}
            args["moves"] = table.moves()
        loop = asyncio.get_running_loop()
        row = self.store._run(
            "INSERT INTO requests (game_id, host, call) VALUES (%s, %s, %s) RETURNING id",
            (table.id, self.name, json.dumps({"op": op.value, **args})),
        ).fetchone()
        assert row is not None  # (RETURNING: one row)
        rid = int(row[0])
        future: asyncio.Future[Message] = loop.create_future()
        self.waiting[rid] = future
        try:
            self.store._run("SELECT pg_notify(%s, %s)", (CHANNEL, f"r{table.id}"))
            if table.id in self.runs:  # (taken over meanwhile: answer it here)
                self.answer_requests(table.id)
            try:
                answer = await asyncio.wait_for(asyncio.shield(future), FORWARD_TIMEOUT)
            except TimeoutError:
                answer = self._answer_of(rid) or {
                    "refused": "the host that runs this game did not answer; try again"
                }
        finally:
            self.waiting.pop(rid, None)
        current = self.hub.tables.get(table.id)
        if isinstance(current, CopyTable) and current.catch_up(self.store):
            self.hub.table_changed(current)
        return answer

    def _answer_of(self, rid: int) -> Message | None:
        row = self.store._run("SELECT answer FROM requests WHERE id=%s", (rid,)).fetchone()
        if row is None or row[0] is None:
            return None
        answer = json.loads(row[0])
        return answer if isinstance(answer, dict) else None

    def collect(self, rid: int) -> None:
        future = self.waiting.get(rid)
        answer = self._answer_of(rid)
        if future is not None and answer is not None and not future.done():
            future.set_result(answer)

    def answer_requests(self, game_id: int) -> None:
        """Answer the open requests for a game this host runs, oldest first, through the
        same code that answers this host's workers."""
        if game_id in self._busy:
            return
        self._busy.add(game_id)
        try:
            rows = self.store._run(
                "SELECT id, call FROM requests WHERE game_id=%s AND answer IS NULL ORDER BY id",
                (game_id,),
            ).fetchall()
            for rid, text in rows:
                if game_id not in self.runs:
                    return
                self._answer_one(int(rid), text)
        finally:
            self._busy.discard(game_id)

    def done_before(self, rid: int, message: Message) -> bool:
        """Whether a request was carried out by a host that died before it could answer:
        a move, undo or chat line by the log line that names it; a join by the player's
        seat (a seat row cannot name a request; taking a seat twice is the same as once)."""
        if self.store._run("SELECT 1 FROM log WHERE request=%s", (rid,)).fetchone():
            return True
        game_id, user = message.get("id"), message.get("user")
        if message.get("op") == Op.JOIN and isinstance(game_id, int) and isinstance(user, str):
            table = self.hub.tables.get(game_id)
            return table is not None and table.seat_of(user) is not None
        return False

    def _answer_one(self, rid: int, text: str) -> None:
        answer: Message
        try:
            message = json.loads(text)
            if not isinstance(message, dict) or not CALLS[Op(str(message.get("op")))].hosts:
                raise ValueError(text[:60])
        except (ValueError, KeyError):
            answer = {"refused": "an unreadable request"}
        else:
            if self.done_before(rid, message):
                answer = {}
            else:
                self.store.request = rid
                try:
                    answer = self.owner._answer(None, message)
                finally:
                    self.store.request = None
                answer.pop("tables", None)
        self.store._run(
            "UPDATE requests SET answer=%s WHERE id=%s AND answer IS NULL",
            (json.dumps(answer), rid),
        )
        self.store._run("SELECT pg_notify(%s, %s)", (CHANNEL, f"a{rid}"))
        self.store._run(
            f"DELETE FROM requests WHERE answer IS NOT NULL AND created < now() - interval "
            f"'{REQUEST_KEEP}'"
        )


__all__ = ["Cluster", "CopyTable", "copy_of"]
