"""Write docs/screenshot-main.svg: the main screen mid-game at 120x40 (every panel at once),
from a fixed seed so the picture only changes when the app does.

Usage: uv run python scripts/make_screenshot.py [--size 120x40] [--out docs/screenshot-main.svg]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from imperial_tui.app import ImperialApp
from imperial_tui.session import Session
from rules import Game
from rules.bots import GreedyBot

PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]


def mid_game(actions: int = 120, seed: int = 2) -> Game:
    """A game some rounds in, played by greedy bots (units, flags and bonds on the board)."""
    game = Game.new(PLAYERS, seed=seed)
    bot = GreedyBot(seed)
    for _ in range(actions):
        if game.awaiting is None:
            break
        game.apply(bot.choose(game))
    return game


async def shoot(out: Path, size: tuple[int, int]) -> None:
    session = Session(mid_game(), dict.fromkeys(PLAYERS, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--out", type=Path, default=Path("docs/screenshot-main.svg"))
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    asyncio.run(shoot(args.out, (cols, rows)))
    print(f"wrote {args.out} ({cols}x{rows})")


if __name__ == "__main__":
    main()
