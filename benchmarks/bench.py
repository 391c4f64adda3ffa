"""Engine benchmarks, run by hand (never a timed test):

    uv run python benchmarks/bench.py [--games N] [--game imperial|2030|both]

1. random-playout throughput: legal_actions() + apply() per action, whole games with
   maneuvers and battles, every player count, both editions, all variants; with
   ``--game both`` (the default) Imperial and Imperial 2030 games alternate in one run, so
   that both see the same machine, and their ratio is printed;
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
from rules.actions import ChooseRondel  # noqa: E402
from rules.savefile import save_game  # noqa: E402

VARIANTS = ("standard", "experienced", "no-investor-card")
CONFIGS = {
    "imperial": [
        (players, edition, variant)
        for players in (2, 3, 4, 5, 6)
        for edition in ("first", "2010")
        for variant in VARIANTS
    ],
    # Imperial 2030 is played with the 2010 rules only
    "2030": [(players, "2010", variant) for players in (2, 3, 4, 5, 6) for variant in VARIANTS],
}


def playout(
    seed: int, players: int, edition: str, variant: str, game_name: str = "imperial"
) -> tuple[int, Game, int]:
    """A random game to its end: (actions, the game, nation turns)."""
    rules = RuleSet.preset(edition, variant, game_name)
    game = Game.new([f"P{i}" for i in range(players)], rules, seed=seed)
    rng = random.Random(seed)
    n = turns = 0
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        turns += type(action) is ChooseRondel
        game.apply(action)
        n += 1
    return n, game, turns


def bench_playouts(games: int, names: tuple[str, ...]) -> None:
    """Random playouts of each game, alternating game by game (the same load for each)."""
    totals = {g: [0, 0, 0, 0.0, 0.0] for g in names}  # games, actions, turns, wall, cpu
    for i in range(games):
        for name in names:
            configs = CONFIGS[name]
            players, edition, variant = configs[i % len(configs)]
            start, cpu_start = time.perf_counter(), time.process_time()
            n, _, turns = playout(i, players, edition, variant, name)
            row = totals[name]
            row[0] += 1
            row[1] += n
            row[2] += turns
            row[3] += time.perf_counter() - start
            row[4] += time.process_time() - cpu_start
    rates = {}
    for name, (count, actions, turns, wall, cpu) in totals.items():
        title = "Imperial 2030" if name == "2030" else "Imperial"
        print(f"random playouts, {title}: {count} games, {actions} actions in {wall:.2f} s")
        print(
            f"  {actions / wall:,.0f} actions/s, {1000 * wall / count:.1f} ms per game, "
            f"{actions / count:.0f} actions per game, {1000 * wall / turns:.2f} ms per nation "
            f"turn ({turns / count:.0f} nation turns per game)"
        )
        # on a shared machine the wall clock counts the others' work too; CPU time does not
        print(
            f"  {actions / cpu:,.0f} actions per CPU-second, {1000 * cpu / turns:.2f} "
            "CPU-ms per nation turn (this process's own CPU time)"
        )
        rates[name] = (actions / cpu, cpu / turns)
    if len(rates) == 2:
        (a_imp, t_imp), (a_new, t_new) = rates["imperial"], rates["2030"]
        print(
            f"Imperial 2030 / Imperial: {a_new / a_imp:.2f} x the actions per CPU-second, "
            f"{t_new / t_imp:.2f} x the CPU time per nation turn"
        )


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
    parser.add_argument("--games", type=int, default=60, help="games of each game")
    parser.add_argument("--game", choices=["imperial", "2030", "both"], default="both")
    args = parser.parse_args()
    names = ("imperial", "2030") if args.game == "both" else (args.game,)
    bench_playouts(args.games, names)
    print(
        f"  peak RSS of this process: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
    )
    bench_load()


if __name__ == "__main__":
    main()
