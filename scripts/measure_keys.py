"""Measure key -> screen update in the app (headless, 80x24): the time from a key event
reaching the app until the compositor hands the next frame to the driver (``App._display``).
Pilot's own waits (it sleeps in 20 ms steps until the process is idle) are not counted.

Usage: uv run python scripts/measure_keys.py [--runs 30]
Reports the median and the worst case for moving the highlight, switching panels, and
choosing an action (applied through the engine, autosaved, every panel repainted).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from textual import events

from imperial_tui.app import ImperialApp
from imperial_tui.session import Session
from rules import Game


async def measure(runs: int, save: Path) -> dict[str, list[float]]:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), save)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    out: dict[str, list[float]] = {"highlight (down)": [], "panel switch (1-4)": [], "choose": []}
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        frames: list[float] = []
        display = app._display

        def record(screen: object, renderable: object) -> None:
            if renderable is not None:
                frames.append(time.perf_counter())
            display(screen, renderable)  # type: ignore[arg-type]

        app._display = record  # type: ignore[method-assign]

        async def timed(name: str, key: str) -> None:
            await pilot.pause()
            frames.clear()
            char = {"down": None, "enter": "\r"}.get(key, key)
            start = time.perf_counter()
            assert app._driver is not None
            app._driver.send_message(events.Key(key, char))
            while not frames and time.perf_counter() - start < 2:
                await asyncio.sleep(0.0005)
            if frames:
                out[name].append(frames[0] - start)

        for i in range(runs):
            await timed("highlight (down)", "down")
            await timed("panel switch (1-4)", "1234"[i % 4])
            if app.session is not None and app.session.game.awaiting is not None:
                await timed("choose", "enter")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = asyncio.run(measure(args.runs, Path(tmp) / "keys.json"))
    for name, times in results.items():
        ms = sorted(t * 1000 for t in times)
        print(
            f"{name:20} median {statistics.median(ms):5.1f} ms  "
            f"p90 {ms[int(len(ms) * 0.9) - 1]:5.1f} ms  max {ms[-1]:5.1f} ms  (n={len(ms)})"
        )


if __name__ == "__main__":
    main()
