"""Where the server keeps everything: users and their keys, games, seats, and each game's
append-only log (actions, undos and chat lines, each with player and time).

The log is the game, as the actions list is in a save file: a game is rebuilt by replaying its
log through the engine (``Table.resume``). ``Store`` is the small interface the rest of the
server uses; ``SQLiteStore`` implements it with the standard library's sqlite3 in WAL mode
(the default: one host), ``store_pg.PostgresStore`` on PostgreSQL (several hosts on one
database: docs/SERVER.md), both on ``SqlStore``, which holds every statement and row mapping
they share, so that each store holds only what differs. ``open_store`` picks one from
``--data``/``--store``.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypedDict

SCHEMA_VERSION = 1

OPEN, PLAYING, FINISHED = "open", "playing", "finished"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class StoreError(Exception):
    """The database refused (disk full, locked, damaged): one line for a person."""


class NameTaken(StoreError):
    """Another key claimed this name first."""


class Conflict(StoreError):
    """The line of the log this writer meant to write is written already: another process
    (another host) extends this game now."""


class GameSettings(TypedDict, total=False):
    """A game's settings as the store keeps them (JSON); read with defaults where a key may
    be missing."""

    game: str  # "imperial" or "2030" (rules.games.GameName; a game stored before: Imperial)
    edition: str
    variant: str
    options: dict[str, object]  # rule options (RuleSet.options())
    seed: int | None
    hidden_cash: bool
    pace: float  # seconds between computer moves


# A game's save-file header once it has started: the document of rules.savefile's
# game_to_dict without its "actions" (the log holds them).
Header = dict[str, object]


@dataclass(slots=True)
class UserRecord:
    name: str
    key: str | None  # the OpenSSH public key line that claimed the name (None: --allow-any)
    created: str
    last_seen: str | None = None
    last_game: int | None = None


@dataclass(slots=True)
class SeatRecord:
    """A seat: ``kind`` is ``human`` (reserved for the user ``name``), ``open`` (any user may
    take it; ``name`` is empty until then) or ``bot:<level>``; ``user`` is who sits there."""

    seat: int
    name: str
    kind: str
    user: str | None = None
    notified: str | None = None  # the turn the player was last notified of (--notify)


@dataclass(slots=True)
class GameRecord:
    id: int
    title: str
    creator: str
    created: str
    status: str  # open (waiting for players), playing, finished
    settings: GameSettings  # game, edition, variant, options, seed, hidden_cash, pace
    header: Header | None  # once the game has started
    seats: list[SeatRecord] = field(default_factory=list)


@dataclass(slots=True)
class LogEntry:
    """One line of a game's log: ``action`` (notation), ``undo`` (takes back the last action)
    or ``chat`` (``text`` said by ``user`` after ``ply`` actions)."""

    kind: str
    text: str
    player: str | None  # the seat that acted (actions, undos)
    user: str | None  # the SSH user (None for computer players and imports)
    time: str
    ply: int = 0
    seq: int = 0


# a row of the games table: id, title, creator, created, status, settings and header (JSON)
GameRow = tuple[int, str, str, str, str, str, str | None]


class Store(Protocol):
    """What the server needs from a database. Every method is short and synchronous."""

    def close(self) -> None: ...

    # users
    def get_user(self, name: str) -> UserRecord | None: ...
    def claim_user(self, name: str, key: str | None) -> UserRecord: ...
    def touch_user(self, name: str) -> None: ...
    def set_last_game(self, name: str, game_id: int | None) -> None: ...
    def reset_user(self, name: str) -> bool: ...
    def list_users(self) -> list[UserRecord]: ...

    # games
    def create_game(
        self,
        title: str,
        creator: str,
        settings: GameSettings,
        seats: list[SeatRecord],
        game_id: int | None = None,
        created: str | None = None,
    ) -> int: ...
    def take_seat(self, game_id: int, seat: int, name: str, user: str) -> None: ...
    def start_game(self, game_id: int, header: Header) -> None: ...
    def set_status(self, game_id: int, status: str) -> None: ...
    def set_settings(self, game_id: int, settings: GameSettings) -> None: ...
    def set_notified(self, game_id: int, seat: int, turn: str) -> None: ...
    def game(self, game_id: int) -> GameRecord | None: ...
    def games(self, after: int = 0) -> list[GameRecord]: ...
    def game_ids(self) -> list[int]: ...
    def delete_game(self, game_id: int) -> bool: ...

    # the log
    def append(self, game_id: int, entry: LogEntry, seq: int | None = None) -> int: ...
    def log(self, game_id: int, after: int = 0) -> list[LogEntry]: ...
    def import_game(
        self,
        title: str,
        creator: str,
        settings: GameSettings,
        seats: list[SeatRecord],
        header: Header,
        entries: list[LogEntry],
        status: str,
    ) -> int: ...


def open_store(spec: str | Path) -> Store:
    """``postgresql://...`` (or ``postgres://``): PostgreSQL; anything else: the SQLite file
    at that path. StoreError with one line when it cannot be opened."""
    from imperial_tui.server.store_pg import PostgresStore, is_url

    if is_url(spec):
        return PostgresStore(str(spec))
    return SQLiteStore(spec)


def describe_store(spec: str | Path) -> str:
    """Where a store is, for a person (a URL without its password)."""
    from imperial_tui.server.store_pg import is_url

    if is_url(spec):
        from urllib.parse import urlsplit

        u = urlsplit(str(spec))
        host = u.hostname or "localhost"
        return f"PostgreSQL {u.username + '@' if u.username else ''}{host}{u.path}"
    return str(spec)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    key TEXT,
    created TEXT NOT NULL,
    last_seen TEXT,
    last_game INTEGER
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    creator TEXT NOT NULL,
    created TEXT NOT NULL,
    status TEXT NOT NULL,
    settings TEXT NOT NULL,
    header TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    user TEXT,
    notified TEXT,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS log (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL,
    player TEXT,
    user TEXT,
    time TEXT NOT NULL,
    ply INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class Rows(Protocol):
    """What a statement gives back, in sqlite3 and in psycopg alike."""

    @property
    def rowcount(self) -> int: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> Sequence[Any]: ...


class SqlStore(ABC):
    """What the two stores share: every statement but the schema, written once with ``?``
    for a parameter (``PostgresStore._run`` turns it into psycopg's ``%s``), and the mapping
    of rows to records. Each store adds its connection (``_run``, ``_transaction``), its
    schema, and what only it does: the hooks below are nothing here, and PostgreSQL's locks
    and announcements there (store_pg.py)."""

    # a user's name, compared and ordered without regard to case (SQLite: its NOCASE column)
    _SAME_NAME = "lower(name)=lower(?)"
    _NAME_ORDER = "lower(name)"
    _GAME_COLUMNS = "id, title, creator, created, status, settings, header"
    _USER_COLUMNS = "name, key, created, last_seen, last_game"
    _LOG_COLUMNS = ("game_id", "seq", "kind", "text", "player", '"user"', "time", "ply")

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _run(self, sql: str, args: tuple[object, ...] = ()) -> Rows:
        """One statement; StoreError (one line) when the database refuses it, ``Conflict``
        when it breaks a key."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[None]:
        """Everything inside, or nothing (the same errors as ``_run``)."""

    # -- what only one store does (the hooks run inside the change's transaction) ----------
    def _created(self, game_id: int) -> None:
        """A game was inserted."""
        return None  # (SQLite: nothing)

    def _changed(self, game_id: int) -> None:
        """A game's record, seats or log changed."""
        return None  # (SQLite: nothing)

    def _conflicted(self, game_id: int) -> None:
        """A line of the game's log was written already by another writer."""
        return None  # (SQLite: nothing)

    def _numbered(self) -> None:
        """A game was inserted with its number given (a migration): new numbers follow it."""
        return None  # (SQLite: nothing)

    def _log_extra(self) -> dict[str, object]:
        """Columns of a log line besides ``_LOG_COLUMNS`` and their values."""
        return {}

    # -- users -------------------------------------------------------------------------------
    def get_user(self, name: str) -> UserRecord | None:
        row = self._run(
            f"SELECT {self._USER_COLUMNS} FROM users WHERE {self._SAME_NAME}", (name,)
        ).fetchone()
        return UserRecord(*row) if row else None

    def claim_user(self, name: str, key: str | None) -> UserRecord:
        """The first key that logs in as ``name`` claims it (trust on first use)."""
        try:
            self._run("INSERT INTO users (name, key, created) VALUES (?, ?, ?)", (name, key, now()))
        except Conflict:
            raise NameTaken(f"the name {name} is taken") from None
        user = self.get_user(name)
        assert user is not None
        return user

    def touch_user(self, name: str) -> None:
        self._run(f"UPDATE users SET last_seen=? WHERE {self._SAME_NAME}", (now(), name))

    def set_last_game(self, name: str, game_id: int | None) -> None:
        """Where a player was: a reconnect lands there (None: the lobby)."""
        self._run(f"UPDATE users SET last_game=? WHERE {self._SAME_NAME}", (game_id, name))

    def reset_user(self, name: str) -> bool:
        return self._run(f"DELETE FROM users WHERE {self._SAME_NAME}", (name,)).rowcount > 0

    def list_users(self) -> list[UserRecord]:
        rows = self._run(
            f"SELECT {self._USER_COLUMNS} FROM users ORDER BY {self._NAME_ORDER}"
        ).fetchall()
        return [UserRecord(*r) for r in rows]

    # -- games -------------------------------------------------------------------------------
    def create_game(
        self,
        title: str,
        creator: str,
        settings: GameSettings,
        seats: list[SeatRecord],
        game_id: int | None = None,
        created: str | None = None,
    ) -> int:
        with self._transaction():
            game_id = self._insert_game(title, creator, settings, seats, game_id, created)
            self._created(game_id)
            self._changed(game_id)
        return game_id

    def _insert_game(
        self,
        title: str,
        creator: str,
        settings: GameSettings,
        seats: list[SeatRecord],
        game_id: int | None = None,
        created: str | None = None,
    ) -> int:
        values = (title, creator, created or now(), OPEN, json.dumps(settings))
        if game_id is None:
            rows = self._run(
                "INSERT INTO games (title, creator, created, status, settings) "
                "VALUES (?, ?, ?, ?, ?) RETURNING id",
                values,
            ).fetchall()  # (all: SQLite finishes a RETURNING statement when it is read)
            game_id = int(rows[0][0])
        else:  # (a migration keeps the numbers)
            self._run(
                "INSERT INTO games (id, title, creator, created, status, settings) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, *values),
            )
            self._numbered()
        for s in seats:
            self._run(
                'INSERT INTO seats (game_id, seat, name, kind, "user", notified) '
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, s.seat, s.name, s.kind, s.user, s.notified),
            )
        return game_id

    def _change(self, game_id: int, sql: str, args: tuple[object, ...]) -> None:
        with self._transaction():
            self._run(sql, args)
            self._changed(game_id)

    def take_seat(self, game_id: int, seat: int, name: str, user: str) -> None:
        self._change(
            game_id,
            'UPDATE seats SET name=?, "user"=? WHERE game_id=? AND seat=?',
            (name, user, game_id, seat),
        )

    def start_game(self, game_id: int, header: Header) -> None:
        self._change(
            game_id,
            "UPDATE games SET status=?, header=? WHERE id=?",
            (PLAYING, json.dumps(header), game_id),
        )

    def set_status(self, game_id: int, status: str) -> None:
        self._change(game_id, "UPDATE games SET status=? WHERE id=?", (status, game_id))

    def set_settings(self, game_id: int, settings: GameSettings) -> None:
        self._change(
            game_id, "UPDATE games SET settings=? WHERE id=?", (json.dumps(settings), game_id)
        )

    def set_notified(self, game_id: int, seat: int, turn: str) -> None:
        self._run("UPDATE seats SET notified=? WHERE game_id=? AND seat=?", (turn, game_id, seat))

    def _record(self, row: GameRow) -> GameRecord:
        gid, title, creator, created, status, settings, header = row
        seats = [
            SeatRecord(*r)
            for r in self._run(
                'SELECT seat, name, kind, "user", notified FROM seats WHERE game_id=? '
                "ORDER BY seat",
                (gid,),
            ).fetchall()
        ]
        return GameRecord(
            gid,
            title,
            creator,
            created,
            status,
            json.loads(settings),
            json.loads(header) if header else None,
            seats,
        )

    def game(self, game_id: int) -> GameRecord | None:
        row = self._run(f"SELECT {self._GAME_COLUMNS} FROM games WHERE id=?", (game_id,)).fetchone()
        return self._record(row) if row else None

    def games(self, after: int = 0) -> list[GameRecord]:
        """Every game, or those numbered above ``after`` (imported while serving)."""
        rows = self._run(
            f"SELECT {self._GAME_COLUMNS} FROM games WHERE id > ? ORDER BY id", (after,)
        ).fetchall()
        return [self._record(r) for r in rows]

    def game_ids(self) -> list[int]:
        """The number of every game (cheap: what a server looks for anew every few seconds)."""
        return [int(r[0]) for r in self._run("SELECT id FROM games ORDER BY id").fetchall()]

    def delete_game(self, game_id: int) -> bool:
        return self._run("DELETE FROM games WHERE id=?", (game_id,)).rowcount > 0

    # -- the log -----------------------------------------------------------------------------
    def append(self, game_id: int, entry: LogEntry, seq: int | None = None) -> int:
        """Add a line to a game's log. With ``seq`` (the line the writer expects to write),
        a line already written there by another process (another host) is a ``Conflict``:
        the writer no longer runs the game."""
        try:
            with self._transaction():
                seq = self._append(game_id, entry, seq)
                self._changed(game_id)
        except Conflict:
            self._conflicted(game_id)
            raise
        entry.seq = seq
        return seq

    def _append(self, game_id: int, entry: LogEntry, seq: int | None) -> int:
        if seq is None:
            row = self._run(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM log WHERE game_id=?", (game_id,)
            ).fetchone()
            seq = int(row[0])
        extra = self._log_extra()
        columns = (*self._LOG_COLUMNS, *extra)
        values = (game_id, seq, entry.kind, entry.text, entry.player, entry.user, entry.time)
        try:
            self._run(
                f"INSERT INTO log ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                (*values, entry.ply, *extra.values()),
            )
        except Conflict as exc:
            raise Conflict(f"game {game_id}, line {seq}: {exc}") from None
        return seq

    def log(self, game_id: int, after: int = 0) -> list[LogEntry]:
        rows = self._run(
            'SELECT kind, text, player, "user", time, ply, seq FROM log '
            "WHERE game_id=? AND seq > ? ORDER BY seq",
            (game_id, after),
        ).fetchall()
        return [LogEntry(*r) for r in rows]

    def import_game(
        self,
        title: str,
        creator: str,
        settings: GameSettings,
        seats: list[SeatRecord],
        header: Header,
        entries: list[LogEntry],
        status: str,
    ) -> int:
        """A whole game in one transaction (``imperial serve import``): a running server
        (any host) never picks up a game half written."""
        with self._transaction():
            game_id = self._insert_game(title, creator, settings, seats)
            self._created(game_id)
            self._run(
                "UPDATE games SET status=?, header=? WHERE id=?",
                (status, json.dumps(header), game_id),
            )
            for e in entries:
                e.seq = self._append(game_id, e, None)
            self._changed(game_id)
        return game_id


class SQLiteStore(SqlStore):
    """The store in one SQLite file. WAL mode lets the host read (``imperial serve export``,
    a backup) while the server writes. ``synchronous=NORMAL``: a committed action survives
    the server being killed or crashing; only a power cut or an OS crash may lose the last
    moments (FULL would fsync every action: about 6 ms here, during which every player's
    screen waits)."""

    # users.name is COLLATE NOCASE: compared and ordered by its index
    _SAME_NAME = "name=?"
    _NAME_ORDER = "name"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.executescript(_SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: written by a newer imperial (schema {row[0]}); update imperial"
                )
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{self.path}: cannot open the database: {exc}") from None

    def close(self) -> None:
        self.db.close()

    def _run(self, sql: str, args: tuple[object, ...] = ()) -> sqlite3.Cursor:
        try:
            return self.db.execute(sql, args)
        except sqlite3.IntegrityError as exc:
            raise Conflict(str(exc)) from None
        except sqlite3.Error as exc:
            raise StoreError(f"the server's database refused: {exc}") from None

    def _transaction(self) -> _Transaction:
        return _Transaction(self)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT (ROLLBACK on error): one fsync per action."""

    def __init__(self, store: SQLiteStore) -> None:
        self.store = store

    def __enter__(self) -> None:
        self.store._run("BEGIN IMMEDIATE")

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if kind is None:
            self.store._run("COMMIT")
        else:
            with contextlib.suppress(sqlite3.Error):
                self.store.db.execute("ROLLBACK")
