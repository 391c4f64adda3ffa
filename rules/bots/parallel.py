"""Playouts in several processes, for a machine with cores to spare.

A search round is a list of (candidate, seed) playouts; with ``processes`` > 1 the round is
dealt out to worker processes (started once per bot with ``forkserver``, never forked from
the app's threads) while the calling thread plays its own share. A position travels as its
fields with the board named, not copied (``pack``/``unpack``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
import threading
import time
from dataclasses import dataclass, field, fields
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

from rules.actions import Action
from rules.bots.evaluation import Weights
from rules.bots.playout import playout
from rules.machine import tune_collector
from rules.state import GameState

if TYPE_CHECKING:
    from rules.bots.settings import SearchSettings

ANSWER_GRACE = 10.0  # seconds past a share's deadline before its worker counts as hung
STOP_GRACE = 2.0  # seconds a worker has to end when asked, then again when terminated

# (not the board, sent by name, nor the actions listed for the position and what listing
# found: they are listed afresh in the worker, where the objects would be copies)
_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in ("board", "listed", "known"))

# a position as sent: the board's name, the borders removed from it, the other fields' values
Packed = tuple[str, tuple[tuple[str, str], ...], tuple[object, ...]]


def pack(s: GameState) -> Packed:
    """A position to send to another process: its fields, the board by name."""
    board = s.board
    return (board.name, board.removed_edges, tuple(getattr(s, name) for name in _FIELDS))


def unpack(packed: Packed) -> GameState:
    from maps import load_board

    name, removed, values = packed
    board = load_board(name)
    for a, b in removed:
        board = board.without_edge(a, b)
    s = object.__new__(GameState)
    s.board = board
    s.listed = None
    s.known = None
    for field_name, value in zip(_FIELDS, values, strict=True):
        setattr(s, field_name, value)
    return s


def run_share(
    packed: Packed,
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


class PoolClosed(RuntimeError):
    """The pool was closed (the game was left) or a worker died: play on alone."""


def _serve(conn: Connection) -> None:
    """A worker process: play the shares it is sent until told to stop (``None``) or its
    pipe closes. Ctrl+C in a terminal reaches the whole process group; the program that
    owns this worker decides what a Ctrl+C means and ends it, so the worker ignores it
    (it printed a KeyboardInterrupt traceback of its own)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    tune_collector()  # (playouts: the engine's allocations, next to no cycles)
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        ident, args = task
        try:
            conn.send((ident, run_share(*args)))
        except (BrokenPipeError, OSError):
            return


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    io: threading.Lock = field(default_factory=threading.Lock)  # one reader at a time
    waiting: int | None = None  # the share sent and not yet read back


class Share:
    """A share of playouts sent to one worker; ``result`` waits for it."""

    def __init__(self, pool: PlayoutPool, worker: _Worker, ident: int, deadline: float):
        self._pool = pool
        self._worker = worker
        self._ident = ident
        self._deadline = deadline

    def ready(self) -> bool:
        """Whether the worker has answered (``result`` then returns at once); a worker that
        ended counts as answered (``result`` raises)."""
        w = self._worker
        with w.io:
            if w.conn.closed or w.waiting != self._ident:
                return True
            try:
                return w.conn.poll(0)
            except (EOFError, OSError):
                return True

    def result(self) -> list[tuple[int, int, float]]:
        """The share's values. A share stops at its deadline (``run_share``); a worker that
        has not answered some seconds after it has died or hangs, and the pool is closed.
        Raises ``PoolClosed`` then, and when the pool was closed meanwhile."""
        w = self._worker
        with w.io:
            if w.conn.closed or w.waiting != self._ident:
                raise PoolClosed("the playout processes were stopped")
            wait = max(0.0, self._deadline - time.monotonic()) + ANSWER_GRACE
            try:
                if not w.conn.poll(wait):
                    raise PoolClosed(f"a playout process did not answer within {wait:.0f}s")
                answer: tuple[int, list[tuple[int, int, float]]] = w.conn.recv()  # _serve's
                ident, values = answer
            except (EOFError, OSError) as exc:
                raise PoolClosed(f"a playout process ended: {exc}") from None
            finally:
                w.waiting = None
        if ident != self._ident:  # never: one share at a time per worker
            raise PoolClosed("a playout process answered out of turn")
        return values


class PlayoutPool:
    """Worker processes of one bot (``processes - 1`` of them: the caller plays too).

    The pool owns its processes and pipes directly. It used ``ProcessPoolExecutor`` until a
    race in Python 3.11's executor showed at the end of games: an executor closed without
    waiting (or collected with its bot when a game ended) leaves its manager thread closing
    a wake-up pipe while the interpreter's exit hook writes to that pipe, unlocked; on a busy
    machine the write landed on the closed pipe and the program ended with "Exception
    ignored ... OSError: [Errno 9] Bad file descriptor" after "Game over". Here nothing runs
    in the background: ``close`` ends and joins the processes before it returns, and the
    processes are daemons, so even a pool nobody closed is ended at exit."""

    def __init__(self, processes: int) -> None:
        start_resource_tracker()
        context = (
            multiprocessing.get_context("forkserver")
            if "forkserver" in multiprocessing.get_all_start_methods()
            else multiprocessing.get_context()
        )
        self.workers = max(1, processes - 1)
        self._lock = threading.Lock()
        self._closed = False
        self._count = 0
        self._workers: list[_Worker] = []
        try:
            for _ in range(self.workers):
                here, there = context.Pipe()
                process = context.Process(
                    target=_serve, args=(there,), name="imperial-playouts", daemon=True
                )
                process.start()
                there.close()
                self._workers.append(_Worker(process, here))
        except BaseException:
            self.close()
            raise

    @property
    def processes(self) -> list[BaseProcess]:
        return [w.process for w in self._workers]

    def submit(self, *args: Any) -> Share:
        """Send a share (``run_share``'s arguments, the deadline last) to an idle worker."""
        deadline = args[-1]
        with self._lock:
            if self._closed:
                raise PoolClosed("the playout processes were stopped")
            idle = [w for w in self._workers if w.waiting is None]
            if not idle:
                raise PoolClosed("every playout process is busy")
            worker = idle[0]
            self._count += 1
            ident = self._count
            worker.waiting = ident
            try:
                worker.conn.send((ident, args))
            except (OSError, ValueError) as exc:
                worker.waiting = None
                raise PoolClosed(f"a playout process ended: {exc}") from None
        return Share(self, worker, ident, deadline)

    def close(self) -> None:
        """End the worker processes and wait for them: idle ones are asked to stop, busy ones
        (a game left while its computer player thinks) are terminated. Safe to call twice
        and from another thread than the one waiting for a share, which then gets
        ``PoolClosed``."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for w in self._workers:
            if w.waiting is not None:
                w.process.terminate()  # its share is no longer wanted
            elif not w.conn.closed:
                with contextlib.suppress(OSError, ValueError):
                    w.conn.send(None)
        for w in self._workers:
            w.process.join(STOP_GRACE)
            if w.process.is_alive():
                w.process.terminate()
                w.process.join(STOP_GRACE)
            if w.process.is_alive():
                w.process.kill()
                w.process.join()
        for w in self._workers:
            with w.io:  # a reader waiting for a share has seen the pipe end by now
                w.conn.close()
