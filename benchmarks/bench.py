"""Engine benchmarks, run by hand (never a timed test):

    uv run python benchmarks/bench.py [--games N]

1. random-playout throughput: legal_actions() + apply() per action, whole games with
   maneuvers and battles, every player count, both editions, all variants;
2. loading a ~700-action save in a fresh process up to the state summary
   (`imperial state FILE --json`), median of several runs;
3. peak memory of a playout process and of the loading process.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import Game, RuleSet  # noqa: E402
from rules.savefile import save_game  # noqa: E402

CONFIGS = [
    (players, edition, variant)
    for players in (2, 3, 4, 5, 6)
    for edition in ("first", "2010")
    for variant in ("standard", "experienced", "no-investor-card")
]


def playout(seed: int, players: int, edition: str, variant: str) -> tuple[int, Game]:
    rules = RuleSet.preset(edition, variant)
    game = Game.new([f"P{i}" for i in range(players)], rules, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return n, game


def bench_playouts(games: int) -> None:
    total = 0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(games):
        players, edition, variant = CONFIGS[i % len(CONFIGS)]
        n, _ = playout(i, players, edition, variant)
        total += n
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(f"random playouts: {games} games, {total} actions in {elapsed:.2f} s")
    print(
        f"  {total / elapsed:,.0f} actions/s, {1000 * elapsed / games:.1f} ms per game, "
        f"{total / games:.0f} actions per game"
    )
    # on a shared machine the wall clock counts the others' work too; CPU time does not
    print(f"  {total / cpu:,.0f} actions per CPU-second (this process's own CPU time)")


def make_save(target: int, path: Path) -> int:
    """A save of about ``target`` actions (a 4-player first-edition game, cut there)."""
    for seed in range(100):
        rules = RuleSet()
        game = Game.new(["Anna", "Ben", "Cleo", "Dan"], rules, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.history) < target:
            game.apply(rng.choice(game.legal_actions()))
        if len(game.history) >= target:
            save_game(game, path)
            return len(game.history)
    raise RuntimeError("no game was long enough")


def bench_load(runs: int = 7) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.json"
        n = make_save(700, path)
        exe = [sys.executable, "-m", "imperial_tui.cli", "state", str(path), "--json"]
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            out = subprocess.run(exe, capture_output=True, text=True, cwd=ROOT, check=True)
            times.append(time.perf_counter() - start)
        assert '"format": "imperial-state/1"' in out.stdout
        baseline = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            baseline.append(time.perf_counter() - start)
        # peak resident size of one `imperial state` run, measured by GNU time (a child's
        # getrusage figure would include the pages it shared with this process before exec)
        timed = subprocess.run(
            ["/usr/bin/time", "-f", "%M", *exe], capture_output=True, text=True, cwd=ROOT
        )
        rss_kb = int(timed.stderr.split()[-1]) if timed.returncode == 0 else 0
        print(
            f"loading a {n}-action save to the state summary in a fresh process "
            f"(`imperial state FILE --json`): median {1000 * statistics.median(times):.0f} ms "
            f"(python start-up alone {1000 * statistics.median(baseline):.0f} ms), "
            f"peak RSS {rss_kb / 1024:.0f} MB"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    bench_playouts(args.games)
    print(
        f"  peak RSS of this process: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    bench_load()


if __name__ == "__main__":
    main()
