"""Measure key -> screen update in the app (headless, 80x24): the time from a key event
reaching the app until the compositor hands the next frame to the driver (``App._display``).
Pilot's own waits (it sleeps in 20 ms steps until the process is idle) are not counted.

Usage: uv run python scripts/measure_keys.py [--runs 30]
Reports the median and the worst case for moving the highlight, switching panels, and
choosing an action (applied through the engine, autosaved, every panel repainted, and the next
player's "since your last turn" worked out: the recap that then opens is closed, untimed);
opening the standings, the history and stepping back a turn in it; then, in a
Maneuver with the map on screen: the map cursor (an arrow in the map), the highlight of the
decision list (the map redraws the unit and its destinations), switching to the map (5), and
choosing a move on the map (enter).
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
from imperial_tui.model.session import Session
from rules import Game
from rules.actions import NATION_CODES
from rules.state import NO


async def measure(runs: int, save: Path) -> dict[str, list[float]]:
    game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=2)
    session = Session(game, dict.fromkeys(game.players, "human"), save)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    out: dict[str, list[float]] = {
        "highlight (down)": [],
        "panel switch (1-4)": [],
        "choose": [],
        "standings (v)": [],
        "history (h)": [],
        "history turn (left)": [],
    }
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        frames: list[float] = []
        display = app._display

        def record(screen: object, renderable: object) -> None:
            if renderable is not None:
                frames.append(time.perf_counter())
            display(screen, renderable)  # type: ignore[arg-type]

        app._display = record  # type: ignore[method-assign]

        async def close_dialogs() -> None:
            """Untimed: close a recap, and give the decision list the keys again (a panel
            key pressed twice gives that panel the keys to scroll it)."""
            await pilot.pause()
            while type(app.screen).__name__ in ("RecapScreen", "StandingsScreen"):
                await pilot.press("escape")
                await pilot.pause()
            options = app.screen.query("#decision-options")
            if options and app.focused is not options.first():
                options.first().focus()
                await pilot.pause()

        async def timed(name: str, key: str) -> None:
            await close_dialogs()
            frames.clear()
            char = {"down": None, "enter": "\r", "left": None}.get(key, key)
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
        if hasattr(app, "action_history"):  # the standings and the history (issue #9)
            for _ in range(max(3, runs // 3)):
                await timed("standings (v)", "v")
                await pilot.press("escape")
                await timed("history (h)", "h")
                await timed("history turn (left)", "left")
                await pilot.press("escape")
    return out


def maneuver_game() -> Game:
    """Austria-Hungary maneuvering with armies and fleets spread over the board."""
    game = Game.new(
        ["Anna", "Ben", "Cleo", "Dan", "Eve", "Fay"],
        deal="Anna=AH,Ben=IT,Cleo=FR,Dan=GB,Eve=GE,Fay=RU",
    )
    s = game.state
    ah = NATION_CODES.index("AH")
    for region, armies in (("vienna", 3), ("budapest", 2), ("trieste", 1), ("lemberg", 2)):
        s.armies[ah][s.board.index[region]] = armies
    for sea in ("ionian_sea", "western_mediterranean", "black_sea"):
        s.fleets[ah][s.board.index[sea]] = 1
    s.turn, s.rondel[ah], s.todo = ah, NO, ()
    s.awaiting_kind, s.awaiting_player, s.awaiting_nation = "rondel", s.government[ah], ah
    s.ctx = s.turn_ctx = None
    game.apply("AH rondel maneuver1")
    return game


async def measure_map(runs: int, save: Path, size: tuple[int, int]) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {
        "map cursor (arrow)": [],
        "highlight, map shown": [],  # until the map shows the highlighted unit
        "switch to map (5)": [],
        "choose on the map": [],
    }
    for i in range(runs):
        game = maneuver_game()
        session = Session(game, dict.fromkeys(game.players, "human"), save)
        app = ImperialApp(session=session, pace=0.0, ascii_only=False)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            frames: list[float] = []
            display = app._display

            def record(
                screen: object,
                renderable: object,
                frames: list[float] = frames,
                display: object = display,
            ) -> None:
                if renderable is not None:
                    frames.append(time.perf_counter())
                display(screen, renderable)  # type: ignore[operator]

            app._display = record  # type: ignore[method-assign]

            async def timed(
                name: str,
                key: str,
                frames: list[float] = frames,
                app: ImperialApp = app,
                first_frame: bool = False,
            ) -> None:
                """Key to the first frame that shows the new map (the map redraws in the
                handler of the list's highlight, so the list's own frame is not enough);
                ``first_frame``: to the first frame at all."""
                await pilot.pause()
                frames.clear()
                model = app.screen.map_model  # type: ignore[attr-defined]
                before = (model.version, len(app.session.game.plies))  # type: ignore[union-attr]
                char = {"enter": "\r"}.get(key, key if len(key) == 1 else None)
                start = time.perf_counter()
                assert app._driver is not None
                app._driver.send_message(events.Key(key, char))
                changed_at = start if first_frame else None
                while time.perf_counter() - start < 2:
                    now = (model.version, len(app.session.game.plies))  # type: ignore[union-attr]
                    if changed_at is None and now != before:
                        changed_at = time.perf_counter()
                    if changed_at is not None:
                        after = [f for f in frames if f >= changed_at]
                        if after:
                            out[name].append(after[0] - start)
                            return
                    await asyncio.sleep(0.0005)

            await timed("highlight, map shown", "down")  # the map is up (the Maneuver)
            await timed("highlight, map shown", "down")
            await pilot.press("1")  # away from the map, then back with 5
            await timed(
                "switch to map (5)", "5", first_frame=True
            )  # the map and its cursor take the keys
            for key in ("right", "down", "left", "up"):
                await timed("map cursor (arrow)", key)
            await pilot.press("g", *"VIE", "enter")  # Vienna's armies, then Budapest
            await pilot.pause()
            await pilot.press("enter", "right")
            await pilot.pause()
            assert app.screen.map_model.cursor == "budapest", i
            await timed("choose on the map", "enter")
            if i == 0:
                assert any(str(p.action).startswith("AH move army") for p in game.plies)
    return out


def report(results: dict[str, list[float]]) -> None:
    for name, times in results.items():
        ms = sorted(t * 1000 for t in times)
        if not ms:
            continue
        print(
            f"{name:22} median {statistics.median(ms):5.1f} ms  "
            f"p90 {ms[max(0, int(len(ms) * 0.9) - 1)]:5.1f} ms  max {ms[-1]:5.1f} ms  "
            f"(n={len(ms)})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "keys.json"
        report(asyncio.run(measure(args.runs, save)))
        maps = max(3, args.runs // 5)
        for size in ((80, 24), (120, 40)):
            print(f"-- a Maneuver with the map, {size[0]}x{size[1]}:")
            report(asyncio.run(measure_map(maps, save, size)))


if __name__ == "__main__":
    main()
