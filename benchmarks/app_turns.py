"""How long the computer players make a person wait in the app, timed by the app itself
(run by hand, never a test):

    uv run python benchmarks/app_turns.py strong strong strong strong [--seed 1] [--games 1]

Plays whole games in the Textual app, headless (``App.run_test``), every seat a computer
player of the given level, at pace 0 (no deliberate pause), on this machine as it is. The
app keeps each computer decision's thinking time (``ImperialApp.thinking``: the worker
thread's time from the snapshot of the game to the decision, the same path as in play);
this script adds them up per nation turn (from a nation's rondel choice to the next one,
every computer decision in between, bonds bought at Investor included) and prints the
medians, the 99th percentiles and the maxima of decisions and of nation turns, per level of
the nation's government, with the load average before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from imperial_tui.app.local import ImperialApp  # noqa: E402
from imperial_tui.model.session import Session  # noqa: E402
from rules import Game, RuleSet  # noqa: E402
from rules.actions import ChooseRondel  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


async def play(levels: tuple[str, ...], seed: int, limit: float) -> tuple[Game, list]:
    """One whole game in the app; returns the game and the app's (ply, seconds) records."""
    names = list(NAMES[: len(levels)])
    game = Game.new(names, RuleSet(), seed=seed)
    seats = {name: f"bot:{level}" for name, level in zip(names, levels, strict=True)}
    session = Session(game, seats)
    app = ImperialApp(session=session, pace=0.0)
    start = time.monotonic()
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            while not game.is_over and time.monotonic() - start < limit:
                await pilot.pause(0.2)
            thinking = list(app.thinking)
    finally:
        session.close_bots()
    return game, thinking


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0.0


def nation_turns(game: Game, thinking: list, levels: tuple[str, ...]) -> dict[str, list[float]]:
    """Seconds of computer thinking per nation turn, by the level governing the nation."""
    plies = game.plies
    starts = [i for i, ply in enumerate(plies) if isinstance(ply.action, ChooseRondel)]
    turn_of: dict[int, int] = {}
    k = -1
    for i in range(len(plies)):
        while k + 1 < len(starts) and starts[k + 1] <= i:
            k += 1
        turn_of[i] = k
    totals: dict[int, float] = defaultdict(float)
    for ply, seconds in thinking:
        if ply < len(plies) and turn_of[ply] >= 0:
            totals[turn_of[ply]] += seconds
    out: dict[str, list[float]] = defaultdict(list)
    for k, i in enumerate(starts):
        level = levels[plies[i].before.awaiting_player]
        out[level].append(totals.get(k, 0.0))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="+", help="one computer level per seat")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--limit", type=float, default=3600.0, help="seconds a game at most")
    args = parser.parse_args(argv)
    levels = tuple(args.levels)
    print(f"load average before: {load()}")
    decisions: dict[str, list[float]] = defaultdict(list)
    turns: dict[str, list[float]] = defaultdict(list)
    slowest: list[tuple[float, int, str, int]] = []
    for g in range(args.games):
        seed = args.seed + g
        game, thinking = asyncio.run(play(levels, seed, args.limit))
        by_ply = {i: ply for i, ply in enumerate(game.plies)}
        for ply, seconds in thinking:
            if ply in by_ply:
                before = by_ply[ply].before
                decisions[levels[before.awaiting_player]].append(seconds)
                slowest.append((seconds, ply, before.awaiting_kind or "", seed))
        for level, xs in nation_turns(game, thinking, levels).items():
            turns[level] += xs
        over = "over" if game.is_over else "NOT over"
        print(f"game {seed}: {len(game.plies)} actions, {game.state.round} rounds, {over}")
    print(f"load average after: {load()}")
    kinds: dict[str, list[float]] = defaultdict(list)
    for seconds, _, kind, _ in slowest:
        kinds[kind].append(seconds)
    print(
        "decisions by kind: "
        + ", ".join(
            f"{kind} {len(xs)} (median {statistics.median(xs):.2f} s, max {max(xs):.2f} s)"
            for kind, xs in sorted(kinds.items())
        )
    )
    slowest.sort(reverse=True)
    print(
        "slowest decisions: "
        + ", ".join(f"{s:.2f} s ({kind}, ply {ply})" for s, ply, kind, _ in slowest[:6])
    )
    for level in dict.fromkeys(levels):
        d, t = decisions[level], turns[level]
        if not t:
            continue
        print(
            f"{level}: {len(t)} nation turns: median {statistics.median(t):.2f} s, "
            f"p90 {percentile(t, 0.9):.2f} s, p99 {percentile(t, 0.99):.2f} s, max {max(t):.2f} s, "
            f"over 1 s {sum(x > 1 for x in t)}, over 3 s {sum(x > 3 for x in t)}; "
            f"{len(d)} decisions: median {statistics.median(d):.3f} s, "
            f"p99 {percentile(d, 0.99):.3f} s, max {max(d):.3f} s"
        )


if __name__ == "__main__":
    main()
