"""Computer players inside the app: the strong level's playout processes start under
Textual (which replaces ``sys.stderr`` with a capture whose ``fileno()`` is -1), and a
computer player that fails does not stall the game."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from pilot import drive, told, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.bots import Choice

ROOT = Path(__file__).resolve().parents[1]


def run_fresh(code: str) -> str:
    """Run code in a new interpreter: multiprocessing's resource tracker is started once per
    program, so only a fresh one shows whether it can be started from where the code is."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_playout_processes_start_while_stderr_is_a_capture_without_a_file() -> None:
    """Textual's stderr capture answers fileno() with -1; the resource tracker, handed that,
    failed to start ("bad value(s) in fds_to_keep") and no playout process could run."""
    out = run_fresh(
        """
        import sys

        class Capture:  # what Textual puts in sys.stderr while the app runs
            def write(self, text): return len(text)
            def flush(self): pass
            def fileno(self): return -1

        sys.stderr = Capture()
        from rules.bots.parallel import PlayoutPool

        pool = PlayoutPool(2)
        print(all(p.is_alive() for p in pool.processes))
        pool.close()
        print([p.exitcode for p in pool.processes])
        """
    )
    assert out.split() == ["True", "[0]"]


def test_the_strong_level_searches_in_its_processes_inside_the_app() -> None:
    """Anna is a strong computer player (two processes): in the app she decides with her
    worker processes running, where before she never decided and the app said "thinking"
    for ever."""
    out = run_fresh(
        """
        import asyncio
        from dataclasses import replace

        from imperial_tui.app import ImperialApp
        from imperial_tui.model.session import Session
        from rules import Game

        async def main():
            game = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
            session = Session(game, {"Anna": "bot:strong", "Ben": "human"})
            bot = session.bots["Anna"]
            bot.settings = replace(bot.settings, processes=2, playouts=8, horizon=1)
            app = ImperialApp(session=session, pace=0.0)
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(600):
                    if len(game.plies) > 0:
                        break
                    await pilot.pause(0.05)
                bot.wait_for_workers(60)  # they start in the background
                pool = bot._pool
                alive = pool is not None and all(w.is_alive() for w in pool.processes)
                print(len(game.plies) > 0, alive, bot._alone)
                session.close_bots()

        if __name__ == "__main__":
            asyncio.run(main())
        """
    )
    assert out.split() == ["True", "True", "False"]


class FailingBot:
    """A computer player with a fault: every decision raises."""

    name = "failing"
    hidden_cash = False

    def decide(self, game: Game) -> Choice:
        raise RuntimeError("no move found")

    def close(self) -> None:
        pass


async def test_a_computer_player_that_fails_plays_a_quick_move_and_says_so() -> None:
    """The fault ended the worker thread without a word and the app waited for it for
    ever; now greedy's move is played in its place, the log says why and a notice tells the
    player."""
    game = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    session = Session(game, {"Anna": "bot:greedy", "Ben": "human"})
    session.bots["Anna"] = FailingBot()  # type: ignore[assignment]

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await until(pilot, lambda: len(game.plies) > 0)
        assert game.plies[0].action.actor == "AH"  # type: ignore[attr-defined]
        reason = session.reasons[1].text
        assert "quick move" in reason and "no move found" in reason
        notices = told(app)
        assert any("computer player failed" in m for m in notices), notices
    assert app.return_code in (None, 0)
