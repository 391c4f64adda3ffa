"""What the machine offers this process: the one place that counts cores, for the search
player's playout processes and the server's worker processes alike, and that sets how often
Python's cyclic garbage collector runs in a process that plays the game (``tune_collector``).
"""

from __future__ import annotations

import gc
import os

# Python's default (700, 10, 10) runs a young collection every 700 allocations and a full
# one, which walks every object the process holds (a game's history of positions for undo
# among them), every 70,000. The engine allocates a few small objects per action and frees
# them by reference counting; the collector finds next to nothing: it took 15% of a random
# game's CPU time (benchmarks/bench.py, 4 players, 40 games: 0.098-0.101 CPU-ms a nation turn
# with the default, 0.083-0.086 with the collector off, 0.086 with these thresholds).
COLLECTOR_THRESHOLDS = (10_000, 10, 10)


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1


def tune_collector() -> None:
    """Run the cyclic garbage collector less often (``COLLECTOR_THRESHOLDS``): for a process
    that plays the game (the command line and the app, a search player's playout processes,
    the benchmarks that time them). A process setting, not the engine's: the engine itself
    never sets it, and the SSH server runs its own schedule
    (``imperial_tui.server.collector``)."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
