"""A real ``imperial serve`` on 127.0.0.1 (an ephemeral port) and asyncssh clients with a PTY
whose output is fed to pyte, for the server tests. Each test runs its own event loop."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import pyte

from imperial_tui.server.owner import Owner
from imperial_tui.server.ssh import ServeConfig, Server
from imperial_tui.server.table import Table

T = TypeVar("T")

KEYS = {
    "enter": b"\r",
    "down": b"\x1b[B",
    "up": b"\x1b[A",
    "tab": b"\t",
    "escape": b"\x1b",
    "ctrl+g": b"\x07",
    "ctrl+q": b"\x11",
    "ctrl+z": b"\x1a",
    "space": b" ",
}


def run(coro: Awaitable[T], timeout: float = 60) -> T:
    """Run one test's coroutine in a fresh loop, with a hard time limit."""
    return asyncio.run(asyncio.wait_for(coro, timeout))  # type: ignore[arg-type]


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@asynccontextmanager
async def serving(data: Path, **options: Any):  # type: ignore[no-untyped-def]
    """A started server (pace 0: computer players move at once); stopped at the end."""
    options.setdefault("pace", 0.0)
    config = ServeConfig(data=data, host="127.0.0.1", port=0, **options)
    server = Owner(config) if config.workers else Server(config)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


class Terminal:
    """One player's SSH session: a PTY, the bytes received, and a pyte screen of them."""

    def __init__(self, conn: asyncssh.SSHClientConnection, process: Any, size: tuple[int, int]):
        self.conn = conn
        self.process = process
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.snapshots: list[str] = []
        self.closed = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    break
                self.raw.extend(data)
                self.stream.feed(data)
                self.snapshots.append(self.text)
        except (asyncssh.Error, OSError):
            pass
        finally:
            self.closed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def saw(self, pattern: str) -> bool:
        """Whether any screen so far showed ``pattern`` (a regular expression)."""
        rx = re.compile(pattern)
        return any(rx.search(s) for s in self.snapshots)

    async def wait_for(self, pattern: str, timeout: float = 10.0) -> str:
        rx = re.compile(pattern)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if rx.search(self.text):
                return self.text
            if self.closed.is_set():
                break
            await asyncio.sleep(0.02)
        raise AssertionError(f"{pattern!r} not on screen within {timeout}s:\n{self.text}")

    async def press(self, *keys: str, pause: float = 0.05) -> None:
        for key in keys:
            self.process.stdin.write(KEYS.get(key, key.encode()))
            await asyncio.sleep(pause)

    def resize(self, width: int, height: int) -> None:
        self.screen.resize(height, width)
        self.process.change_terminal_size(width, height)

    async def close(self) -> None:
        self.conn.close()
        with suppress(Exception):
            await asyncio.wait_for(self.conn.wait_closed(), 5)
        self._reader.cancel()


async def connect(
    server: Server | Owner,
    user: str,
    key: asyncssh.SSHKey | None,
    size: tuple[int, int] = (80, 24),
    term: str | None = "xterm-256color",
    env: dict[str, str] | None = None,
    source: str | None = None,
) -> Terminal:
    """A player's SSH session with a PTY (from ``source``, another loopback address such
    as 127.0.0.2, to come from another address than the other clients)."""
    conn = await asyncssh.connect(
        "127.0.0.1",
        server.port,
        local_addr=(source, 0) if source else None,
        username=user,
        client_keys=[key] if key is not None else None,  # None: no key ([] = ~/.ssh)
        known_hosts=None,
        agent_path=None,
        preferred_auth="publickey" if key is not None else "none",
    )
    process = await conn.create_process(
        term_type=term, term_size=size, encoding=None, env=env or {}
    )
    return Terminal(conn, process, size)


async def until(check: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what or check}")


def decider(table: Table) -> str | None:
    aw = table.game.awaiting if table.game else None
    return aw.player if aw else None
