"""Playouts in several processes, for a machine with cores to spare.

A search round is a list of (candidate, seed) playouts; with ``processes`` > 1 the round is
dealt out to worker processes (started once per bot with ``forkserver``, never forked from
the app's threads) while the calling thread plays its own share. A position travels as its
fields with the board named, not copied (``pack``/``unpack``).
"""

from __future__ import annotations

import multiprocessing
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


class PlayoutPool:
    """Worker processes of one bot (``processes - 1`` of them: the caller plays too)."""

    def __init__(self, processes: int) -> None:
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else None
        context = multiprocessing.get_context(method)
        self.workers = max(1, processes - 1)
        self._pool = ProcessPoolExecutor(self.workers, mp_context=context)

    def submit(self, *args: Any) -> Future:
        return self._pool.submit(run_share, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
