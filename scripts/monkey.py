"""Long monkey runs by hand: random keys and window sizes against the app with computer
players, stopping at the first exception with the keys that led to it.

Usage: uv run python scripts/monkey.py [--seeds 20] [--presses 5000] [--first-seed 0]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from monkey import MonkeyLog, monkey

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game


async def one_run(seed: int, presses: int, directory: Path) -> tuple[bool, MonkeyLog, int]:
    game = Game.new(["Anna", "Ben", "Cleo"], seed=seed)
    controllers = {"Anna": "human", "Ben": "bot:greedy", "Cleo": "human"}
    session = Session(game, controllers, directory / f"m{seed}.json", hidden_cash=seed % 2 == 1)
    app = ImperialApp(session=session, pace=0.0)
    log = MonkeyLog()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await monkey(pilot, random.Random(seed), presses, log)
    except Exception as exc:  # the failure to report, with the keys that led to it
        import traceback

        traceback.print_exception(exc, limit=-8)
        print(f"seed {seed}: {type(exc).__name__}: {exc}\n  last steps: {log.tail()}")
        return False, log, len(game.plies)
    if len(log.steps) < presses:
        print(f"seed {seed}: the app stopped (return code {app.return_code}) after: {log.tail()}")
    return True, log, len(session.game.plies)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--presses", type=int, default=5000)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    failures = 0
    total_keys = 0
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # files the monkey saves ("Save as", screenshots) land here
        for seed in range(args.first_seed, args.first_seed + args.seeds):
            ok, log, plies = asyncio.run(one_run(seed, args.presses, Path(tmp)))
            total_keys += len(log.steps)
            failures += not ok
            print(
                f"seed {seed}: {'ok' if ok else 'FAILED'} ({len(log.steps)} steps, {plies} actions)"
            )
    elapsed = time.monotonic() - start
    print(f"{args.seeds} runs, {total_keys} keys/resizes, {failures} failures, {elapsed:.0f} s")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
