"""Texts the app gives one line, or two, read whole at 80x24 (a playtest: the game-over line
of a six-player game was cut mid-list with no sign of more; the history's keys wrapped as
"left/right: turn  ,/.:" over "action").

The last-event line and the status line are one line high: a longer text ends in an ellipsis
(ASCII mode: cut at the edge) instead of wrapping to a second line the height hides.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from pilot import drive, screen_lines, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game

SIX = ["Anna", "Benedikt", "Cleopatra", "Dan", "Evangeline", "Fritz"]


def finished_six(tmp_path: Path) -> Session:
    """A six-player game played to its end (random legal moves: fast, and its score list is
    far longer than 80 columns)."""
    game = Game.new(SIX, seed=0)
    rng = random.Random(0)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    session = Session(game, dict.fromkeys(SIX, "human"), tmp_path / "over.json")
    session.save()
    return session


@pytest.mark.parametrize(("ascii_only", "end"), [(False, "…"), (True, ",")])
async def test_the_game_over_line_of_six_players_ends_in_an_ellipsis(
    tmp_path: Path, ascii_only: bool, end: str
) -> None:
    app = ImperialApp(session=finished_six(tmp_path), pace=0.0, ascii_only=ascii_only)
    async with drive(app) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "GameOverScreen")
        await pilot.press("escape")  # back to the board
        await until(pilot, lambda: any(" game over: " in line for line in screen_lines(app)))
        lines = screen_lines(app)
        [tail] = [line for line in lines if " game over: " in line]
        assert tail.rstrip().startswith(f"{len(app.session.view.plies):4} game over: Anna wins")
        assert len(tail) == 80
        assert tail.rstrip().endswith(end), tail
        if ascii_only:
            assert "…" not in tail


async def test_the_history_keys_are_two_lines_of_whole_phrases(tmp_path: Path) -> None:
    game = Game.new(SIX[:4], seed=1)
    rng = random.Random(1)
    for _ in range(120):
        game.apply(rng.choice(game.legal_actions()))
    session = Session(game, dict.fromkeys(SIX[:4], "human"), tmp_path / "g.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("h")
        await until(pilot, lambda: type(app.screen).__name__ == "HistoryScreen")
        await until(pilot, lambda: any("play from here" in line for line in screen_lines(app)))
        lines = screen_lines(app)
        at = next(i for i, line in enumerate(lines) if "play from here" in line)
        assert lines[at][1:41].rstrip() == "action 120 of 120  b: play from here"
        assert lines[at + 1][1:41].rstrip() == "left/right: turn  ,/.: action"
