"""How long a host's death costs, run by hand (never a timed test):

    uv run python benchmarks/serve_takeover.py [--kills 5] [--games 4] [--moves 200]

Two ``imperial serve`` hosts on one PostgreSQL database (a server of its own, started from the
machine's PostgreSQL programs as the tests do); ``--games`` games of four players with
``--moves`` moves each, all run by the first host. Then, ``--kills`` times: the host that
runs the games is killed with SIGKILL, and at once a chat line for game 1 is asked of the
database as a player on the other host would (a request row and its NOTIFY). Reported per
kill: when the other host held game 1's lock, and when it answered the request (it must take
the game over, replay its log and answer what was left pending). The killed host is then
started again, and the next kill is of the host that runs the games now.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from imperial_tui.server.hub import Hub  # noqa: E402
from imperial_tui.server.store_pg import CHANNEL, PostgresStore  # noqa: E402
from rules import RuleSet  # noqa: E402
from rules.bots import make_bot  # noqa: E402
from tests.pg_server import PgServer, server_programs  # noqa: E402


def start_host(data: Path, url: str) -> subprocess.Popen[str]:
    host = subprocess.Popen(
        [sys.executable, "-m", "imperial_tui.cli", "serve", "--allow-any", "--port", "0",
         "--data", str(data), "--store", url, "--workers", "1", "--pace", "0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True,
    )  # fmt: skip
    line = host.stdout.readline()  # type: ignore[union-attr]
    if not re.search(r":(\d+)$", line.strip()):
        sys.exit(f"a host did not start: {line!r}")
    return host


def prepare(url: str, games: int, moves: int) -> None:
    hub = Hub(PostgresStore(url))
    bot = make_bot("greedy", 1)
    for g in range(games):
        seats = [(f"p{g}x{i}", "human") for i in range(4)]
        table = hub.create_game(f"p{g}x0", seats, RuleSet.preset(), g + 1, False)
        for _ in range(moves):
            if table.game is None or table.game.awaiting is None:
                break
            table.apply(table.game.awaiting.player, bot.choose(table.game))
    hub.store.close()


def holder(store: PostgresStore, game_id: int) -> int | None:
    """The database backend (its pid) that holds a game's lock."""
    row = store._run(
        "SELECT pid FROM pg_locks WHERE locktype='advisory' AND objid=%s AND granted",
        (game_id,),
    ).fetchone()
    return int(row[0]) if row else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    programs = server_programs()
    if programs is None:
        sys.exit("no PostgreSQL server programs (initdb, pg_ctl) on this machine")
    pg = PgServer(programs)
    pg.start()
    hosts: list[subprocess.Popen[str]] = []
    try:
        url = pg.new_database()
        prepare(url, args.games, args.moves)
        print(
            f"{args.games} games of {args.moves} moves; load average {os.getloadavg()[0]:.1f} "
            f"on {os.cpu_count()} CPUs",
            flush=True,
        )
        with tempfile.TemporaryDirectory() as tmp:
            runner = start_host(Path(tmp) / "h0", url)  # takes every game at its start
            time.sleep(2)
            other = start_host(Path(tmp) / "h1", url)
            hosts = [runner, other]
            time.sleep(2)
            store = PostgresStore(url)
            locks, answers = [], []
            for kill in range(args.kills):
                before = holder(store, 1)
                os.killpg(runner.pid, signal.SIGKILL)
                killed = time.monotonic()
                row = store._run(
                    "INSERT INTO requests (game_id, host, call) VALUES (1, 'bench', %s) "
                    "RETURNING id",
                    (json.dumps({"op": "say", "id": 1, "user": "p0x1", "text": f"ping {kill}"}),),
                ).fetchone()
                store._run("SELECT pg_notify(%s, 'r1')", (CHANNEL,))
                lock_at = answer_at = None
                while time.monotonic() - killed < 60 and answer_at is None:
                    now = time.monotonic() - killed
                    if lock_at is None and holder(store, 1) not in (None, before):
                        lock_at = now
                    got = store._run("SELECT answer FROM requests WHERE id=%s", row).fetchone()
                    if got and got[0] is not None:
                        answer_at = now
                    time.sleep(0.01)
                runner.wait()
                locks.append(lock_at if lock_at is not None else float("inf"))
                answers.append(answer_at if answer_at is not None else float("inf"))
                print(
                    f"kill {kill + 1}: lock held again after {locks[-1]:.2f} s, the pending "
                    f"request answered after {answers[-1]:.2f} s",
                    flush=True,
                )
                data = Path(tmp) / f"h{kill % 2}"
                runner, other = other, start_host(data, url)
                hosts = [runner, other]
                time.sleep(2)
            print(
                f"median of {args.kills}: lock {statistics.median(locks):.2f} s, answered "
                f"{statistics.median(answers):.2f} s (max {max(answers):.2f} s)"
            )
            store.close()
    finally:
        for h in hosts:
            if h.poll() is None:
                os.killpg(h.pid, signal.SIGTERM)
                try:
                    h.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(h.pid, signal.SIGKILL)
        pg.stop()


if __name__ == "__main__":
    main()
