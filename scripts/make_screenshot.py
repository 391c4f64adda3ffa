"""Write the screenshots of docs/ and the README, from a fixed seed so the pictures only change
when the app does:

- docs/screenshot-main.svg: a Maneuver at 120x40, the map beside the decision, the armies in
  Berlin highlighted in the list and drawn on the map with every destination they may reach;
- docs/screenshot-panels.svg: the same game a little earlier with keys 1-4's panels (rondel,
  bonds, regions, log) all at once.

Usage: uv run python scripts/make_screenshot.py [--size 120x40] [--out-dir docs]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import GreedyBot
from rules.decisions import Decision

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


def maneuver(seed: int = 2) -> Game:
    """The mid game played on until a nation with four units or more moves to Maneuver."""
    game = mid_game(seed=seed)
    bot = GreedyBot(seed)
    while game.awaiting is not None:
        if game.awaiting.kind == Decision.RONDEL and game.state.units_of(game.state.turn) >= 4:
            moves = [a for a in game.legal_actions() if "maneuver" in str(a)]
            if moves:
                game.apply(moves[0])
                break
        game.apply(bot.choose(game))
    return game


async def shoot(game: Game, out: Path, size: tuple[int, int], keys: list[str]) -> None:
    session = Session(game, dict.fromkeys(PLAYERS, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await pilot.pause()
        app.save_screenshot(filename=out.name, path=str(out.parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--out-dir", type=Path, default=Path("docs"))
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    args.out_dir.mkdir(parents=True, exist_ok=True)
    shots = (
        ("screenshot-main.svg", maneuver(), ["down"]),
        ("screenshot-panels.svg", mid_game(), []),
    )
    for name, game, keys in shots:
        out = args.out_dir / name
        asyncio.run(shoot(game, out, (cols, rows), keys))
        print(f"wrote {out} ({cols}x{rows})")


if __name__ == "__main__":
    main()
