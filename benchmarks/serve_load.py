"""Load on ``imperial serve``, run by hand (never a timed test):

    uv run python benchmarks/serve_load.py [--players 4 20 50] [--seconds 20]

For each N: a fresh server in its own process (``imperial serve --allow-any`` on an ephemeral
port), N/4 games of four human seats, N simulated players (asyncssh clients on loopback, each
with a PTY at 80x24) and one spectator per game. Players act at human pace: every 0.6-1.4 x --think
seconds they press either Enter (the first option: a move when the decision is theirs, nothing
otherwise) or a panel key (1 or 2). Reported:

- key -> screen update: from writing a panel key to receiving the bytes that draw that panel
  (median, p95), for every player;
- server memory per connected player: (RSS with everyone connected - RSS before) / connections;
- server CPU over the measuring window (% of one core);
- bytes per opponent move to a watcher at 80x24: what each game's spectator received during
  the window divided by the actions played in its game: terminal bytes as sent (OpenSSH does
  not compress unless asked), and "(-C)" what they cost through SSH's zlib stream (ssh -C).

Bounded: at most 60 players per host per run, and each N runs for --seconds after everyone
joined.

``--postgres`` runs the server on PostgreSQL (``--store``; a server of its own is started
from the machine's PostgreSQL programs, as the tests do), ``--hosts 2`` runs two hosts on
that one database (players alternate between them; the games are run by whichever host
took them first, so half the players' moves are forwarded between the hosts).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from imperial_tui.server.hub import Hub  # noqa: E402
from imperial_tui.server.store import open_store  # noqa: E402
from rules import RuleSet  # noqa: E402

MAX_PLAYERS = 60  # per host
PANEL_MARK = {b"1": b"space", b"2": b"cash  bonds"}


@dataclass
class Player:
    name: str
    game: int
    process: object = None
    received: bytearray = field(default_factory=bytearray)
    latencies: list[float] = field(default_factory=list)
    waiting: tuple[bytes, float, int] | None = None  # mark, sent at, offset
    moves: int = 0
    compressed: int = 0  # what the same bytes cost through SSH's zlib stream (ssh -C)
    zlib: object = field(default_factory=lambda: zlib.compressobj())


def rss_kb(hosts: list[int]) -> int:
    """Resident memory of the servers (hosts) and their workers."""
    total = 0
    for p in (p for h in hosts for p in family(h)):
        try:
            lines = Path(f"/proc/{p}/status").read_text().splitlines()
        except OSError:
            continue
        total += next((int(x.split()[1]) for x in lines if x.startswith("VmRSS:")), 0)
    return total


def family(pid: int) -> list[int]:
    """The server and its worker processes (``--workers``)."""
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    return [pid, *(p for k in kids for p in family(int(k)))]


def cpu_seconds(hosts: list[int]) -> float:
    """CPU time of the servers (hosts) and their workers."""
    return sum(_cpu_seconds(p) for h in hosts for p in family(h))


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prepare(spec: str | Path, games: int) -> None:
    hub = Hub(open_store(spec))
    for g in range(games):
        seats = [(f"p{g}x{i}", "human") for i in range(4)]
        hub.create_game(f"p{g}x0", seats, RuleSet.preset(), g + 1, True, title=f"load {g}")
    hub.store.close()


def start_host(
    data: Path, url: str | None, workers: int | None, under: list[str]
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *under, "-m", "imperial_tui.cli", "serve", "--allow-any",
         "--port", "0", "--data", str(data), "--max-connections", "200",
         "--max-per-address", "200", "--max-startups-per-address", "200",
         "--pace", "0.5", *([] if workers is None else ["--workers", str(workers)]),
         *(["--store", url] if url else [])],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip


async def reader(p: Player) -> None:
    while True:
        data = await p.process.stdout.read(65536)  # type: ignore[attr-defined]
        if not data:
            return
        p.received.extend(data)
        z = p.zlib
        p.compressed += len(z.compress(data) + z.flush(zlib.Z_SYNC_FLUSH))  # type: ignore[attr-defined]
        if p.waiting is not None:
            mark, sent, offset = p.waiting
            if mark in p.received[offset:]:
                p.latencies.append(time.monotonic() - sent)
                p.waiting = None


async def connect(port: int, name: str) -> object:
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, known_hosts=None, client_keys=None, agent_path=None
    )
    return await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None)


async def play(p: Player, stop: float, rng: random.Random, think: float) -> None:
    """Human pace: every 0.6-1.4 x ``think`` seconds either Enter (the first option: a move
    when the decision is this player's, nothing otherwise) or a panel key (1/2), whose drawing
    is timed."""
    write = p.process.stdin.write  # type: ignore[attr-defined]
    panel = b"1"
    while time.monotonic() < stop:
        await asyncio.sleep(think * rng.uniform(0.6, 1.4))
        if rng.random() < 0.5:
            write(b"\r")
            p.moves += 1
            continue
        panel = b"2" if panel == b"1" else b"1"
        p.waiting = (PANEL_MARK[panel], time.monotonic(), len(p.received))
        write(panel)


async def run_n(
    n: int, seconds: float, think: float, workers: int | None, url: str | None, hosts: int
) -> dict[str, float]:
    games = max(1, n // 4)
    n = games * 4
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        (data / "host0").mkdir()
        spec: str | Path = url or data / "host0" / "imperial.db"  # (SQLite: the one host's)
        prepare(spec, games)
        # SERVE_LOAD_PROFILE=DIR: the server runs under cProfile (slower), its profile goes
        # to DIR/serve-N.prof for ``python -m pstats``
        profile = os.environ.get("SERVE_LOAD_PROFILE")
        under = ["-m", "cProfile", "-o", f"{profile}/serve-{n}.prof"] if profile else []
        servers = [start_host(data / f"host{h}", url, workers, under) for h in range(hosts)]
        pids = [s.pid for s in servers]
        try:
            ports = []
            for s in servers:
                line = s.stdout.readline()  # type: ignore[union-attr]
                ports.append(int(re.search(r":(\d+)$", line.strip()).group(1)))  # type: ignore[union-attr]
            await asyncio.sleep(0.5)
            rss0 = rss_kb(pids)
            # the benchmark's own view of the games (read-only, from the same database)
            players = [Player(f"p{g}x{i}", g + 1) for g in range(games) for i in range(4)]
            watchers = [Player(f"w{g}", g + 1) for g in range(games)]
            start = time.monotonic()
            for i, p in enumerate(players + watchers):
                p.process = await connect(ports[i % hosts], p.name)
            tasks = [asyncio.create_task(reader(p)) for p in players + watchers]
            # everyone opens their game (players: their own; watchers: the game to watch)
            await asyncio.sleep(2 + n * 0.05)
            for p in players:  # their own game is the lobby's first line
                p.process.stdin.write(b"\r")  # type: ignore[attr-defined]
            for w in watchers:
                rows = 1 + (w.game - 1)  # games are listed newest first under "to watch"
                w.process.stdin.write(b"\x1b[B" * (games - rows) + b"\r")  # type: ignore[attr-defined]
            # the window starts when everyone sees their game and the server is quiet again
            # (joining sixty players is a burst of work of its own: it is not the steady
            # state measured here, and a fixed wait let the window start in the middle of it)
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not all(
                b"Rondel" in p.received for p in players + watchers
            ):
                await asyncio.sleep(0.2)
            while time.monotonic() < deadline:
                busy0 = cpu_seconds(pids)
                await asyncio.sleep(1.0)
                if cpu_seconds(pids) - busy0 < 0.2:
                    break
            joined = time.monotonic() - start
            view = Hub(open_store(spec))
            view.load()
            before = {gid: len(t.game.plies) for gid, t in view.tables.items()}
            view.store.close()
            rss1 = rss_kb(pids)
            cpu0, t0 = cpu_seconds(pids), time.monotonic()
            own0 = time.process_time()
            for w in watchers:
                w.received.clear()
                w.compressed = 0
            stop = time.monotonic() + seconds
            rng = random.Random(n)
            await asyncio.gather(
                *(play(p, stop, random.Random(rng.random()), think) for p in players)
            )
            window = time.monotonic() - t0
            cpu = (cpu_seconds(pids) - cpu0) / window
            client_cpu = (time.process_time() - own0) / window
            final = Hub(open_store(spec))
            final.load()
            moves = {gid: len(t.game.plies) - before[gid] for gid, t in final.tables.items()}
            per_move = [
                len(w.received) / moves[w.game] for w in watchers if moves.get(w.game, 0) > 0
            ]
            per_move_z = [w.compressed / moves[w.game] for w in watchers if moves.get(w.game, 0)]
            lat = sorted(x for p in players for x in p.latencies)
            if os.environ.get("SERVE_LOAD_SHOW"):
                import pyte

                for who in (players[0], players[-1], watchers[-1]):
                    screen = pyte.Screen(80, 24)
                    pyte.ByteStream(screen).feed(bytes(who.received))
                    print(who.name, "\n".join(screen.display), sep="\n", file=sys.stderr)
            for t in tasks:
                t.cancel()
            return {
                "players": n,
                "connections": n + len(watchers),
                "joined_s": joined,
                "keys": len(lat),
                "median_ms": 1000 * statistics.median(lat) if lat else float("nan"),
                "p95_ms": 1000 * lat[int(0.95 * (len(lat) - 1))] if lat else float("nan"),
                "rss_before_mb": rss0 / 1024,
                "rss_mb": rss1 / 1024,
                "mb_per_connection": (rss1 - rss0) / 1024 / (n + len(watchers)),
                "cpu_pct": 100 * cpu,
                "client_cpu_pct": 100 * client_cpu,
                "moves": sum(moves.values()),
                "bytes_per_move": statistics.median(per_move) if per_move else float("nan"),
                "zbytes_per_move": statistics.median(per_move_z) if per_move_z else float("nan"),
                # server CPU per event: a key press, or one screen redrawn for a move
                "cpu_ms_per_event": 1000
                * cpu
                * window
                / max(1, sum(p.moves for p in players) + len(lat) + 5 * sum(moves.values())),
            }
        finally:
            for s in servers:
                s.terminate()  # a clean stop: every connection is told first
            for s in servers:
                try:
                    s.wait(60)
                except subprocess.TimeoutExpired:
                    s.kill()
                    s.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, nargs="+", default=[4, 20, 50])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--think", type=float, default=1.0, help="mean seconds between a player's keys"
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="the server's --workers (default: its own)"
    )
    parser.add_argument("--postgres", action="store_true", help="the store on PostgreSQL")
    parser.add_argument("--hosts", type=int, default=1, help="hosts on one PostgreSQL")
    args = parser.parse_args()
    if args.hosts > 1 and not args.postgres:
        sys.exit("--hosts needs --postgres")
    pg = None
    if args.postgres:
        from tests.pg_server import PgServer, server_programs

        programs = server_programs()
        if programs is None:
            sys.exit("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
        pg = PgServer(programs)
        pg.start()
    print(
        f"{'N':>3} {'conns':>5} {'keys':>5} {'median':>7} {'p95':>7} {'MB/conn':>8} "
        f"{'RSS MB':>7} {'CPU %':>6} {'moves':>6} {'B/move':>7} {'(-C)':>5} {'client CPU %':>12} "
        f"{'CPU ms/event':>12} {'joined s':>8}"
    )
    print(f"(load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    try:
        for n in args.players:
            _one(args, n, pg.new_database() if pg else None)
    finally:
        if pg is not None:
            pg.stop()


def _one(args: argparse.Namespace, n: int, url: str | None) -> None:
    if n > MAX_PLAYERS * args.hosts:
        sys.exit(f"at most {MAX_PLAYERS} players per host")
    r = asyncio.run(run_n(n, args.seconds, args.think, args.workers, url, args.hosts))
    print(
        f"{r['players']:>3} {r['connections']:>5} {r['keys']:>5} {r['median_ms']:>5.0f}ms "
        f"{r['p95_ms']:>5.0f}ms {r['mb_per_connection']:>8.2f} {r['rss_mb']:>7.0f} "
        f"{r['cpu_pct']:>6.0f} {r['moves']:>6} {r['bytes_per_move']:>7.0f} "
        f"{r['zbytes_per_move']:>5.0f} "
        f"{r['client_cpu_pct']:>12.0f} {r['cpu_ms_per_event']:>12.1f} {r['joined_s']:>8.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
