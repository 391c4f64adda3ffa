"""A worker process of ``imperial serve --workers N`` (started by owner.py, never by hand):
SSH connections and their apps, on the owner's listening socket, with copies of the tables.

Run as ``python -m imperial_tui.server.worker ARGS`` where ARGS is the owner's JSON: the
inherited descriptors (listening socket, calls, events) and the server's settings.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import socket
import sys
from pathlib import Path
from typing import Any

from imperial_tui.server import wire
from imperial_tui.server.calls import Ev, Op
from imperial_tui.server.mirror import MirrorHub
from imperial_tui.server.ssh import ServeConfig, Server
from imperial_tui.server.store import Store

log = logging.getLogger("imperial.server")


async def serve(args: dict[str, Any]) -> None:
    config = ServeConfig(
        data=Path(args["data"]),
        host=str(args["host"]),
        allow_any=bool(args["allow_any"]),
        max_connections=int(args["max_connections"]),
        idle_timeout=float(args["idle_timeout"]),
        pace=float(args["pace"]),
        login_timeout=float(args["login_timeout"]),
        per_user=int(args["per_user"]),
        input_rate=float(args["input"][0]),
        input_burst=float(args["input"][1]),
        input_patience=float(args["input"][2]),
        store=args["store"],
        gc_every=float(args["gc_every"]),
    )
    caller = wire.Caller(socket.socket(fileno=int(args["calls"])))

    def hub(store: Store) -> MirrorHub:
        return MirrorHub(store, caller, default_pace=config.pace)

    server = Server(config, hub=hub, handed=True)
    mirror = server.hub
    assert isinstance(mirror, MirrorHub)
    gone = asyncio.Event()
    mirror.on_broken = gone.set
    # the owner counts the connections it handed here (limits.py)
    server.on_logged_in = lambda peer: mirror.tell(Op.LOGGED_IN, peer=peer)
    server.on_closed = lambda peer: mirror.tell(Op.CLOSED, peer=peer)
    await server.start()
    handoff = socket.socket(fileno=int(args["handoff"]))
    handoff.setblocking(False)
    loop = asyncio.get_running_loop()
    loop.add_reader(handoff.fileno(), _take_connections, handoff, server)
    reader, _ = await asyncio.open_connection(sock=socket.socket(fileno=int(args["events"])))
    caller.call(Op.READY)
    follow = loop.create_task(_follow(mirror, reader))
    watch = loop.create_task(gone.wait())
    try:
        # until the owner says stop or goes away (its events end, or a call finds it gone)
        await asyncio.wait([follow, watch], return_when=asyncio.FIRST_COMPLETED)
    finally:
        loop.remove_reader(handoff.fileno())
        handoff.close()
        follow.cancel()
        watch.cancel()
        await server.stop()
        caller.close()


def _take_connections(handoff: socket.socket, server: Server) -> None:
    """Connections the owner accepted and handed here, one message each with its descriptor."""
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(handoff, 1024, 4)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as exc:
            log.error("the owner's connections cannot be read: %s", exc)
            return
        if not data and not fds:
            return  # the owner closed its end (it is stopping or gone)
        for fd in fds:
            server.serve_connection(socket.socket(fileno=fd), data.decode(errors="replace"))


async def _follow(mirror: MirrorHub, reader: asyncio.StreamReader) -> None:
    """The owner's news, in order, until it says stop or closes."""
    while True:
        try:
            message = await wire.read(reader)
        except wire.WireError as exc:
            log.error("%s", exc)
            return
        if message is None or message.get("ev") == Ev.STOP:
            return
        try:
            if message["ev"] == Ev.TABLE:
                mirror.take(message["table"])
            elif message["ev"] == Ev.TURN:
                mirror.turn(int(message["client"]), int(message["id"]))
        except Exception:  # one bad message must not end every connection here
            log.exception("a message from the owner could not be taken")


def main() -> None:
    args = json.loads(sys.argv[1])
    # the owner decides when workers stop (a service manager's SIGTERM reaches every process
    # of the service; the owner then tells the workers, and they their players)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    logging.basicConfig(
        stream=sys.__stderr__,
        level=logging.INFO,
        format=f"%(asctime)s [worker {args['index']}] %(message)s",
    )
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    asyncio.run(serve(args))


if __name__ == "__main__":
    main()
