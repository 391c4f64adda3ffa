"""Rude clients against ``imperial serve``, run by hand (never a timed test):

    uv run python benchmarks/serve_flood.py [--tree DIR] [--only flood storm burst]

- flood: one player in a game presses panel keys (key -> update, as serve_load.py times it)
  while another client on the same process pastes 1 MB of random bytes, then 1 MB of text
  (without bracketed paste); reported: the player's median and worst key -> update during
  each flood, and how the flooding connection ended.
- storm: 600 TCP connections from 127.0.0.1 that send nothing, then a real login from
  127.0.0.2; reported: how long until that player sees the lobby (retrying every second
  while the server turns it away, up to 60 s).
- burst: 60 logins at once over two workers; reported: connections per worker.

``--tree DIR`` runs the server from another checkout (for example the code before these
changes: ``git archive BASE | tar -x -C DIR``) with this checkout's environment, to compare
before and after in one run. The server runs in its own process (``--workers 0`` for the
flood: the rude client and the player share its event loop; ``--workers 2`` otherwise).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from imperial_tui.server.hub import Hub  # noqa: E402
from imperial_tui.server.store import SQLiteStore  # noqa: E402
from rules import RuleSet  # noqa: E402

PANEL_MARK = {b"1": b"space", b"2": b"cash  bonds"}


def start(tree: Path, data: Path, *options: str) -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen(
        [sys.executable, "-m", "imperial_tui.cli", "serve", "--allow-any", "--port", "0",
         "--data", str(data), "--pace", "0.5", *options],
        cwd=tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    line = server.stdout.readline()  # type: ignore[union-attr]
    found = re.search(r":(\d+)$", line.strip())
    if not found:
        server.kill()
        sys.exit(f"the server did not start: {line!r}")
    return server, int(found.group(1))


def stop(server: subprocess.Popen[str]) -> None:
    server.terminate()
    try:
        server.wait(30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


class Client:
    def __init__(self, conn: asyncssh.SSHClientConnection, process: object) -> None:
        self.conn, self.process = conn, process
        self.raw = bytearray()
        self.closed = asyncio.Event()
        asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while data := await self.process.stdout.read(65536):  # type: ignore[attr-defined]
                self.raw.extend(data)
        except (asyncssh.Error, OSError):
            pass
        self.closed.set()

    async def wait_for(self, pattern: bytes, timeout: float) -> None:
        end = time.monotonic() + timeout
        while pattern not in self.raw:
            if time.monotonic() > end or self.closed.is_set():
                raise TimeoutError(pattern)
            await asyncio.sleep(0.02)

    async def key(self, key: bytes) -> float:
        start, began = len(self.raw), time.monotonic()
        self.process.stdin.write(key)  # type: ignore[attr-defined]
        while PANEL_MARK[key] not in self.raw[start:]:
            await asyncio.sleep(0.005)
            if time.monotonic() - began > 30:
                return float("inf")
        return time.monotonic() - began


async def login(port: int, name: str, source: str | None = None) -> Client:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, client_keys=None,
        agent_path=None, preferred_auth="none",
        local_addr=(source, 0) if source else None,
    )  # fmt: skip
    process = await conn.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    return Client(conn, process)


async def flood(tree: Path) -> None:
    rng = random.Random(27)
    words = ["imperial", "rondel", "factory", "bond", "taxation", "maneuver"]
    payloads = {
        "random bytes": bytes(rng.randrange(256) for _ in range(1 << 20)).replace(b"\x11", b""),
        "text": " ".join(rng.choice(words) for _ in range(130_000)).encode()[: 1 << 20],
    }
    for what, payload in payloads.items():
        with tempfile.TemporaryDirectory() as tmp:
            hub = Hub(SQLiteStore(Path(tmp) / "imperial.db"))
            hub.create_game("vic", [("vic", "human"), ("ben", "human")], RuleSet.preset(), 3, False)
            hub.store.close()
            server, port = start(tree, Path(tmp), "--workers", "0")
            try:
                vic = await login(port, "vic")
                await vic.wait_for(b"you are vic", 30)
                vic.process.stdin.write(b"\x1b[B\r")  # type: ignore[attr-defined]
                await vic.wait_for(b"Rondel", 30)
                await asyncio.sleep(1)
                keys = iter([b"2", b"1"] * 1000)
                normal = [await vic.key(next(keys)) for _ in range(10)]
                rude = await login(port, "rude")
                await rude.wait_for(b"you are rude", 30)
                began = time.monotonic()
                rude.process.stdin.write(payload)  # type: ignore[attr-defined]
                during = []
                while time.monotonic() - began < 20:
                    during.append(await vic.key(next(keys)))
                    await asyncio.sleep(0.1)
                    if rude.closed.is_set() and time.monotonic() - began > 3:
                        break
                ended = "still connected after 20 s"
                if rude.closed.is_set():
                    line = re.search(rb"imperial: ([^\r\n]+)", bytes(rude.raw))
                    ended = line.group(1).decode()[:70] if line else "closed (quit by its keys)"
                median = 1000 * statistics.median(normal)
                print(
                    f"flood ({what}): key -> update normal median {median:.0f} ms; "
                    f"during the flood median {1000 * statistics.median(during):.0f} ms, worst "
                    f"{1000 * max(during):.0f} ms ({len(during)} keys: worst three "
                    f"{[round(1000 * x) for x in sorted(during)[-3:]]}); the flooder: {ended}",
                    flush=True,
                )
            finally:
                stop(server)


async def storm(tree: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server, port = start(tree, Path(tmp), "--workers", "2")
        try:
            silent = []
            for _ in range(600):
                with contextlib.suppress(OSError):
                    silent.append((await asyncio.open_connection("127.0.0.1", port))[1])
            await asyncio.sleep(0.5)
            began = time.monotonic()
            tries = 0
            while time.monotonic() - began < 60:
                tries += 1
                try:
                    anna = await login(port, "anna", "127.0.0.2")
                    await anna.wait_for(b"you are anna", 20)
                    took = f"{time.monotonic() - began:.2f} s ({tries} tries)"
                    break
                except (asyncssh.Error, OSError, TimeoutError):
                    await asyncio.sleep(1)
            else:
                took = f"not within 60 s ({tries} tries)"
            print(f"storm: 600 silent connections, a real login from another address: {took}")
            for w in silent:
                w.close()
        finally:
            stop(server)


async def burst(tree: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        options = ["--workers", "2", "--max-connections", "200"]
        server, port = start(tree, Path(tmp), *options, *(
            ["--max-per-address", "200", "--max-startups-per-address", "200",
             "--max-startups", "200"] if "--max-startups" in _help(tree) else []
        ))  # fmt: skip
        try:
            conns = await asyncio.gather(*(_bare(port, f"p{i}") for i in range(60)))
            await asyncio.sleep(1)
            kids = Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()
            counts = sorted(_tcp_count(int(k), port) for k in kids)
            print(f"burst: 60 logins at once, connections per worker: {counts}")
            for c in conns:
                c.close()
        finally:
            stop(server)


def _help(tree: Path) -> str:
    return subprocess.run(
        [sys.executable, "-m", "imperial_tui.cli", "serve", "--help"], cwd=tree,
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "200"},
    ).stdout  # fmt: skip


async def _bare(port: int, name: str) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, client_keys=None,
        agent_path=None, preferred_auth="none",
    )  # fmt: skip


def _tcp_count(pid: int, port: int) -> int:
    """Established TCP connections on ``port`` held by process ``pid`` (its sockets' inodes
    against /proc/net/tcp)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    count = 0
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        parts = line.split()
        local_port = int(parts[1].split(":")[1], 16)
        if local_port == port and parts[3] == "01" and parts[9] in inodes:
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT)
    parser.add_argument("--only", nargs="+", default=["flood", "storm", "burst"])
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    print(f"tree: {args.tree}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name in args.only:
        asyncio.run({"flood": flood, "storm": storm, "burst": burst}[name](args.tree))


if __name__ == "__main__":
    main()
