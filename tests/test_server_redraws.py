"""Other players' moves are redrawn behind the players' own keys (imperial_tui/server/
redraws.py): one screen at a time, none started while a key is being answered, a screen in
line once (a burst of moves is drawn as the table's latest state), and nothing lost.

The line itself with stand-in screens (no Textual), then the server's own apps on fake
links in one process (no SSH): what a watcher's screen ends with, and a key answered while
another game's screens wait."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from imperial_tui.server.app import ServerApp
from imperial_tui.server.hub import Hub
from imperial_tui.server.redraws import Redraws
from imperial_tui.server.store import SQLiteStore
from imperial_tui.server.table import Table
from rules import RuleSet
from tests.server_helpers import run, until


class Screen:
    """A stand-in for a connection's app: records what it drew and when."""

    def __init__(self, name: str, log: list[tuple[str, object]], state: list[int]) -> None:
        self.name = name
        self.log = log
        self.state = state  # the "table": its latest state is state[0]
        self.draws: list[int] = []
        self.pending: asyncio.Future[None] | None = None

    def redraw_table(self) -> asyncio.Future[None]:
        self.draws.append(self.state[0])
        self.log.append(("start", self.name))
        self.pending = asyncio.get_running_loop().create_future()
        return self.pending

    def finish(self) -> None:
        assert self.pending is not None
        self.log.append(("drawn", self.name))
        self.pending.set_result(None)


async def _ticks(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_burst_of_changes_is_drawn_once_as_the_latest_state() -> None:
    async def go() -> None:
        log: list[tuple[str, object]] = []
        state = [0]
        redraws = Redraws(spacing=0)
        a, b = Screen("a", log, state), Screen("b", log, state)
        redraws.want(a)
        redraws.want(b)
        await _ticks()
        assert a.draws == [0] and b.draws == []  # one at a time: b waits for a's frame
        for move in range(1, 6):  # five moves while a is being drawn
            state[0] = move
            redraws.want(a)
            redraws.want(b)
        a.finish()
        await _ticks()
        assert b.draws == [5]  # b's one redraw shows the latest state
        b.finish()
        await _ticks()
        assert a.draws == [0, 5]  # a again, once, with the latest state
        a.finish()
        await until(lambda: redraws.idle, 2, "the line to empty")
        # a: put in line again by the first move (being drawn), merged four times; b: merged five
        assert redraws.redrawn == 3 and redraws.merged == 9

    run(go())


def test_no_redraw_starts_while_a_key_is_answered() -> None:
    async def go() -> None:
        log: list[tuple[str, object]] = []
        redraws = Redraws(key_hold=5, max_hold=5)
        a = Screen("a", log, [0])
        redraws.key_started("player")
        redraws.want(a)
        await asyncio.sleep(0.05)
        assert a.draws == []  # held behind the key
        redraws.key_done("player")
        await _ticks()
        assert a.draws == [0]

    run(go())


def test_a_key_that_is_never_answered_holds_the_line_only_briefly() -> None:
    async def go() -> None:
        redraws = Redraws(key_hold=0.05, max_hold=5)
        a = Screen("a", [], [0])
        redraws.key_started("player")  # a key that draws nothing and is never reported done
        redraws.want(a)
        await until(lambda: a.draws == [0], 2, "the redraw after the key's hold")

    run(go())


def test_a_stream_of_keys_does_not_starve_the_watchers() -> None:
    async def go() -> None:
        redraws = Redraws(key_hold=5, max_hold=0.1)
        a = Screen("a", [], [0])
        redraws.want(a)
        end = time.monotonic() + 0.5
        started = time.monotonic()
        while time.monotonic() < end and not a.draws:
            redraws.key_started(object())  # a new key every tick, never answered
            await asyncio.sleep(0.01)
        assert a.draws == [0]
        assert time.monotonic() - started < 0.4

    run(go())


def test_a_screen_is_redrawn_for_moves_at_most_every_spacing() -> None:
    async def go() -> None:
        redraws = Redraws(spacing=0.2)
        state = [0]
        a = Screen("a", [], state)
        redraws.want(a)
        await _ticks()
        a.finish()
        state[0] = 1
        redraws.want(a)
        await asyncio.sleep(0.05)
        assert a.draws == [0]  # too soon
        await until(lambda: a.draws == [0, 1], 2, "the second redraw")

    run(go())


def test_a_connection_that_ends_leaves_the_line() -> None:
    async def go() -> None:
        redraws = Redraws(key_hold=5, max_hold=5)
        a = Screen("a", [], [0])
        redraws.key_started("someone")
        redraws.want(a)
        redraws.forget(a)
        redraws.key_done("someone")
        await until(lambda: redraws.idle, 2, "the line to empty")
        assert a.draws == []

    run(go())


# -- the server's apps, in one process --------------------------------------------------------


class FakeLink:
    """A connection for the SSH driver: input from a queue, output recorded in one list
    shared by every link (who was sent a frame, in order)."""

    def __init__(self, user: str, sent: list[tuple[str, str]]) -> None:
        self.user = user
        self.size = (80, 24)
        self.ended: str | None = None
        self.inbox: asyncio.Queue[bytes | tuple[int, int] | None] = asyncio.Queue()
        self.sent = sent

    def send(self, text: str) -> None:
        self.sent.append((self.user, text))

    async def receive(self) -> bytes | tuple[int, int] | None:
        return await self.inbox.get()


ENV = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8"}


class Apps:
    """Apps of one hub on fake links, each opened on a table (a player or a spectator)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.sent: list[tuple[str, str]] = []
        self.links: dict[str, FakeLink] = {}
        self.apps: dict[str, ServerApp] = {}
        self.tasks: list[asyncio.Task[object]] = []

    async def open(self, user: str, table: Table) -> ServerApp:
        link = FakeLink(user, self.sent)
        app = ServerApp(self.hub, user, link, ENV)  # type: ignore[arg-type]
        self.links[user], self.apps[user] = link, app
        self.tasks.append(asyncio.create_task(app.run_async(size=(80, 24))))
        await until(lambda: app.is_running and bool(app.screen_stack), 20, f"{user}'s app")
        await asyncio.sleep(0.2)
        app.call_later(app.open_table, table)
        await until(lambda: app.session is not None, 20, f"{user} at the table")
        return app

    async def settle(self) -> None:
        """Until no app has messages waiting and no screen waits for its redraw."""
        quiet = 0
        end = time.monotonic() + 30
        while quiet < 5 and time.monotonic() < end:
            await asyncio.sleep(0.02)
            busy = not self.hub.redraws.idle or any(
                a._message_queue.qsize() or a.screen._message_queue.qsize()
                for a in self.apps.values()
            )
            quiet = 0 if busy else quiet + 1

    async def close(self) -> None:
        for link in self.links.values():
            link.inbox.put_nowait(None)
        await asyncio.wait(self.tasks, timeout=20)
        await self.hub.stop()
        self.hub.store.close()


def _game(hub: Hub, title: str, prefix: str) -> Table:
    names = [f"{prefix}{i}" for i in range(4)]
    table = hub.create_game(
        names[0], [(n, "human") for n in names], RuleSet.preset(), 1, True, title=title
    )
    for name in names[1:]:
        hub.join(name, table)  # (the seats kept for them)
    return table


def _move(table: Table) -> None:
    """The player whose decision it is plays the first option (from another connection)."""
    aw = table.game.awaiting
    assert aw is not None
    user = next(s.user for s in table.seats if s.name == aw.player)
    table.apply(user, table.game.legal_actions()[0], expect=table.game_version)


def test_a_burst_of_moves_reaches_a_watchers_screen_as_its_final_state(tmp_path: Path) -> None:
    async def go() -> None:
        hub = Hub(SQLiteStore(tmp_path / "imperial.db"), default_pace=0.0)
        apps = Apps(hub)
        try:
            table = _game(hub, "burst", "p")
            watcher = await apps.open("watcher", table)
            player = await apps.open("p1", table)  # a seat whose hidden cash is its own
            await apps.settle()
            drawn = hub.redraws.redrawn
            for _ in range(8):  # eight moves at once, as a computer player's burst
                _move(table)
            await apps.settle()
            for app in (watcher, player):
                session = app.session
                assert session is not None
                assert session.version == table.version  # the latest state, nothing missed
                screen = app.game_screen()
                assert screen is not None
                tail = screen.query_one("#logtail").content
                assert tail.plain == screen.tail_line().plain  # the screen shows it
                assert screen.query_one("#status").content.plain == screen.status_line().plain
            # the burst was drawn in fewer redraws than moves (the latest state won)
            assert hub.redraws.redrawn - drawn < 2 * 8
            assert hub.redraws.merged > 0
            # hidden cash stays hidden: the watcher's view still hides every player's cash
            view = watcher.session.view  # type: ignore[union-attr]
            assert not any(view.shows_cash_of(s.name) for s in table.seats)
        finally:
            await apps.close()

    run(go(), timeout=120)


def test_a_key_is_answered_before_another_games_screens_are_redrawn(tmp_path: Path) -> None:
    async def go() -> None:
        hub = Hub(SQLiteStore(tmp_path / "imperial.db"), default_pace=0.0)
        apps = Apps(hub)
        try:
            # a key holds the line until it is answered, however slow the machine (the
            # time limits are not what this test is about)
            hub.redraws = Redraws(key_hold=30, max_hold=30)
            mine = _game(hub, "mine", "a")
            busy = _game(hub, "busy", "b")
            player = await apps.open("a0", mine)
            watchers = [f"w{i}" for i in range(6)]
            for name in watchers:
                await apps.open(name, busy)
            await apps.settle()
            apps.sent.clear()
            _move(busy)  # six screens of the other game to redraw
            apps.links["a0"].inbox.put_nowait(b"2")  # and a0 switches to the bonds panel
            await apps.settle()
            order = [user for user, text in apps.sent if text]
            assert "a0" in order, "the key was answered"
            before = order[: order.index("a0")]
            # at most the one redraw in progress when the key came is drawn before it
            assert len(set(before) & set(watchers)) <= 1, order
            assert set(watchers) <= set(order), "every watcher was redrawn after it"
            assert player.game_screen().panel == "bonds"  # type: ignore[union-attr]
            for name in watchers:
                assert apps.apps[name].session.version == busy.version  # type: ignore[union-attr]
        finally:
            await apps.close()

    run(go(), timeout=120)
