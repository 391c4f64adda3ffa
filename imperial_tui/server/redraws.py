"""Redraws for other players' moves, behind the players' own keys (one per process).

Every connection of a process is drawn on its one event loop, and asyncio runs what is ready
in the order it became ready. A move redraws every screen of its game (20-30 ms of CPU each);
with a dozen games in a worker, a player's key used to wait behind every redraw that other
players' moves had queued before it. Here a table change does not redraw a screen at once:
the screen is put in line, and

- one screen is redrawn at a time, and the next one only when that one has been drawn;
- no redraw starts while a key (or a paste, a click) is being answered on any connection of
  the process, from its arrival to the frame drawn for it (at most ``KEY_HOLD`` seconds for
  a key that draws nothing), so a key waits for at most the one redraw in progress;
- a screen waits in line once: the moves that arrive meanwhile are drawn together, as the
  table's latest state (nothing is lost: a redraw shows the whole table as it is then);
- a screen is redrawn for moves at most every ``SPACING`` seconds (a burst of computer moves
  costs one redraw, not one per move);
- keys never hold the line longer than ``MAX_HOLD`` seconds in a row: a stream of keys does
  not starve the watchers.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

log = logging.getLogger("imperial.server")

KEY_HOLD = 0.3  # seconds a key holds the redraws at most (one that draws nothing ends sooner)
MAX_HOLD = 0.5  # seconds keys may hold the line in a row
SPACING = 0.1  # seconds between two redraws of one screen for moves
DRAW_TIMEOUT = 1.0  # seconds a redraw may take before the next screen's turn comes anyway


class Redrawn(Protocol):
    """A screen that can be redrawn for its table's latest state."""

    def redraw_table(self) -> asyncio.Future[None] | None:
        """Start the redraw; the future is done when the frame is drawn (None: nothing to
        draw, e.g. the connection is ending)."""
        ...


class Redraws:
    def __init__(
        self,
        key_hold: float = KEY_HOLD,
        max_hold: float = MAX_HOLD,
        spacing: float = SPACING,
    ) -> None:
        self.key_hold = key_hold
        self.max_hold = max_hold
        self.spacing = spacing
        self._waiting: dict[Redrawn, None] = {}  # in line, in order (a set that keeps order)
        self._last: dict[Redrawn, float] = {}  # when each screen was last redrawn for moves
        self._keys: dict[object, float] = {}  # keys being answered: token -> when it arrived
        self._quiet: asyncio.Future[None] | None = None  # done when no key is being answered
        self._task: asyncio.Task[None] | None = None
        self.redrawn = 0  # screens redrawn (tests, benchmarks)
        self.merged = 0  # table changes drawn by a redraw already waiting

    # -- what the connections tell ------------------------------------------------------------
    def want(self, screen: Redrawn) -> None:
        """The screen's table changed: redraw it when its turn comes."""
        if screen in self._waiting:
            self.merged += 1
            return
        self._waiting[screen] = None
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    def forget(self, screen: Redrawn) -> None:
        """The connection ended."""
        self._waiting.pop(screen, None)
        self._last.pop(screen, None)

    def stop(self) -> None:
        """The server stops: nothing more is redrawn."""
        self._waiting.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def key_started(self, token: object) -> None:
        """A key arrived on a connection (``token``: the connection); held until
        ``key_done(token)`` or ``key_hold`` seconds."""
        self._keys[token] = asyncio.get_running_loop().time()

    def key_done(self, token: object) -> None:
        """The frame for the connection's keys is drawn."""
        self._keys.pop(token, None)
        quiet = self._quiet
        if not self._keys and quiet is not None and not quiet.done():
            quiet.set_result(None)

    def holding(self, token: object) -> bool:
        """Whether a key of this connection is being answered."""
        return token in self._keys

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def idle(self) -> bool:
        """Nothing in line and no redraw in progress (tests, benchmarks)."""
        return not self._waiting and (self._task is None or self._task.done())

    # -- the line -----------------------------------------------------------------------------
    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._waiting:
                await self._behind_keys(loop)
                now = loop.time()
                screen = next(
                    (s for s in self._waiting if now - self._last.get(s, -1e9) >= self.spacing),
                    None,
                )
                if screen is None:  # every one waiting was redrawn just now
                    soonest = min(self._last.get(s, now) for s in self._waiting)
                    await asyncio.sleep(max(0.0, soonest + self.spacing - now))
                    continue
                del self._waiting[screen]
                self._last[screen] = now
                await self._draw(screen)
        finally:
            self._task = None

    async def _behind_keys(self, loop: asyncio.AbstractEventLoop) -> None:
        """Until no key is being answered (a key that drew nothing is let go after
        ``key_hold``), or ``max_hold`` has passed."""
        deadline = loop.time() + self.max_hold
        while self._keys:
            now = loop.time()
            for token, since in list(self._keys.items()):
                if now - since >= self.key_hold:
                    self.key_done(token)
            if not self._keys or now >= deadline:
                return
            due = min(self._keys.values()) + self.key_hold
            self._quiet = quiet = loop.create_future()
            await asyncio.wait([quiet], timeout=max(0.001, min(due, deadline) - now))
            self._quiet = None

    async def _draw(self, screen: Redrawn) -> None:
        try:
            drawn = screen.redraw_table()
        except Exception:  # one broken connection must not stop the others' redraws
            log.exception("a redraw failed")
            return
        self.redrawn += 1
        if drawn is not None:
            await asyncio.wait([drawn], timeout=DRAW_TIMEOUT)
