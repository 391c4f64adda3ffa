"""``imperial serve --workers N``: the tables in this process, the screens in N others.

What costs a server its CPU is drawing the connections' screens (Textual's layout and
rendering, about 12-18 ms a key), not the games. With one process everything shares one
core; here the owner process keeps every table (it checks, stores and serialises each game's
actions, runs the computer players and the ``--notify`` hook) and worker processes
(``worker.py``) run the SSH connections and their apps, all accepting on one listening
socket. A worker keeps a copy of each table (``mirror.py``) and asks the owner for every
change; the owner answers with the table's new state and tells every worker of each change.
A worker that dies is started again; its players reconnect and land where they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from imperial_tui.server import calls, wire
from imperial_tui.server.hosts import Cluster, CopyTable, copy_of
from imperial_tui.server.hub import Client, Hub
from imperial_tui.server.limits import Peer, Sessions
from imperial_tui.server.mirror import delta
from imperial_tui.server.ssh import ServeConfig, accept_forever, host_key, listen, make_gate
from imperial_tui.server.store import GameRecord, open_store
from imperial_tui.server.store_pg import PostgresStore
from imperial_tui.server.table import Refused, Seat, Table
from imperial_tui.server.wire import Message
from imperial_tui.server.worker import WorkerArgs
from rules import IllegalAction, RuleSet

log = logging.getLogger("imperial.server")

READY_TIMEOUT = 60.0  # seconds a new worker may take to start (plus its games' replay)
RESTART_PAUSE = 1.0  # seconds before a worker that died is started again
MAX_BEHIND = 64 * 1024 * 1024  # bytes of news a worker may leave unread before it is ended
STOP_TIMEOUT = 15.0  # seconds a worker may take to tell its players and end

Answer = Message
Handler = Callable[["Worker | None", Message, "Table | None"], Answer]


@dataclass(eq=False)
class Worker:
    """One worker process as the owner sees it."""

    index: int
    process: asyncio.subprocess.Process
    events: asyncio.StreamWriter
    calls: asyncio.StreamWriter
    handoff: socket.socket | None = None  # accepted connections go to the worker here
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    sent: dict[int, int] = field(default_factory=dict)  # log lines told, per table
    headers: set[int] = field(default_factory=set)  # tables whose header it was told
    clients: dict[int, Client] = field(default_factory=dict)
    conns: set[Peer] = field(default_factory=set)  # handed to it and not yet closed
    task: asyncio.Task[None] | None = None
    failed: bool = False  # ended before it was ready

    def send(self, message: Message) -> None:
        if self.events.is_closing():
            return
        if self.events.transport.get_write_buffer_size() > MAX_BEHIND:
            # a worker that stopped reading (hung): ended, and so started again
            log.error("worker %s stopped reading the games' news; ended", self.index)
            self.events.close()
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            return
        self.events.write(wire.encode(message))


def _who(worker: Worker | None) -> str:
    return f"worker {worker.index}" if worker is not None else "another host's request"


class WorkerError(RuntimeError):
    """A worker process could not start."""


class OwnerHub(Hub):
    """The real hub, which also tells every worker of each change. With several hosts on one
    database (hosts.py), a game another host runs is a copy here."""

    owner: Owner
    cluster: Cluster | None = None

    def table_changed(self, table: Table) -> None:
        super().table_changed(table)
        self.owner.tell(table)

    def connect(self, client: Client) -> None:
        super().connect(client)
        if self.cluster is not None:
            self.cluster.arrived(client.user)

    def disconnect(self, client: Client) -> None:
        if client in self.clients and self.cluster is not None:
            self.cluster.left(client.user)
        super().disconnect(client)

    def ring_elsewhere(self, table: Table, seat: Seat) -> bool:
        cluster = self.cluster
        return cluster is not None and cluster.ring_elsewhere(table, seat)

    def make_table(self, record: GameRecord) -> Table:
        cluster = self.cluster
        if cluster is None or cluster.try_lock(record.id):
            return super().make_table(record)
        copy = copy_of(self, cluster.store, record.id, None)
        return copy if copy is not None else super().make_table(record)


class Owner:
    """Start the workers, answer their calls, tell them of changes, stop them cleanly.
    Has the in-process ``Server``'s ``start``/``stop``/``port``/``hub``."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.store = open_store(config.store_spec)
        self.hub = OwnerHub(self.store, notify=config.notify, default_pace=config.pace)
        self.hub.owner = self
        self.cluster: Cluster | None = None
        if isinstance(self.store, PostgresStore):  # several hosts may share it
            self.cluster = self.hub.cluster = Cluster(self, self.store)
        self.workers: list[Worker] = []
        self.sock: socket.socket | None = None
        self.port = config.port
        self.stopping = False
        # the limits, for every worker's connections: the gate at accept, sessions at login
        self.gate = make_gate(config)
        self.sessions = Sessions(config.max_connections, config.per_user)
        self._poll: asyncio.Task[None] | None = None
        self._accept: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()  # workers being started again
        # the answer to each call of the table in calls.py (a missing handler fails here)
        # (worker None: a call from another host, hosts.py; only the calls marked hosts)
        self.handlers: dict[calls.Op, Handler] = {
            op: getattr(self, f"_on_{op.value}") for op in calls.Op
        }

    # -- start and stop -----------------------------------------------------------------------
    async def start(self) -> int:
        began = time.monotonic()
        self.hub.load()
        # each worker replays every game as this process just did, on a busier machine
        ready_within = READY_TIMEOUT + 3 * (time.monotonic() - began)
        host_key(self.config.data)  # made here once, read by every worker
        sock = listen(self.config)
        self.sock = sock
        self.port = sock.getsockname()[1]
        try:
            for i in range(self.config.workers):
                self.workers.append(await self._spawn(i))
            await asyncio.wait_for(
                asyncio.gather(*(w.ready.wait() for w in self.workers)), ready_within
            )
            if any(w.failed for w in self.workers):
                raise WorkerError("a screen process could not start (its error is above)")
        except TimeoutError:
            await self.stop()
            why = f"a screen process did not start within {ready_within:.0f}s"
            raise WorkerError(why) from None
        except BaseException:
            await self.stop()
            raise
        self.hub.wake()
        if self.cluster is not None:
            await self.cluster.start()
        loop = asyncio.get_running_loop()
        self._poll = loop.create_task(self.hub.pick_up_imports())
        self._accept = loop.create_task(accept_forever(sock, self.gate, self.hand))
        return self.port

    def hand(self, conn: socket.socket, peer: Peer) -> None:
        """Give an accepted connection to the worker with the fewest connections (the
        kernel's choice among processes accepting on one socket is far from even: in bursts
        of 60 logins, 57-61 went to one of two). A worker that cannot take it (hung, or
        being started again) is passed over."""
        ready = [w for w in self.workers if w.ready.is_set() and w.handoff is not None]
        for worker in sorted(ready, key=lambda w: (len(w.conns), w.index)):
            assert worker.handoff is not None
            try:
                socket.send_fds(worker.handoff, [peer.encode()], [conn.fileno()])
            except OSError:
                continue
            worker.conns.add(peer)
            conn.close()  # the worker has its own descriptor now
            return
        raise RuntimeError("no screen process can take a connection")

    async def _spawn(self, index: int) -> Worker:
        assert self.sock is not None
        calls_here, calls_there = socket.socketpair()
        events_here, events_there = socket.socketpair()
        # one message per connection, with its descriptor: a datagram-like pair keeps them apart
        hand_here, hand_there = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        hand_here.setblocking(False)
        c = self.config
        args: WorkerArgs = {
            "index": index,
            "handoff": hand_there.fileno(),
            "calls": calls_there.fileno(),
            "events": events_there.fileno(),
            "data": str(c.data),
            "allow_any": c.allow_any,
            "max_connections": c.max_connections,
            "idle_timeout": c.idle_timeout,
            "pace": c.pace,
            "login_timeout": c.login_timeout,
            "per_user": c.per_user,
            "input": [c.input_rate, c.input_burst, c.input_patience],
            "store": c.store,
            "gc_every": c.gc_every,
            "host": c.host,
        }
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "imperial_tui.server.worker",
                json.dumps(args),
                pass_fds=(hand_there.fileno(), calls_there.fileno(), events_there.fileno()),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.DEVNULL,
                start_new_session=True,  # Ctrl+C reaches the owner, which stops the workers
            )
        except BaseException:
            calls_here.close()
            events_here.close()
            hand_here.close()
            raise
        finally:
            calls_there.close()
            events_there.close()
            hand_there.close()
        reader, calls = await asyncio.open_connection(sock=calls_here)
        _, events = await asyncio.open_connection(sock=events_here)
        worker = Worker(index, process, events, calls, hand_here)
        worker.task = asyncio.get_running_loop().create_task(self._serve(worker, reader))
        log.info("worker %s started (pid %s)", index, process.pid)
        return worker

    async def stop(self) -> None:
        """Each worker tells its players and ends; then the tables and the database close."""
        self.stopping = True
        for task in (self._poll, self._accept):
            if task is not None:
                task.cancel()
        for task in list(self._tasks):  # a worker being started again: its sockets close,
            task.cancel()  # so a process already started ends by itself
        for w in self.workers:
            w.send({"ev": calls.Ev.STOP})
        for w in self.workers:
            try:
                await asyncio.wait_for(w.process.wait(), STOP_TIMEOUT)
            except TimeoutError:
                log.error("worker %s did not stop; ended", w.index)
                with contextlib.suppress(ProcessLookupError):
                    w.process.kill()
                await w.process.wait()
            if w.task is not None:
                w.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await w.task
            w.events.close()
            w.calls.close()
            if w.handoff is not None:
                w.handoff.close()
        self.workers.clear()
        if self.sock is not None:
            self.sock.close()
        if self.cluster is not None:
            await self.cluster.stop()
        await self.hub.stop()
        self.store.close()

    # -- telling the workers ------------------------------------------------------------------
    def tell(self, table: Table) -> None:
        for w in self.workers:
            told = table.id in w.headers
            w.send({"ev": calls.Ev.TABLE, "table": delta(table, w.sent.get(table.id, 0), not told)})
            w.sent[table.id] = len(table.log)
            if table.header is not None:
                w.headers.add(table.id)

    # -- answering a worker -------------------------------------------------------------------
    async def _serve(self, worker: Worker, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                try:
                    message = await wire.read(reader)
                except wire.WireError as exc:
                    log.error("worker %s: %s", worker.index, exc)
                    break
                if message is None:
                    break
                worker.calls.write(wire.encode(await self.answer(worker, message)))
        finally:
            self._lost(worker)

    def _lost(self, worker: Worker) -> None:
        for client in worker.clients.values():
            self.hub.disconnect(client)
        worker.clients.clear()
        self.sessions.drop(worker)
        for peer in worker.conns:  # its connections died with it
            self.gate.closed(peer)
        worker.conns.clear()
        if worker.handoff is not None:
            worker.handoff.close()
            worker.handoff = None
        if self.stopping or worker not in self.workers:
            return
        if not worker.ready.is_set():  # it never worked: starting it again would loop
            worker.failed = True
            worker.ready.set()
            log.error("worker %s ended before it was ready; not started again", worker.index)
            return
        log.error("worker %s ended unexpectedly; starting it again", worker.index)
        task = asyncio.get_running_loop().create_task(self._replace(worker))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _replace(self, worker: Worker) -> None:
        with contextlib.suppress(ProcessLookupError):
            worker.process.kill()
        await worker.process.wait()
        worker.events.close()
        worker.calls.close()
        if self.stopping:
            return
        await asyncio.sleep(RESTART_PAUSE)  # a worker that keeps dying does not spin
        try:
            new = await self._spawn(worker.index)
        except Exception:
            log.exception("worker %s could not be started again", worker.index)
            return
        if self.stopping or worker not in self.workers:
            new.send({"ev": calls.Ev.STOP})
            await new.process.wait()
            return
        self.workers[self.workers.index(worker)] = new

    async def answer(self, worker: Worker, message: Message) -> Answer:
        """A worker's call answered: here, or by the host that runs its game (hosts.py)."""
        cluster = self.cluster
        if cluster is not None:
            try:
                op, call = calls.check(message)
            except wire.WireError:
                return self._answer(worker, message)  # (refused there, with the reason)
            table = self.hub.tables.get(message["id"]) if call.game else None
            if call.hosts and isinstance(table, CopyTable):
                answer = await cluster.forward(table, op, message)
                current = self.hub.tables.get(table.id)
                if current is not None:
                    answer["tables"] = [delta(current, int(message.get("have") or 0))]
                return answer
        return self._answer(worker, message)

    def _answer(self, worker: Worker | None, message: Message) -> Answer:
        table: Table | None = None
        try:
            op, call = calls.check(message)
            if call.game:
                table = self.hub.tables.get(message["id"])
                if table is None:
                    raise Refused(f"game {message['id']} is not on this server")
            answer = self.handlers[op](worker, message, table)
        except wire.WireError as exc:
            log.error("%s: %s", _who(worker), exc)
            answer = {"refused": f"the server could not read that ({exc}); nothing changed"}
        except Refused as exc:
            answer = {"refused": exc.reason}
        except IllegalAction as exc:
            answer = {"illegal": exc.reason, "rule": exc.rule}
        except Exception as exc:  # one bad call must not end the owner
            log.exception("%s: call %s failed", _who(worker), message.get("op"))
            answer = {"refused": f"the server failed ({type(exc).__name__}); nothing changed"}
        if table is not None and "tables" not in answer:
            answer["tables"] = [delta(table, int(message.get("have") or 0))]
        return answer

    # -- the calls (calls.CALLS): one handler each, named after its Op ------------------------
    # (each gets the worker, the checked message and, for a call that names a game, its table)
    def _on_hello(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        return {"ids": list(self.hub.tables)}  # then one "table" call each

    def _on_ready(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert worker is not None  # (a worker's call, never another host's)
        worker.ready.set()
        return {}

    def _on_admit(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        why = self.sessions.admit(str(m["user"]), worker)
        return {"ok": why is None, "why": why}

    def _on_release(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        self.sessions.release(str(m["user"]), worker)
        return {}

    def _on_logged_in(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert worker is not None  # (a worker's call, never another host's)
        if m["peer"] in worker.conns:
            self.gate.logged_in(m["peer"])
        return {}

    def _on_closed(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert worker is not None  # (a worker's call, never another host's)
        if m["peer"] in worker.conns:
            worker.conns.discard(m["peer"])
            self.gate.closed(m["peer"])
        return {}

    def _on_connect(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert worker is not None  # (a worker's call, never another host's)
        cid = int(m["client"])

        def ring(t: Table, cid: int = cid) -> None:
            worker.send({"ev": calls.Ev.TURN, "client": cid, "id": t.id})

        client = Client(str(m["user"]), on_turn=ring, on_lobby=lambda: None)
        worker.clients[cid] = client
        self.hub.connect(client)
        return {}

    def _on_disconnect(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert worker is not None  # (a worker's call, never another host's)
        gone = worker.clients.pop(int(m["client"]), None)
        if gone is not None:
            self.hub.disconnect(gone)
        return {}

    def _on_create(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        r = m["rules"]
        rules = RuleSet.from_dict(
            r["edition"], r["variant"], dict(r.get("options", {})), str(r.get("game", "imperial"))
        )
        seats = [(str(name), str(kind)) for name, kind in m["seats"]]
        new = self.hub.create_game(
            str(m["creator"]), seats, rules, m.get("seed"), bool(m["hidden_cash"]), m.get("title")
        )
        return {"id": new.id, "tables": [delta(new, 0)]}

    def _on_table(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert worker is not None  # (a worker's call, never another host's)
        assert table is not None
        if not int(m.get("have") or 0):  # the whole table: later news follows from here
            worker.sent[table.id] = len(table.log)
            if table.header is not None:
                worker.headers.add(table.id)
        return {}

    def _on_join(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert table is not None
        self.hub.join(str(m["user"]), table)
        return {}

    def _on_apply(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert table is not None
        expect = m.get("expect")
        if m.get("moves") is not None:  # another host's: its copy had this many moves
            expect = table.game_version if m["moves"] == table.moves() else -1
        table.apply(str(m["user"]), str(m["action"]), None if expect is None else int(expect))
        return {}

    def _on_undo(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert table is not None
        return {"steps": table.undo(str(m["user"]))}

    def _on_say(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert table is not None
        table.say(str(m["user"]), str(m["text"]))
        return {}

    def _on_pace(self, worker: Worker | None, m: Message, table: Table | None) -> Answer:
        assert table is not None
        table.set_pace(float(m["pace"]))
        table.seats_changed()  # every screen shows the new pace
        return {}
