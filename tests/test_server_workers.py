"""``imperial serve --workers N``: the tables live in the owner process, the screens in worker
processes that keep copies of the tables. A copy must be the table, whether it follows by its
own calls' answers or by the owner's messages; a worker that dies is replaced and its
players come back to an intact game."""

from __future__ import annotations

import os
import signal
from pathlib import Path
from typing import Any

import pytest

from imperial_tui.server.mirror import MirrorHub, delta
from imperial_tui.server.owner import Owner
from imperial_tui.server.ssh import ServeConfig
from imperial_tui.server.store import SQLiteStore
from imperial_tui.server.table import Refused
from rules import RuleSet
from rules.bots import make_bot
from tests.server_helpers import connect, decider, new_key, run, serving, until


class StubWorker:
    """What the owner keeps of a worker, without a process: the messages it was sent."""

    def __init__(self) -> None:
        self.index = 0
        self.sent: dict[int, int] = {}
        self.headers: set[int] = set()
        self.clients: dict[int, Any] = {}
        self.sessions = 0
        self.messages: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


class Direct:
    """A worker's caller that reaches the owner's answers without a socket."""

    def __init__(self, owner: Owner, worker: StubWorker) -> None:
        self.owner, self.worker = owner, worker

    def call(self, op: str, **args: Any) -> dict[str, Any]:
        return self.owner._answer(self.worker, {"op": op, **args})  # type: ignore[arg-type]


def history(table: Any) -> list[str]:
    return [str(a) for a in table.game.history]


def test_a_workers_copy_is_the_table_through_seats_moves_undo_and_chat(tmp_path: Path) -> None:
    owner = Owner(ServeConfig(data=tmp_path, workers=1))
    stub = StubWorker()
    owner.workers.append(stub)  # type: ignore[arg-type]
    mirror = MirrorHub(SQLiteStore(tmp_path / "imperial.db"), Direct(owner, stub))  # type: ignore[arg-type]
    mirror.load()

    copy = mirror.create_game(
        "anna", [("anna", "human"), ("", "open")], RuleSet.preset(), 7, hidden_cash=True
    )
    real = owner.hub.tables[copy.id]
    assert copy.status == real.status == "open" and copy.game is None
    copy.say("anna", "waiting for ben")  # a line said before the game starts is kept once
    mirror.join("ben", copy)
    assert copy.game is not None and copy.game.players == real.game.players == ("anna", "ben")

    bot = make_bot("greedy", 1)
    for _ in range(12):
        aw = copy.game.awaiting
        copy.apply(aw.player, bot.choose(copy.game), expect=copy.game_version)
    assert history(copy) == history(real) and len(history(copy)) == 12
    assert copy.game.state == real.game.state

    # a refusal reads as in one process, and changes nothing
    aw = copy.game.awaiting
    other = "ben" if aw.player == "anna" else "anna"
    with pytest.raises(Refused, match="decision, not yours"):
        copy.apply(other, copy.game.legal_actions()[0])
    with pytest.raises(Refused, match="moved on"):
        copy.apply(aw.player, copy.game.legal_actions()[0], expect=copy.game_version - 1)
    assert history(copy) == history(real) and len(history(real)) == 12

    last = copy.game.plies[-1]
    mover = last.before.players[last.before.awaiting_player]
    assert copy.undo(mover) == 1
    copy.say("anna", "well played")
    copy.say("anna", "\x1b[2J" + "x" * 1_000_000)  # cleaned and cut before it is sent
    assert real.chat[-1] == (11, "anna: [2J" + "x" * 197) and copy.chat == real.chat
    assert history(copy) == history(real) and len(history(real)) == 11
    assert copy.chat[:2] == [(0, "anna: waiting for ben"), (11, "anna: well played")]
    assert "anna: well played" in [e.text for e in copy.view_for("ben").events()]
    seen = copy.view_for("ben")  # each viewer's copy, as before: anna's cash is secret
    assert not seen.shows_cash_of("anna") and seen.shows_cash_of("ben")

    # another worker's copy follows by the owner's messages alone, and old news changes nothing
    other_worker = MirrorHub(SQLiteStore(tmp_path / "imperial.db"), Direct(owner, StubWorker()))  # type: ignore[arg-type]
    for message in stub.messages:
        if message["ev"] == "table":
            other_worker.take(message["table"])
    follower = other_worker.tables[copy.id]
    assert history(follower) == history(real) and follower.chat == real.chat
    assert follower.version == real.version and follower.game_version == real.game_version
    old = next(m["table"] for m in stub.messages if m["ev"] == "table")
    assert follower.take(old) is False
    assert history(follower) == history(real)
    # a copy that starts late takes the whole log at once
    late = MirrorHub(SQLiteStore(tmp_path / "imperial.db"), Direct(owner, StubWorker()))  # type: ignore[arg-type]
    late.take(delta(real, 0))
    assert history(late.tables[copy.id]) == history(real)


def test_a_worker_that_dies_is_replaced_and_its_player_returns_to_the_game(tmp_path: Path) -> None:
    keys = {"anna": new_key(), "ben": new_key()}

    async def scenario() -> None:
        async with serving(tmp_path, workers=2) as server:
            anna = await connect(server, "anna", keys["anna"])
            await anna.wait_for("you are anna", 20)
            await anna.press("n")
            await anna.wait_for("New game of Imperial")
            await anna.press("ctrl+g")
            await anna.wait_for(r"#1 .*waiting for 1 more player")
            ben = await connect(server, "ben", keys["ben"])
            await ben.wait_for(r"#1 .*waiting for 1 more player")
            await ben.press("down", "enter")
            await ben.wait_for("Take a seat in #1")
            await ben.press("y")
            await ben.wait_for(r"Imperial .*round 1")
            table = server.hub.tables[1]

            # the process that draws anna's screen dies
            (home,) = [
                w for w in server.workers if any(c.user == "anna" for c in w.clients.values())
            ]
            pid = home.process.pid
            os.kill(pid, signal.SIGKILL)
            await anna.closed.wait()
            # its connections no longer count: not as connected (a bell, not --notify), nor
            # against the connection limit
            await until(lambda: not server.hub.connected("anna"), 10, "anna disconnected")
            assert server.sessions.count <= 1
            await until(
                lambda: (
                    all(w.process.pid != pid for w in server.workers)
                    and all(w.ready.is_set() for w in server.workers)
                ),
                30,
                "a new worker",
            )
            # the game goes on; anna (and ben, if he was drawn there too) come back to it
            await until(lambda: decider(table) in ("anna", "ben"), 10, "a human's decision")
            terms = {"anna": anna, "ben": ben}
            for name, term in terms.items():
                if term.closed.is_set():
                    term = terms[name] = await connect(server, name, keys[name])
                    # (the lobby's title may come a frame after its list: wait for both
                    # before deciding whether this is the lobby)
                    await term.wait_for(rf"(?s)you are {name}.*#1 +anna|Imperial .*round", 20)
                if "server lobby - you are" in term.text:
                    await term.press("down", "enter")
                await term.wait_for(r"Imperial .*round", 20)
            versions = table.game_version
            term = terms[decider(table)]
            for _ in range(4):
                await term.press("enter")
                try:
                    await until(lambda: table.game_version != versions, 2)
                    break
                except AssertionError:
                    continue
            assert table.game_version != versions, term.text
            for t in terms.values():
                await t.close()

    run(scenario(), timeout=90)


def test_a_damaged_game_is_damaged_in_every_copy(tmp_path: Path) -> None:
    """A log the owner cannot replay (edited by hand): the copies say so too, and do not try
    to show a game."""
    from imperial_tui.server.hub import Hub
    from imperial_tui.server.store import LogEntry, now

    hub = Hub(SQLiteStore(tmp_path / "imperial.db"))
    table = hub.create_game(
        "anna", [("anna", "human"), ("ben", "human")], RuleSet.preset(), 7, hidden_cash=False
    )
    hub.join("ben", table)  # (the seat kept for him)
    hub.store.append(table.id, LogEntry("action", "GE rondel nowhere", "anna", "anna", now(), 1))
    hub.store.close()

    owner = Owner(ServeConfig(data=tmp_path, workers=1))
    owner.hub.load()
    real = owner.hub.tables[table.id]
    assert real.damaged
    copy = MirrorHub(SQLiteStore(tmp_path / "imperial.db"), Direct(owner, StubWorker()))  # type: ignore[arg-type]
    copy.load()
    mirrored = copy.tables[table.id]
    assert mirrored.damaged == real.damaged and mirrored.game is None
    row = copy.row(mirrored, "anna")
    assert row.status == "damaged"


def test_a_worker_gives_up_on_an_owner_that_does_not_answer() -> None:
    """A call without an answer ends in WireError after the timeout (the worker then ends and
    tells its players), never a screen frozen for good; a message too large to send is
    refused without giving up on the owner."""
    import socket

    from imperial_tui.server.wire import MAX_MESSAGE, Caller, WireError

    ours, theirs = socket.socketpair()
    caller = Caller(ours, timeout=0.2)
    with pytest.raises(WireError, match="too large"):
        caller.call("say", text="x" * (MAX_MESSAGE + 1))
    assert not caller.broken
    with pytest.raises(WireError):
        caller.call("hello")
    assert caller.broken
    theirs.close()
    caller.close()


def test_a_worker_that_stops_reading_the_news_is_ended() -> None:
    """The owner never lets a hung worker's unread news pile up: past MAX_BEHIND it ends the
    worker (which is then started again, as after any death)."""
    from types import SimpleNamespace

    from imperial_tui.server.owner import MAX_BEHIND, Worker

    killed: list[bool] = []
    closed: list[bool] = []
    written: list[bytes] = []
    backlog = [0]
    events = SimpleNamespace(
        is_closing=lambda: bool(closed),
        transport=SimpleNamespace(get_write_buffer_size=lambda: backlog[0]),
        write=written.append,
        close=lambda: closed.append(True),
    )
    process = SimpleNamespace(kill=lambda: killed.append(True))
    worker = Worker(0, process, events, events)  # type: ignore[arg-type]
    worker.send({"ev": "table"})
    assert len(written) == 1 and not killed
    backlog[0] = MAX_BEHIND + 1
    worker.send({"ev": "table"})
    assert killed and closed and len(written) == 1
    worker.send({"ev": "table"})  # closed: nothing more is written
    assert len(written) == 1
