"""Programs with a search-level computer player end cleanly: no traceback or "Exception
ignored" after "Game over", and no playout process outlives its game.

The fault (issue #29): the strong level's playout pool was a ``ProcessPoolExecutor`` closed
without waiting, or collected with its bot at the end of a headless game; its manager thread
then closed a wake-up pipe while the interpreter's exit hook wrote to it, unlocked, and on a
busy machine the program ended with ``OSError: [Errno 9] Bad file descriptor``. The games
here run three at a time to load the machine, with a small playout budget so they stay quick.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from rules import Game
from rules.bots import GreedyBot
from rules.savefile import save_game

ROOT = Path(__file__).resolve().parent.parent
SEATS = ("Anna", "Ben", "Cleo", "Dan")
NEAR_END = 14  # power points of the leading nation when the strong player comes in

# Runs the real `imperial play FILE --headless` with the strong level's budget cut down (and
# two processes, whatever the machine's cores), writing the pid of every playout process it
# starts, and of the forkserver that starts them, to a file.
HEADLESS = textwrap.dedent(
    """
    import dataclasses, sys
    from multiprocessing import forkserver

    import rules.bots.parallel as parallel
    import rules.bots.search as search

    save, pids = sys.argv[1], sys.argv[2]
    search.STRONG = dataclasses.replace(
        search.STRONG, budget=0.02, playouts=8, horizon=2, processes=2
    )
    started = parallel.PlayoutPool.__init__

    def init(self, processes):
        started(self, processes)
        with open(pids, "a") as out:
            for p in self.processes:
                out.write(f"{p.pid}\\n")
            server = getattr(forkserver._forkserver, "_forkserver_pid", None)
            if server:
                out.write(f"{server}\\n")

    parallel.PlayoutPool.__init__ = init
    from imperial_tui.cli import main

    sys.argv = ["imperial", "play", save, "--headless"]
    main()
    """
)


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting for its parent counts as ended)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def ended(pids: list[int], within: float = 10.0) -> list[int]:
    """The pids still running after ``within`` seconds."""
    stop = time.monotonic() + within
    while True:
        left = [p for p in pids if alive(p)]
        if not left or time.monotonic() > stop:
            return left
        time.sleep(0.1)


def run(args: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env=env,
        **kwargs,  # type: ignore[arg-type]
    )


def late_game(save: Path, seed: int) -> None:
    """A four-player game played by greedy players until a nation nears 25 power points,
    saved with Anna as a strong player: the headless run plays only its last turns."""
    game = Game.new(list(SEATS), seed=seed)
    bots = {p: GreedyBot(seed * 10 + i) for i, p in enumerate(SEATS)}
    while game.awaiting is not None and max(game.state.power) < NEAR_END:
        game.apply(bots[game.awaiting.player].choose(game))
    assert game.awaiting is not None, "the game ended before the strong player came in"
    save_game(game, save, {p: "bot:strong" if p == "Anna" else "bot:greedy" for p in SEATS})


def headless_game(
    tmp: Path, late: Path, run_number: int
) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    save = tmp / f"run{run_number}.json"
    pids = tmp / f"pids{run_number}.txt"
    shutil.copyfile(late, save)
    done = run(["-c", HEADLESS, str(save), str(pids)])
    started = [int(line) for line in pids.read_text().split()] if pids.exists() else []
    return done, started


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to see which processes run")
def test_headless_games_with_a_strong_player_end_without_a_traceback_under_load(
    tmp_path: Path,
) -> None:
    """Twelve headless games, three at a time, each from its last rounds to its end: each
    prints "Game over", nothing on stderr, and every playout process it started has ended."""
    lates = []
    for seed in (2, 4, 6):
        lates.append(tmp_path / f"late{seed}.json")
        late_game(lates[-1], seed)
    with ThreadPoolExecutor(3) as pool:
        results = list(
            pool.map(lambda n: headless_game(tmp_path, lates[n % len(lates)], n), range(12))
        )
    for seed, (done, started) in enumerate(results):
        out = done.stdout + done.stderr
        assert done.returncode == 0, f"seed {seed}: {done.stderr[-2000:]}"
        assert "Game over" in done.stdout, f"seed {seed}: {done.stdout[-500:]}"
        assert "Traceback" not in out and "Exception ignored" not in out, f"seed {seed}: {out}"
        assert done.stderr == "", f"seed {seed}: {done.stderr}"
        assert started, f"seed {seed}: the strong player never started its processes"
        assert ended(started) == [], f"seed {seed}: playout processes outlived the game"


def test_closing_a_pool_ends_its_processes_before_it_returns() -> None:
    """``close`` is synchronous: when it returns, every playout process has ended and been
    joined, and no thread of the pool is left to race the interpreter's exit."""
    from rules.bots.parallel import PlayoutPool

    threads = threading.active_count()
    pool = PlayoutPool(3)
    processes = pool.processes
    assert len(processes) == 2 and all(p.is_alive() for p in processes)
    pool.close()
    assert all(p.exitcode is not None for p in processes)  # ended (asked, or if slow, made to)
    assert threading.active_count() == threads
    pool.close()  # twice is harmless


def test_a_pool_closed_while_its_share_is_played_answers_at_once() -> None:
    """The app leaves a game while its strong player waits for a worker's share: the worker
    is ended, and the waiting thread hears so at once (and decides alone) instead of waiting
    for the share's deadline."""
    from rules.bots.evaluation import DEFAULT
    from rules.bots.parallel import PlayoutPool, PoolClosed, pack
    from rules.bots.search import STRONG

    game = Game.new(list(SEATS), seed=3)
    pool = PlayoutPool(2)
    far = time.monotonic() + 60
    tasks = [(0, k, k) for k in range(10_000)]
    share = pool.submit(pack(game.state), [[]], tasks, 0, STRONG, DEFAULT, far)
    closer = threading.Timer(0.3, pool.close)
    closer.start()
    started = time.monotonic()
    with pytest.raises(PoolClosed):
        share.result()
    closer.join()
    assert time.monotonic() - started < 10
    assert all(p.exitcode is not None for p in pool.processes)


# Quits the app with ctrl+q, y while Anna, a strong player in two processes, is thinking.
QUIT_WHILE_THINKING = textwrap.dedent(
    """
    import asyncio, json, sys
    from dataclasses import replace

    from imperial_tui.app import ImperialApp
    from imperial_tui.model.session import Session
    from rules import Game

    async def main():
        game = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
        session = Session(game, {"Anna": "bot:strong", "Ben": "bot:strong"})
        for bot in session.bots.values():
            bot.settings = replace(bot.settings, processes=2, budget=2.0, playouts=100_000)
        app = ImperialApp(session=session, pace=0.0)
        pids = []
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(400):
                pools = [b._pool for b in session.bots.values() if b._pool is not None]
                if pools and app._bot_busy:
                    break
                await pilot.pause(0.05)
            pids = [p.pid for pool in pools for p in pool.processes]
            await pilot.press("ctrl+q")
            await pilot.pause(0.2)
            await pilot.press("y")
            await pilot.pause(0.5)
        print(json.dumps(pids))

    asyncio.run(main())
    """
)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to see which processes run")
def test_quitting_the_app_while_a_computer_player_thinks_ends_cleanly() -> None:
    """ctrl+q, y in the middle of a strong player's search: the app ends without a
    traceback, and the playout processes end with it."""
    done = run(["-c", QUIT_WHILE_THINKING])
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    pids = json.loads(done.stdout.strip().splitlines()[-1])
    assert pids, "the strong player never started its processes"
    assert ended(pids) == []


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads /proc to see which processes run")
def test_stopping_the_server_with_a_computer_game_in_it_ends_cleanly(tmp_path: Path) -> None:
    """A server whose games' process runs a game of computer players is stopped (SIGTERM,
    as Ctrl+C or a service manager does): it ends without a traceback, and so do its
    workers."""
    save = tmp_path / "bots.json"
    game = Game.new(list(SEATS), seed=5)
    save_game(game, save, {p: "bot:strong" if p == "Anna" else "bot:greedy" for p in SEATS})
    data = tmp_path / "server"
    imported = run(["-m", "imperial_tui.cli", "serve", "import", str(save), "--data", str(data)])
    assert imported.returncode == 0, imported.stderr
    server = subprocess.Popen(
        [sys.executable, "-m", "imperial_tui.cli", "serve", "--allow-any", "--port", "0",
         "--data", str(data), "--workers", "2", "--pace", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        assert server.stdout is not None
        server.stdout.readline()  # listening: the games' process runs the computer players
        time.sleep(3)  # they play meanwhile
        server.send_signal(signal.SIGTERM)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "Exception ignored" not in err, err
