"""The app's CPU time per key press, headless, run by hand (never a test):

    uv run python benchmarks/app_keys.py [--presses 40] [--rounds 3]

Two workloads in one process, each timed by the process's own CPU time (steadier than
the wall clock on a shared machine), the best of ``--rounds`` rounds:

- new game: Tab through the new-game screen's fields (focus moves, the footer's keys follow);
- game: on the main screen of a 4-player game at its first decision, the panel keys 1-4
  in turn and Down/Up in the decision list.

Prints CPU ms per key for each, and the load average. Compare two versions (for example
main in another worktree) one after the other in one sitting.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from imperial_tui.app import ImperialApp  # noqa: E402
from imperial_tui.model.session import Session  # noqa: E402
from rules import Game  # noqa: E402

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


async def per_key(app: ImperialApp, keys: list[str], warm: list[str]) -> float:
    """CPU ms per key of ``keys`` pressed one at a time in ``app`` at 80x24, after ``warm``."""
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*warm)
        await pilot.pause()
        start = time.process_time()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()
        return (time.process_time() - start) * 1000 / len(keys)


def game_app(folder: Path) -> ImperialApp:
    game = Game.new(NAMES, seed=3)
    session = Session(game, dict.fromkeys(NAMES, "human"), folder / "keys.json")
    return ImperialApp(session=session, pace=0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import tempfile

    print(f"load average before: {os.getloadavg()[0]:.2f}")
    tabs = ["tab"] * args.presses
    cycle = ["1", "2", "3", "4", "down", "up"]
    panel_keys = [cycle[i % len(cycle)] for i in range(args.presses)]
    new_game: list[float] = []
    in_game: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.rounds):
            new_game.append(asyncio.run(per_key(ImperialApp(seed=1, pace=0.0), tabs, [])))
            in_game.append(asyncio.run(per_key(game_app(Path(folder)), panel_keys, ["tab"])))
    print(f"new game, Tab: {min(new_game):.1f} CPU ms per key (rounds: {_ms(new_game)})")
    print(f"game, 1-4 and Down/Up: {min(in_game):.1f} CPU ms per key (rounds: {_ms(in_game)})")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def _ms(values: list[float]) -> str:
    return ", ".join(f"{v:.1f}" for v in values)


if __name__ == "__main__":
    main()
