"""Our engine against the peer's (Thrillberg/imperial's JavaScript engine), side by side:

    node --version   # 20 or newer
    git clone --depth 1 https://github.com/Thrillberg/imperial /tmp/peer   # outside the repo
    uv run python benchmarks/peer_compare.py /tmp/peer [--rounds R] [--games G] [--players 4]

The same workload on both sides: random whole games of the base game with N players (ours:
first edition, standard variant, as benchmarks/bench.py plays them; the peer's: baseGame
"imperial", variant "standard"), each step a uniformly random legal action (the peer's
"undo" left out), from the start to the end of the game. A nation turn is a chosen rondel
action on both sides (ours: ChooseRondel; the peer's: "rondel"); an action is one chosen and
applied action (neither side counts the steps its engine takes by itself).

The runs alternate in one session, round by round: G of our games in this process, then G of
the peer's in a fresh Node process (benchmarks/peer/random_games.mjs, after W warm-up games
that are not counted, so the JIT compiler has done its work), different seeds each round. Both
sides time themselves around the games only (no start-up). Printed: ms per nation turn and
actions per second, wall and CPU (the CPU time of the process: Node's counts its garbage
collector's and compiler's helper threads), the ratios, and the load average before and after
(the machine is shared: compare ratios measured in one run; CPU time counts only one's own
work).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench import playout  # noqa: E402

from rules.machine import tune_collector  # noqa: E402

HARNESS = HERE / "peer" / "random_games.mjs"


def ours(first_seed: int, games: int, players: int) -> list[float]:
    """[games, actions, nation turns, wall s, CPU s] of our random games."""
    row = [0.0] * 5
    for seed in range(first_seed, first_seed + games):
        start, cpu_start = time.perf_counter(), time.process_time()
        actions, _, turns = playout(seed, players, "first", "standard")
        row[3] += time.perf_counter() - start
        row[4] += time.process_time() - cpu_start
        row[0] += 1
        row[1] += actions
        row[2] += turns
    return row


def peer(peer_dir: str, first_seed: int, games: int, players: int, warmup: int) -> list[float]:
    """The same figures from the peer's engine (a fresh Node process)."""
    argv = ["node", str(HARNESS), peer_dir, "--games", str(games), "--first-seed", str(first_seed)]
    argv += ["--players", str(players), "--warmup", str(warmup)]
    out = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
    total = json.loads(out.strip().splitlines()[-1])["total"]
    if total["unfinished"] or total["errors"]:
        print(f"  peer: {total['unfinished']} unfinished games, {total['errors']} errors")
    return [
        total["games"],
        total["actions"],
        total["turns"],
        total["wall_ms"] / 1000,
        total["cpu_ms"] / 1000,
    ]


def report(name: str, row: list[float]) -> tuple[float, float]:
    games, actions, turns, wall, cpu = row
    print(
        f"{name}: {games:.0f} games, {actions:.0f} actions, {turns:.0f} nation turns "
        f"({actions / games:.0f} actions, {turns / games:.0f} nation turns per game)"
    )
    print(f"  wall: {1000 * wall / turns:.3f} ms per nation turn, {actions / wall:,.0f} actions/s")
    print(
        f"  CPU:  {1000 * cpu / turns:.3f} ms per nation turn, "
        f"{actions / cpu:,.0f} actions per CPU-second"
    )
    return wall / turns, cpu / turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("peer_dir", help="a checkout of github.com/Thrillberg/imperial")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--games", type=int, default=10, help="games per side and round")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--warmup", type=int, default=3, help="peer games left out per round")
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
    load_before = os.getloadavg()
    ours(10_000, 2, args.players)  # our warm-up: imports, caches
    mine, theirs = [0.0] * 5, [0.0] * 5
    for r in range(args.rounds):
        seed = r * args.games
        for total, row in (
            (mine, ours(seed, args.games, args.players)),
            (theirs, peer(args.peer_dir, seed, args.games, args.players, args.warmup)),
        ):
            for i, value in enumerate(row):
                total[i] += value
    load_after = os.getloadavg()
    print(
        f"random {args.players}-player games, {args.rounds} alternating rounds of "
        f"{args.games} games a side (the peer: +{args.warmup} uncounted warm-up games a round)"
    )
    our_wall, our_cpu = report("ours (Python, first edition, standard)", mine)
    peer_wall, peer_cpu = report("peer (Thrillberg/imperial, imperial, standard)", theirs)
    print(
        f"ours / peer per nation turn: {peer_wall / our_wall:.2f} x faster (wall), "
        f"{peer_cpu / our_cpu:.2f} x faster (CPU)"
    )
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*load_before))
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*load_after))


if __name__ == "__main__":
    main()
