"""The computer players' turns in the app: each decides in a worker thread on a copy of the
game (the board keeps answering keys), at the table's pace, and its move is applied only if
the game is still where it was (an undo or a load meanwhile drops it). Part of ``GameApp``,
kept apart from the screens and commands; only a session that runs its seats here
(``runs_seats``) has computer players for it to run."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rules import Action, Game, IllegalAction
from rules.bots import Bot
from rules.savefile import SaveConflict, SaveError

if TYPE_CHECKING:
    from textual.app import App

    from imperial_tui.model.session import GameSession

    _App = App[None]
else:
    _App = object

THINKING_KEPT = 2000  # the computer players' decisions whose thinking time the app keeps


class ComputerTurns(_App):
    """What it needs of the app beyond Textual's is declared here (and checked against
    ``GameApp``, which defines it)."""

    if TYPE_CHECKING:

        @property
        def session(self) -> GameSession | None: ...

    _paused: bool
    _bot_busy: bool  # a computer player is thinking (one at a time)
    _bots_moved: bool  # computer moves since a human last decided (the bell)
    # (ply, seconds) of the computer players' recent decisions: their thinking time, which
    # benchmarks/app_turns.py reads to time whole nation turns as the app plays them
    thinking: deque[tuple[int, float]]
    after_change: Callable[[], None]
    save_failed: Callable[[SaveError], None]

    def schedule_bot(self) -> None:
        """Start the thinking of the computer player whose decision it is, unless one is
        thinking already or the players asked the computers to wait."""
        session = self.session
        if self._bot_busy or self._paused or session is None or session.game.awaiting is None:
            return
        bot = session.bot_for(session.game.awaiting.player)
        if bot is None:
            return
        self._bot_busy = True
        snapshot = session.game.copy()
        version = session.version
        self.run_worker(
            partial(self._think, bot, snapshot, version),
            thread=True,
            group="bot",
            exit_on_error=False,
        )

    def _think(self, bot: Bot, game: Game, version: object) -> None:
        """Runs in a worker thread: the UI keeps answering while the bot searches. The bot's
        reason (``decide``) goes to the log with its action."""
        start = time.monotonic()
        try:
            choice = bot.decide(game)
            action, reason = choice.action, choice.reason
        except Exception as exc:  # a computer player's fault must not stall the game
            action, reason = self._quick_move(game, exc, getattr(bot, "hidden_cash", False))
        if not self.is_running:  # the app ended while this player thought: nobody to tell
            return
        try:
            self.call_from_thread(
                self._bot_ready, action, version, time.monotonic() - start, reason
            )
        except RuntimeError:  # it ended in the instant between: the move is not wanted
            return

    def _quick_move(self, game: Game, exc: Exception, hidden_cash: bool) -> tuple[Action, str]:
        """A computer player that failed plays greedy's move this once (the worker thread
        ended silently and the app waited for it forever); the player is told why."""
        from rules.bots import GreedyBot

        what = f"{type(exc).__name__}: {exc}"[:120]
        self.call_from_thread(
            self.notify,
            f"a computer player failed ({what}); it played a quick move",
            severity="error",
        )
        try:
            choice = GreedyBot(seed=0, hidden_cash=hidden_cash).decide(game)
            return choice.action, f"a quick move (its search failed: {what})"
        except Exception:
            return game.legal_actions()[0], f"the first legal move (it failed: {what})"

    def _bot_ready(self, action: Action, version: object, elapsed: float, reason: str = "") -> None:
        assert self.session is not None
        if version == self.session.version:
            self.thinking.append((len(self.session.game.plies), elapsed))
        delay = max(0.0, self.session.pace - elapsed)
        if delay:
            self.set_timer(delay, partial(self._bot_apply, action, version, reason))
        else:
            self._bot_apply(action, version, reason)

    def _bot_apply(self, action: Action, version: object, reason: str = "") -> None:
        self._bot_busy = False
        session = self.session
        if session is None:
            return
        if version == session.version:
            try:
                session.apply(action, reason)
                self._bots_moved = True
            except IllegalAction as exc:
                self.notify(f"computer move refused: {exc}", severity="error")
                return
            except SaveError as exc:  # the move stands; only saving it failed
                self._bots_moved = True
                self.save_failed(exc)
                if isinstance(exc, SaveConflict):
                    return  # no more computer moves until the player answers
        self.after_change()
