"""Garbage collection for a process that runs many Textual apps (the SSH server).

Measured with ``benchmarks/serve_load.py`` (48 players and 12 spectators): the server holds
about two million objects, and Textual makes reference cycles on every redraw (a rendered
line keeps itself in its own crop cache; a layout's map is held by a recursive closure), so
many objects outlive the young generations. Python's automatic collection of the oldest
generation then ran every two to three seconds, and each one stopped the event loop, and with
it every connection, for 0.5-1.3 s: a third of the server's CPU, and most key presses that
waited longer than 100 ms waited for it.

So the server keeps the automatic collections of the young generations (cheap, and they free
most cycles) and collects the oldest generation on a clock instead: one pause every
``every`` seconds rather than twenty a minute. The objects alive once the server has started
(modules, the games it loaded) are frozen first: no collection looks at them again.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time

log = logging.getLogger("imperial.server")

# an oldest-generation threshold that the automatic collection never reaches
NEVER = 1_000_000


class Collector:
    def __init__(self, every: float = 30.0) -> None:
        self.every = every
        self.collections = 0
        self.paused = 0.0  # seconds spent in the collections it ran
        self._saved: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._saved is not None

    def start(self) -> None:
        """Freeze what exists now and take over the oldest generation (needs a running loop).
        ``every`` <= 0 leaves Python's collector as it is."""
        if self.every <= 0 or self.running or gc.get_threshold()[2] >= NEVER:
            return  # off, or already in charge (another server in this process)
        self._saved = gc.get_threshold()
        gc.collect()
        gc.freeze()
        young, middle, _ = self._saved
        gc.set_threshold(young, middle, NEVER)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.collect()

    def collect(self) -> int:
        """One full collection now; returns how many objects it freed."""
        start = time.perf_counter()
        found = gc.collect()
        took = time.perf_counter() - start
        self.collections += 1
        self.paused += took
        log.debug("full garbage collection: %s objects freed in %.0f ms", found, 1000 * took)
        return found

    def stop(self) -> None:
        """Give the process its usual collector back."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None
            with contextlib.suppress(Exception):
                gc.unfreeze()
