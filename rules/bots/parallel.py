"""Playouts in several processes, for a machine with cores to spare.

A search round is a list of (candidate, seed) playouts; with ``processes`` > 1 the round is
dealt out to worker processes (started once per bot with ``forkserver``, never forked from
the app's threads) while the calling thread plays its own share. A position travels as its
fields with the board named, not copied (``pack``/``unpack``).
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from rules.actions import Action
from rules.bots.evaluation import Weights
from rules.bots.playout import playout
from rules.state import GameState

if TYPE_CHECKING:
    from rules.bots.search import SearchSettings

_FIELDS = tuple(f.name for f in fields(GameState) if f.name != "board")


def pack(s: GameState) -> tuple:
    """A position to send to another process: its fields, the board by name."""
    board = s.board
    return (board.name, board.removed_edges, tuple(getattr(s, name) for name in _FIELDS))


def unpack(packed: tuple) -> GameState:
    from maps import load_board

    name, removed, values = packed
    board = load_board(name)
    for a, b in removed:
        board = board.without_edge(a, b)
    s = object.__new__(GameState)
    s.board = board
    for field_name, value in zip(_FIELDS, values, strict=True):
        setattr(s, field_name, value)
    return s


def run_share(
    packed: tuple,
    plans: list[list[Action]],
    tasks: list[tuple[int, int, int]],
    me: int,
    settings: SearchSettings,
    weights: Weights,
    deadline: float,
) -> list[tuple[int, int, float]]:
    """Play the playouts ``(candidate, seed index, seed)`` of a share until the deadline
    (``time.monotonic``); returns ``(candidate, seed index, value)`` for those played."""
    from rules import engine

    root = unpack(packed)
    states: dict[int, GameState] = {}
    out = []
    for c, k, seed in tasks:
        if time.monotonic() > deadline:
            break
        state = states.get(c)
        if state is None:
            state = root
            for action in plans[c]:
                state, _ = engine.apply(state, action)
            states[c] = state
        out.append((c, k, playout(state, me, seed, settings, weights)))
    return out


_TRACKER_LOCK = threading.Lock()


def start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (the pool's queues need it) with a real
    stderr. The tracker is handed ``sys.stderr``'s file descriptor; under Textual
    ``sys.stderr`` is a capture whose ``fileno()`` is -1, and the tracker's start failed
    ("bad value(s) in fds_to_keep"): in the app the strong level's processes never started.
    The real stderr stands in for the instant of the start (once per program)."""
    from multiprocessing import resource_tracker

    with _TRACKER_LOCK:
        try:
            usable = sys.stderr is not None and sys.stderr.fileno() >= 0
        except (AttributeError, OSError, ValueError):
            usable = False
        if usable or sys.__stderr__ is None:
            resource_tracker.ensure_running()
            return
        captured, sys.stderr = sys.stderr, sys.__stderr__
        try:
            resource_tracker.ensure_running()
        finally:
            sys.stderr = captured


class PlayoutPool:
    """Worker processes of one bot (``processes - 1`` of them: the caller plays too)."""

    def __init__(self, processes: int) -> None:
        start_resource_tracker()
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else None
        context = multiprocessing.get_context(method)
        self.workers = max(1, processes - 1)
        self._pool = ProcessPoolExecutor(self.workers, mp_context=context)

    def submit(self, *args: Any) -> Future:
        return self._pool.submit(run_share, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
