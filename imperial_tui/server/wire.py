"""Messages between the server's processes: a 4-byte length, then UTF-8 JSON.

Two socket pairs join the owner process (the tables) and each worker process (the
connections' screens): calls, which a worker makes and waits for (a move, a join), and events,
which the owner pushes (a table changed, a player's turn began). Only the server's own
processes are at either end; a message that cannot be read is still a clear error, never a
crash of the other side.
"""

from __future__ import annotations

import asyncio
import json
import socket
import struct
from typing import Any

HEADER = struct.Struct("!I")
MAX_MESSAGE = 64 * 1024 * 1024  # a whole game's log fits many times over
CALL_TIMEOUT = 30.0  # seconds a worker waits for the owner before it gives up on it


# A message: one JSON object. Its values are the sender's: a receiver reads them only after
# checking them (the owner checks each call against ``calls.CALLS``).
Message = dict[str, Any]


class WireError(Exception):
    """The other process went away or sent something unreadable."""


def encode(message: Message) -> bytes:
    body = json.dumps(message, separators=(",", ":")).encode("utf-8")
    return HEADER.pack(len(body)) + body


def decode(body: bytes) -> Message:
    try:
        message = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise WireError(f"an unreadable message: {exc}") from None
    if not isinstance(message, dict):
        raise WireError("a message that is not an object")
    return message


def _length(head: bytes) -> int:
    n: int = HEADER.unpack(head)[0]
    if n > MAX_MESSAGE:
        raise WireError(f"a message of {n} bytes")
    return n


async def read(reader: asyncio.StreamReader) -> Message | None:
    """The next message, or None when the other side closed."""
    try:
        head = await reader.readexactly(HEADER.size)
        body = await reader.readexactly(_length(head))
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    return decode(body)


class Caller:
    """A worker's side of the calls: blocking, one at a time. The owner answers from its
    event loop within a moment (nothing it does for a call waits), so a worker's screen waits
    about as long as an in-process table would take."""

    def __init__(self, sock: socket.socket, timeout: float = CALL_TIMEOUT) -> None:
        sock.settimeout(timeout)  # an owner that does not answer is as good as gone
        self.sock = sock
        self.broken = False

    def call(self, op: str, **args: object) -> Message:
        """The owner's answer. WireError if it cannot be had: ``broken`` is then set, unless
        the message was too large to send (the call is refused, the link is fine)."""
        if self.broken:
            raise WireError("the server's game process is gone")
        message = encode({"op": op, **args})
        if len(message) > MAX_MESSAGE:
            raise WireError(f"a message of {len(message)} bytes is too large to send")
        try:
            self.sock.sendall(message)
            head = self._exactly(HEADER.size)
            return decode(self._exactly(_length(head)))
        except (OSError, WireError) as exc:
            self.broken = True
            raise WireError(f"the server's game process is gone ({exc})") from None

    def _exactly(self, n: int) -> bytes:
        parts = []
        while n:
            chunk = self.sock.recv(min(n, 1 << 20))
            if not chunk:
                raise WireError("closed")
            parts.append(chunk)
            n -= len(chunk)
        return b"".join(parts)

    def close(self) -> None:
        self.sock.close()
