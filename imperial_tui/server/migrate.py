"""``imperial serve migrate --from DIR --to postgresql://...``: a SQLite server's users and
games into PostgreSQL, exactly (game numbers, seats, every log line with its number, player,
user and time), in one transaction: it is all there or none of it."""

from __future__ import annotations

import json

from imperial_tui.server.store import SQLiteStore
from imperial_tui.server.store_pg import PostgresStore


class MigrateError(Exception):
    """One line for the host."""


def migrate_store(
    source: SQLiteStore, target: PostgresStore, force: bool = False
) -> tuple[int, int]:
    """Copy everything; returns (users, games) moved. Refuses a target that has users or
    games already unless ``force`` (a game number taken there still stops it, changing
    nothing)."""
    users = source.list_users()
    games = source.games()
    if not force and (target.games() or target.list_users()):
        raise MigrateError(
            "the target database has games or users already; use --force to add these to them"
        )
    with target._transaction():
        for u in users:
            target._run(
                "INSERT INTO users (name, key, created, last_seen, last_game) "
                "VALUES (%s, %s, %s, %s, %s)",
                (u.name, u.key, u.created, u.last_seen, u.last_game),
            )
        for g in games:
            target.create_game(g.title, g.creator, g.settings, g.seats, g.id, g.created)
            target._run(
                "UPDATE games SET status=%s, header=%s WHERE id=%s",
                (g.status, json.dumps(g.header) if g.header is not None else None, g.id),
            )
            for entry in source.log(g.id):
                target.append(g.id, entry, seq=entry.seq)
        # numbers are never used twice (SQLite's AUTOINCREMENT): a deleted game's neither
        row = source.db.execute("SELECT seq FROM sqlite_sequence WHERE name='games'").fetchone()
        if row and row[0]:
            target._run(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), "
                "GREATEST(%s, (SELECT COALESCE(MAX(id), 1) FROM games)))",
                (int(row[0]),),
            )
    return len(users), len(games)
