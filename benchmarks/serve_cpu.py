"""The server's CPU per event, in one process without SSH or a network, run by hand:

    uv run python benchmarks/serve_cpu.py [--rounds 40] [--profile FILE]

One game of four human seats and a spectator, each with its own ``ServerApp`` on a fake
link (what the SSH driver would send is counted, not sent). Two phases, each timed by the
process's own CPU time (independent of the machine's load, unlike wall-clock latency):

- panel switches: every player presses 1 or 2 in turn (the benchmark's timed key);
- moves: the player whose decision it is presses Enter (the first option); all five screens
  redraw for it.

Reported: CPU ms per panel switch, CPU ms per move (all five screens), bytes sent to the
spectator per move. ``--profile FILE`` writes a cProfile of both phases.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from imperial_tui.server.app import ServerApp  # noqa: E402
from imperial_tui.server.hub import Hub  # noqa: E402
from imperial_tui.server.store import SQLiteStore  # noqa: E402
from rules import RuleSet  # noqa: E402


class FakeLink:
    """What the driver needs of a connection: input from a queue, output counted."""

    def __init__(self, size: tuple[int, int] = (80, 24)) -> None:
        self.size = size
        self.inbox: asyncio.Queue[bytes | tuple[int, int] | None] = asyncio.Queue()
        self.sent = 0
        self.last_input = time.monotonic()

    def send(self, text: str) -> None:
        self.sent += len(text.encode("utf-8", errors="replace"))

    async def receive(self) -> bytes | tuple[int, int] | None:
        return await self.inbox.get()


async def settle(apps: list[ServerApp]) -> None:
    """Until every app has nothing left to do (idle wall time costs no CPU), and no screen
    waits for its redraw (the hub's redraws, where the server has them)."""
    redraws = getattr(apps[0].hub, "redraws", None)
    for _ in range(200):
        await asyncio.sleep(0.01)
        busy = any(app._message_queue.qsize() or app.screen._message_queue.qsize() for app in apps)
        busy = busy or (redraws is not None and not redraws.idle)
        if not busy:
            await asyncio.sleep(0.05)
            return


async def measure(
    rounds: int, profile: str | None, phase: Callable[[str], None] = lambda name: None
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub(SQLiteStore(Path(tmp) / "imperial.db"), default_pace=0.0)
        names = [f"p{i}" for i in range(4)]
        table = hub.create_game(
            names[0], [(n, "human") for n in names], RuleSet.preset(), 1, True, title="cpu"
        )
        env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "LANG": "C.UTF-8"}
        links = {n: FakeLink() for n in [*names, "watcher"]}
        apps = {n: ServerApp(hub, n, link, env) for n, link in links.items()}
        tasks = [asyncio.create_task(app.run_async(size=(80, 24))) for app in apps.values()]
        await asyncio.sleep(1.0)
        await settle(list(apps.values()))
        for n in names:  # their game is the lobby's first line
            links[n].inbox.put_nowait(b"\r")
        links["watcher"].inbox.put_nowait(b"\r")  # the one game to watch
        await asyncio.sleep(1.0)
        await settle(list(apps.values()))
        assert all(app.session is not None for app in apps.values()), "not all in the game"

        profiler = cProfile.Profile() if profile else None
        if profiler:
            profiler.enable()
        # panel switches
        phase("switch")
        switches = 0
        cpu0 = time.process_time()
        panel = b"2"
        for _ in range(rounds):
            for n in names:
                links[n].inbox.put_nowait(panel)
                switches += 1
                await settle(list(apps.values()))
            panel = b"1" if panel == b"2" else b"2"
        cpu_switch = (time.process_time() - cpu0) / switches
        # moves: the decision's player presses Enter
        phase("move")
        moves = 0
        sent0 = links["watcher"].sent
        cpu0 = time.process_time()
        for _ in range(rounds):
            aw = table.game.awaiting
            if aw is None:
                break
            user = next(s.user for s in table.seats if s.name == aw.player)
            before = len(table.game.plies)
            links[user].inbox.put_nowait(b"\r")
            await settle(list(apps.values()))
            moves += len(table.game.plies) - before
        cpu_move = (time.process_time() - cpu0) / max(1, moves)
        watcher_bytes = (links["watcher"].sent - sent0) / max(1, moves)
        phase("end")
        if profiler:
            profiler.disable()
            profiler.dump_stats(profile)  # type: ignore[arg-type]
        for link in links.values():
            link.inbox.put_nowait(None)
        await asyncio.wait(tasks, timeout=10)
        await hub.stop()
        hub.store.close()
        return {
            "switches": switches,
            "cpu_ms_per_switch": 1000 * cpu_switch,
            "moves": moves,
            "cpu_ms_per_move": 1000 * cpu_move,
            "watcher_bytes_per_move": watcher_bytes,
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--profile", default=None, help="write a cProfile here")
    args = parser.parse_args()
    import os

    load = os.getloadavg()[0]
    r = asyncio.run(measure(args.rounds, args.profile))
    sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__  # each app redirected them
    print(
        f"panel switch: {r['cpu_ms_per_switch']:.1f} CPU ms ({r['switches']}); "
        f"move, 5 screens: {r['cpu_ms_per_move']:.1f} CPU ms ({r['moves']}); "
        f"watcher: {r['watcher_bytes_per_move']:.0f} B/move (load average {load:.1f})"
    )


if __name__ == "__main__":
    main()
