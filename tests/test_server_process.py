"""``imperial serve`` as the host runs it: a process with its worker processes. SIGTERM (or
Ctrl+C) stops everything cleanly and tells the players; if the games' process is killed, its
workers end by themselves instead of serving players without their games."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server_helpers import Terminal, run, until

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").exists(), reason="reads worker processes from /proc (Linux)"
)


def children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def start(data: Path) -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen(
        [sys.executable, "-m", "imperial_tui.cli", "serve", "--allow-any", "--port", "0",
         "--data", str(data), "--workers", "2", "--pace", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    line = server.stdout.readline()  # type: ignore[union-attr]
    found = re.search(r":(\d+)$", line.strip())
    assert found, line
    return server, int(found.group(1))


async def player(port: int, name: str) -> Terminal:
    import asyncssh

    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, agent_path=None,
        client_keys=None, preferred_auth="none",
    )  # fmt: skip
    process = await conn.create_process(
        term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    return Terminal(conn, process, (80, 24))


@pytest.mark.parametrize("everyone", [False, True], ids=["the server", "every process"])
def test_sigterm_stops_the_server_and_its_workers_and_tells_the_players(
    tmp_path: Path, everyone: bool
) -> None:
    """Ctrl+C or SIGTERM to the server; or, as a service manager stops a service, SIGTERM to
    every one of its processes at once."""
    server, port = start(tmp_path)
    try:
        workers = children(server.pid)
        assert len(workers) == 2

        async def scenario() -> None:
            anna = await player(port, "anna")
            await anna.wait_for("you are anna", 20)
            server.send_signal(signal.SIGTERM)
            if everyone:
                for w in workers:
                    os.kill(w, signal.SIGTERM)
            await asyncio.wait_for(anna.closed.wait(), 30)
            assert b"the server is stopping; your games are saved" in anna.raw

        run(scenario(), timeout=60)
        assert server.wait(30) == 0
        assert not any(alive(w) for w in workers)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_workers_end_when_the_games_process_is_killed(tmp_path: Path) -> None:
    server, port = start(tmp_path)
    workers = children(server.pid)
    try:
        assert len(workers) == 2

        async def scenario() -> None:
            anna = await player(port, "anna")
            await anna.wait_for("you are anna", 20)
            server.kill()
            await asyncio.wait_for(anna.closed.wait(), 30)
            await until(lambda: not any(alive(w) for w in workers), 30, "the workers to end")

        run(scenario(), timeout=60)
    finally:
        server.wait()
        for w in workers:
            if alive(w):
                os.kill(w, signal.SIGKILL)
        time.sleep(0.1)
