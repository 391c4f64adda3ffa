"""Two hosts on one PostgreSQL database, in one process (each an ``Owner`` with its
``Cluster``, without worker processes or SSH: the calls a worker would make are made
directly), for the races around a game that changes host:

- a player who joins a game on host B while host A, which runs it, dies half-way through
  seating them: B takes the game over and the join succeeds (it is not answered "you
  already have a seat"), and a game whose last seat was taken but which was never dealt
  is dealt by the host that takes it over;
- the ``--notify`` command runs on exactly one host (the one that runs the game), once
  per turn, and never for a player connected to any host: that player is rung where they
  are connected, once, at the word of the host that runs the game.

A host "dies" here as PostgreSQL sees a killed process: its connections end (its locks
are freed), and it answers nothing more.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from imperial_tui.server.hosts import CopyTable
from imperial_tui.server.hub import Client
from imperial_tui.server.owner import Owner
from imperial_tui.server.ssh import ServeConfig
from imperial_tui.server.store import OPEN, PLAYING
from imperial_tui.server.table import Table
from rules import RuleSet
from rules.bots import make_bot
from tests.server_helpers import run, until

pytestmark = pytest.mark.postgresql


def host(data: Path, url: str) -> Owner:
    """A host's games' process, its games loaded (locked where nobody runs them)."""
    owner = Owner(ServeConfig(data=data, store=url, pace=0.0, workers=1))
    owner.hub.load()
    return owner


def kill(owner: Owner) -> None:
    """What PostgreSQL sees of a host killed with SIGKILL: its connections end."""
    assert owner.cluster is not None
    for task in owner.cluster._tasks:
        task.cancel()
    owner.cluster.locks.close()
    owner.store.db.close()  # type: ignore[attr-defined]


async def stop(owner: Owner) -> None:
    assert owner.cluster is not None
    with contextlib.suppress(Exception):
        await owner.cluster.stop()
    await owner.hub.stop()
    with contextlib.suppress(Exception):
        owner.store.close()


@contextlib.asynccontextmanager
async def hosts(tmp_path: Path, url: str) -> AsyncIterator[tuple[Owner, Owner]]:
    a = host(tmp_path / "a", url)
    b = host(tmp_path / "b", url)
    try:
        yield a, b
    finally:
        for owner in (b, a):
            await stop(owner)


def open_game(owner: Owner) -> Table:
    """Anna's game with one open seat and a computer player, run by ``owner``."""
    return owner.hub.create_game(
        "anna", [("anna", "human"), ("", "open"), ("Cleo", "bot:greedy")], RuleSet.preset(),
        7, True,
    )  # fmt: skip


def open_request(owner: Owner) -> tuple[int, dict[str, object]]:
    row = owner.store._run(  # type: ignore[attr-defined]
        "SELECT id, call FROM requests WHERE answer IS NULL ORDER BY id"
    ).fetchone()
    assert row is not None, "no request was written"
    return int(row[0]), json.loads(row[1])


@pytest.mark.parametrize("dealt", [True, False], ids=["seated-and-dealt", "seated-not-dealt"])
def test_a_join_survives_the_death_of_the_host_that_was_seating_the_player(
    tmp_path: Path, pg_url: str, dealt: bool
) -> None:
    """Ben joins on host B; host A seats him (and deals the game, or dies before it could)
    and dies before answering. Host B takes the game over: Ben's join is answered as done,
    not "you already have a seat", and the game is dealt exactly once."""

    async def scenario() -> None:
        async with hosts(tmp_path, pg_url) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            open_game(a)
            b.hub.load()
            assert isinstance(b.hub.tables[1], CopyTable)
            await b.cluster.start()  # (A listens to nothing: it dies before answering)
            joining = asyncio.get_running_loop().create_task(
                b.answer(None, {"op": "join", "id": 1, "user": "ben", "have": 0})  # type: ignore[arg-type]
            )
            await until(
                lambda: (
                    b.store._run(  # type: ignore[attr-defined]
                        "SELECT count(*) FROM requests"
                    ).fetchone()[0]
                    == 1
                ),
                10,
                "the request",
            )
            rid, call = open_request(a)
            a.store.request = rid  # type: ignore[attr-defined]
            if dealt:  # A answers as it answers every request, up to writing the answer
                a._answer(None, call)
            else:  # A has written the seat, not yet the deal
                a.store.take_seat(1, 1, "ben", "ben")
            header = a.store.game(1).header  # type: ignore[union-attr]
            kill(a)
            answer = await asyncio.wait_for(joining, 15)
            assert "refused" not in answer and "illegal" not in answer, answer
            table = b.hub.tables[1]
            assert not isinstance(table, CopyTable) and 1 in b.cluster.runs
            assert table.status == PLAYING and table.seat_of("ben") is not None
            assert table.game is not None and list(table.game.players) == ["anna", "ben", "Cleo"]
            stored = b.store.game(1)
            assert stored is not None and stored.status == PLAYING
            if dealt:  # dealt once, by A: B replays that deal
                assert stored.header == header == table.header
            assert stored.header is not None and stored.header == table.header

    run(scenario(), timeout=60)


def test_an_open_game_whose_seats_are_all_taken_is_dealt_when_it_is_loaded(
    tmp_path: Path,
) -> None:
    """The same on one host (SQLite): the host stopped between seating the last player and
    dealing; the next start deals the game instead of leaving it open with no free seat."""
    from imperial_tui.server.hub import Hub
    from imperial_tui.server.store import open_store

    db = tmp_path / "imperial.db"
    hub = Hub(open_store(db))
    hub.create_game("anna", [("anna", "human"), ("", "open")], RuleSet.preset(), 7, True)
    hub.store.take_seat(1, 1, "ben", "ben")  # ... and the host stopped here
    hub.store.close()

    async def restart() -> None:
        again = Hub(open_store(db))
        again.load()
        table = again.tables[1]
        assert table.status == OPEN and table.free_seats == 0
        again.wake()
        assert table.status == PLAYING and table.game is not None
        assert again.store.game(1).status == PLAYING  # type: ignore[union-attr]
        await again.stop()
        again.store.close()

    run(restart(), timeout=30)


def test_the_notify_command_runs_once_per_turn_on_the_host_that_runs_the_game(
    tmp_path: Path, pg_url: str
) -> None:
    """Anna is connected nowhere, Ben to host B; host A runs the game, then dies and host B
    takes it over. Anna's command runs once per turn, on the host that runs the game at
    the time; Ben, connected, gets no command from any host and is rung on host B once
    per decision of his (never twice for one)."""
    bot = make_bot("greedy", 1)
    rung: list[tuple[str, int]] = []

    def ring(table: Table) -> None:
        game = table.game
        assert game is not None and game.awaiting is not None
        rung.append((game.awaiting.player, len(game.plies)))

    async def a_move(b: Owner) -> None:
        """The human whose decision it is decides, through host B (forwarded while host A
        runs the game); then the computer player has moved."""
        table = b.hub.tables[1]
        await until(lambda: awaiting(b) in ("anna", "ben"), 15, "a human's decision")
        table = b.hub.tables[1]
        assert table.game is not None
        who = awaiting(b)
        answer = await b.answer(None, {  # type: ignore[arg-type]
            "op": "apply", "id": 1, "user": who, "action": str(bot.choose(table.game)),
            "have": len(table.log),
        })  # fmt: skip
        assert "refused" not in answer and "illegal" not in answer, answer

    def awaiting(b: Owner) -> str | None:
        game = b.hub.tables[1].game
        aw = game.awaiting if game is not None else None
        return aw.player if aw else None

    async def scenario() -> None:
        async with hosts(tmp_path, pg_url) as (a, b):
            assert a.cluster is not None and b.cluster is not None
            b.hub.connect(Client("ben", on_turn=ring, on_lobby=lambda: None))
            await a.cluster.start()
            await b.cluster.start()
            made = a.hub.create_game(
                "anna", [("anna", "human"), ("ben", "human"), ("Cleo", "bot:greedy")],
                RuleSet.preset(), 7, True,
            )  # fmt: skip
            a.hub.join("ben", made)  # (the seat kept for him)
            await until(lambda: 1 in b.hub.tables, 10, "host B sees the game")
            for _ in range(8):
                await a_move(b)
            await asyncio.sleep(0.5)  # (the last announcements)
            before = len(rung)
            kill(a)
            await until(lambda: 1 in b.cluster.runs, 15, "host B takes the game over")  # type: ignore[union-attr]
            for _ in range(8):
                await a_move(b)
            await asyncio.sleep(0.5)

            told = [
                (h, n["IMPERIAL_PLAYER"], n["IMPERIAL_ROUND"], n["IMPERIAL_DECISION"])
                for h, owner in (("a", a), ("b", b))
                for n in owner.hub.notifications
            ]
            assert not [t for t in told if t[1] == "ben"], told  # connected: rung, never told
            anna = [t[1:] for t in told]
            assert anna and len(anna) == len(set(anna)), told  # once per turn, on one host
            assert {t[0] for t in told} == {"a", "b"}  # by the host that ran the game
            assert before >= 1 and len(rung) > before, rung  # rung on B, before and after
            assert {who for who, _ in rung} == {"ben"}
            assert len(rung) == len(set(rung)), rung  # once for each decision of his

    run(scenario(), timeout=120)
