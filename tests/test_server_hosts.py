"""Two ``imperial serve`` hosts on one PostgreSQL database, as a club runs them: a player on
host A and a player on host B play one game and see each other's moves; host A is killed
with SIGKILL in the middle of the game, host B takes its games over within seconds, and no
acknowledged move is lost."""

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

from imperial_tui.server.hub import Hub
from imperial_tui.server.store import open_store
from tests.server_helpers import Terminal, run, until

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def start_host(data: Path, url: str) -> subprocess.Popen[str]:
    """A host in its own process group (its log: DATA/host.log, shown when the test fails)."""
    data.mkdir(parents=True)
    return subprocess.Popen(
        [sys.executable, "-m", "imperial_tui.cli", "serve", "--allow-any", "--port", "0",
         "--data", str(data), "--store", url, "--workers", "1", "--pace", "0"],
        stdout=subprocess.PIPE, stderr=(data / "host.log").open("w"), text=True,
        start_new_session=True,
    )  # fmt: skip


def port_of(host: subprocess.Popen[str]) -> int:
    """The port a host listens on (its first line), once it serves."""
    line = host.stdout.readline()  # type: ignore[union-attr]
    found = re.search(r":(\d+)$", line.strip())
    assert found, line
    return int(found.group(1))


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


def history(url: str) -> list[str]:
    """The game's moves as the database has them (every acknowledged move is there)."""
    hub = Hub(open_store(url))
    hub.load()
    table = hub.tables.get(1)
    moves = [str(a) for a in table.game.history] if table and table.game else []
    hub.store.close()
    return moves


def decider(url: str) -> str | None:
    hub = Hub(open_store(url))
    hub.load()
    table = hub.tables.get(1)
    aw = table.game.awaiting if table and table.game else None
    hub.store.close()
    return aw.player if aw else None


def lock_holders(url: str) -> int:
    store = open_store(url)
    row = store._run(  # type: ignore[attr-defined]
        "SELECT count(*) FROM pg_locks WHERE locktype='advisory' AND objid=1 AND granted"
    ).fetchone()
    store.close()
    return int(row[0])


async def a_move(terms: dict[str, Terminal], url: str) -> None:
    """The human whose decision it is presses Enter (the first choice) until the database
    has one more move; the other human's screen then shows whose decision it is now."""
    before = len(history(url))
    who = decider(url)
    assert who in terms, who
    for _ in range(8):
        await terms[who].press("enter")
        try:
            await until(lambda: len(history(url)) > before, 3, "a move")
            break
        except AssertionError:
            continue
    assert len(history(url)) > before
    # (computer players move at once: wait for a human's decision again)
    await until(lambda: decider(url) in terms, 20, "a human's decision")
    now = decider(url)
    other = next(n for n in terms if n != now)
    await terms[other].wait_for(f"waiting for {now}", 15)


def test_two_hosts_share_a_game_and_one_takes_over_when_the_other_is_killed(
    tmp_path: Path, pg_url: str
) -> None:
    url = pg_url
    host_a = start_host(tmp_path / "a", url)
    host_b = start_host(tmp_path / "b", url)  # (both start at once)
    try:
        port_a, port_b = port_of(host_a), port_of(host_b)

        async def scenario() -> None:
            anna = await player(port_a, "anna")
            await anna.wait_for("you are anna", 20)
            await anna.press("n")
            await anna.wait_for("New game of Imperial")
            await anna.press("ctrl+g")  # anna, an open seat, Cleo (a computer player)
            await anna.wait_for(r"#1 .*waiting for 1 more player", 10)
            ben = await player(port_b, "ben")  # on the other host
            await ben.wait_for(r"#1 .*waiting for 1 more player", 20)
            await ben.press("down", "enter")
            await ben.wait_for("Take a seat in #1")
            await ben.press("y")  # run by host A: the seat is taken there
            await ben.wait_for(r"Imperial .*round 1", 20)
            if "server lobby" in anna.text:
                await anna.press("enter")
            await anna.wait_for(r"Imperial .*round 1", 20)
            terms = {"anna": anna, "ben": ben}
            await until(lambda: decider(url) in terms, 20, "a human's decision")
            for _ in range(4):
                await a_move(terms, url)
            acknowledged = history(url)
            assert len(acknowledged) >= 4

            os.killpg(host_a.pid, signal.SIGKILL)  # the host and its screen process
            killed = time.monotonic()
            await asyncio.wait_for(anna.closed.wait(), 20)
            # host B holds the game's lock within seconds
            await until(lambda: lock_holders(url) == 1 and host_a.poll() is not None, 10)
            took = time.monotonic() - killed
            assert took < 8, took
            anna = await player(port_b, "anna")  # anna comes back, on host B
            await anna.wait_for(r"(?s)you are anna.*#1|Imperial .*round", 20)
            if "server lobby" in anna.text:
                await anna.press("down", "enter")
            await anna.wait_for(r"Imperial .*round", 20)
            terms["anna"] = anna
            for _ in range(2):
                await a_move(terms, url)
            after = history(url)
            assert after[: len(acknowledged)] == acknowledged and len(after) > len(acknowledged)
            for t in terms.values():
                await t.close()

        run(scenario(), timeout=150)
        out = tmp_path / "game.json"
        export = subprocess.run(
            [sys.executable, "-m", "imperial_tui.cli", "serve", "export", "1", str(out),
             "--store", url], capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert export.returncode == 0, export.stderr
        from rules.savefile import load_game

        assert [str(a) for a in load_game(out).game.history] == history(url)
    except BaseException:
        for name in ("a", "b"):
            sys.stderr.write(f"--- host {name}:\n{(tmp_path / name / 'host.log').read_text()}")
        raise
    finally:
        for host in (host_a, host_b):
            if host.poll() is None:
                host.send_signal(signal.SIGTERM)
                try:
                    host.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(host.pid, signal.SIGKILL)
                    host.wait()
