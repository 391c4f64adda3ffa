"""Engine benchmarks, run by hand (never a timed test):

    uv run python benchmarks/bench.py [--games N] [--game imperial|2030|both]

1. random-playout throughput: legal_actions() + apply() per action, whole games with
   maneuvers and battles, every player count, both editions, all variants; with
   ``--game both`` (the default) Imperial and Imperial 2030 games alternate in one run, so
   that both see the same machine, and their ratio is printed;
2. the commands users run on a ~700-action save, in fresh processes, median of several
   runs: `imperial state FILE --json` and `imperial moves FILE` through the environment's
   `imperial` script and through `uv run`, with the bytecode compiled (what every start after
   the first finds: imperial_tui.cli.bytecode) and without any (an empty
   PYTHONPYCACHEPREFIX folder per run, and no background compiling after it:
   IMPERIAL_NO_BACKGROUND_COMPILE); it says whether the bytecode was found compiled;
3. peak memory of a playout process and of the loading process.

Every figure is printed with the load average it was measured under: the machine is shared,
so compare ratios measured in one run (see also scripts/measure_startup.py: the app's first
frame).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from imperial_tui.cli.bytecode import SWITCH_OFF  # noqa: E402
from rules import Game, RuleSet  # noqa: E402
from rules.actions import ChooseRondel  # noqa: E402
from rules.machine import tune_collector  # noqa: E402
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


def _python_only_cache(argv: list[str], env: dict[str, str], folder: Path) -> Path:
    """A bytecode folder (PYTHONPYCACHEPREFIX) holding the bytecode of the standard library
    modules ``argv`` loads, and none of the program's or its environment's: what a user finds
    before the program's first start (Python comes with its own library compiled)."""
    seed_env = {**env, "PYTHONPYCACHEPREFIX": str(folder)}
    seed_env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(argv, capture_output=True, cwd=ROOT, env=seed_env)
    time.sleep(1)
    for ours in (ROOT, Path(sys.prefix).resolve()):
        shutil.rmtree(folder / ours.relative_to(ours.anchor), ignore_errors=True)
    return folder


def _median_ms(argv: list[str], runs: int, env: dict[str, str], cold: bool) -> float:
    """Median wall time of ``argv`` in ms; ``cold``: every run without the program's bytecode
    (each from a fresh copy of ``_python_only_cache``)."""
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        seed = _python_only_cache(argv, env, Path(tmp) / "seed") if cold else None
        for run in range(runs):
            run_env = dict(env)
            if seed is not None:
                prefix = Path(tmp) / str(run)
                shutil.copytree(seed, prefix)
                run_env["PYTHONPYCACHEPREFIX"] = str(prefix)
                # no compiler after the run (imperial_tui.cli.bytecode): it would take the
                # next run's CPU and write into this folder while it is being removed
                run_env[SWITCH_OFF] = "1"
            start = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env=run_env)
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"{' '.join(argv)} failed: {done.stderr.strip()}")
    return 1000 * statistics.median(times)


def _stale_modules(path: Path, env: dict[str, str]) -> tuple[int, int]:
    """(modules without fresh bytecode, modules under the program's and environment's
    folders) after `imperial state FILE --json` in a fresh process."""
    probe = (
        "import sys\n"
        f"sys.argv = ['imperial', 'state', {str(path)!r}, '--json']\n"
        "from imperial_tui.cli import bytecode, quick\n"
        "quick.answer(sys.argv[1:])\n"
        "where = bytecode.roots()\n"
        "ours = [m for m in list(sys.modules.values())\n"
        "        if str(getattr(getattr(m, '__spec__', None), 'origin', '')).startswith(where)]\n"
        "sys.stderr.write(f'{len(bytecode.stale_sources())} {len(ours)}')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    stale, total = done.stderr.split()[-2:]
    return int(stale), int(total)


def bench_commands(runs: int = 9) -> None:
    """The commands users run, fresh processes, with and without compiled bytecode."""
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("PYTHONPYCACHEPREFIX", None)
    imperial = str(Path(sys.executable).with_name("imperial"))
    uv = shutil.which("uv")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.json"
        n = make_save(700, path)
        # the first run leaves the bytecode compiled (in the background, for the next start)
        subprocess.run([imperial, "moves", str(path)], capture_output=True, env=env, cwd=ROOT)
        time.sleep(3)
        stale, total = _stale_modules(path, env)
        print(
            f"commands on a {n}-action save (fresh processes, median of {runs}; load average "
            f"{os.getloadavg()[0]:.2f}); bytecode found compiled for {total - stale} of the "
            f"{total} modules `state` loads"
        )
        python_alone = _median_ms([sys.executable, "-c", "pass"], runs, env, False)
        print(f"  python start-up alone: {python_alone:.0f} ms")
        for words in (["state", str(path), "--json"], ["moves", str(path)]):
            shown = f"imperial {words[0]}{' --json' if '--json' in words else ''}"
            ways = [("imperial script", [imperial, *words])]
            if uv is not None:
                ways.append(("uv run", [uv, "run", "--frozen", "imperial", *words]))
            for way, argv in ways:
                warm = _median_ms(argv, runs, env, False)
                cold = _median_ms(argv, runs, env, True)
                print(
                    f"  {shown:<21} {way:<15} {warm:5.0f} ms compiled, {cold:5.0f} ms without "
                    f"the program's bytecode (load {os.getloadavg()[0]:.2f})"
                )
        exe = [imperial, "state", str(path), "--json"]
        # peak resident size of one `imperial state` run, measured by GNU time (a child's
        # getrusage figure would include the pages it shared with this process before exec)
        timed = subprocess.run(
            ["/usr/bin/time", "-f", "%M", *exe], capture_output=True, text=True, cwd=ROOT
        )
        rss_kb = int(timed.stderr.split()[-1]) if timed.returncode == 0 else 0
        print(f"  peak RSS of `imperial state FILE --json`: {rss_kb / 1024:.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games of each game")
    parser.add_argument("--game", choices=["imperial", "2030", "both"], default="both")
    parser.add_argument("--runs", type=int, default=9, help="runs of each command")
    parser.add_argument("--only", choices=["playouts", "commands"], default=None)
    parser.add_argument(
        "--python-collector",
        action="store_true",
        help="keep Python's default garbage collector thresholds (default: the program's, "
        "rules.machine.tune_collector)",
    )
    args = parser.parse_args()
    if not args.python_collector:
        tune_collector()
    print(f"garbage collector thresholds {gc.get_threshold()}")
    names = ("imperial", "2030") if args.game == "both" else (args.game,)
    if args.only != "commands":
        print(f"load average {os.getloadavg()[0]:.2f}")
        bench_playouts(args.games, names)
        print(
            f"  peak RSS of this process: "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB"
        )
    if args.only != "playouts":
        bench_commands(args.runs)


if __name__ == "__main__":
    main()
