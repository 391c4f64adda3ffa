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
        gc_every=float(args["gc_every"]),
    )
    caller = wire.Caller(socket.socket(fileno=int(args["calls"])))

    def hub(store: Store) -> MirrorHub:
        return MirrorHub(store, caller, default_pace=config.pace)

    server = Server(config, hub=hub, sock=socket.socket(fileno=int(args["listen"])))
    mirror = server.hub
    assert isinstance(mirror, MirrorHub)
    gone = asyncio.Event()
    mirror.on_broken = gone.set
    await server.start()
    reader, _ = await asyncio.open_connection(sock=socket.socket(fileno=int(args["events"])))
    caller.call("ready")
    loop = asyncio.get_running_loop()
    follow = loop.create_task(_follow(mirror, reader))
    watch = loop.create_task(gone.wait())
    try:
        # until the owner says stop or goes away (its events end, or a call finds it gone)
        await asyncio.wait([follow, watch], return_when=asyncio.FIRST_COMPLETED)
    finally:
        follow.cancel()
        watch.cancel()
        await server.stop()
        caller.close()


async def _follow(mirror: MirrorHub, reader: asyncio.StreamReader) -> None:
    """The owner's news, in order, until it says stop or closes."""
    while True:
        try:
            message = await wire.read(reader)
        except wire.WireError as exc:
            log.error("%s", exc)
            return
        if message is None or message.get("ev") == "stop":
            return
        try:
            if message["ev"] == "table":
                mirror.take(message["table"])
            elif message["ev"] == "turn":
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
