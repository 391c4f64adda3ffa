"""ctrl+s says where the game went on the board's last-event line, for a few seconds, and
hides nothing (issue #24, item 7: a toast covered the bottom of the decision list at 80x24
and showed the absolute data-folder path)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot import drive, humans, screen_lines, told, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game


async def test_ctrl_s_says_saved_on_the_last_event_line_not_over_the_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    game = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    session = Session(game, humans(game), tmp_path / "games" / "g.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        before = screen_lines(app)[:-2]  # everything above the last-event line and footer
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "saved to games/g.json" in screen_lines(app)[-2])
        assert (tmp_path / "games" / "g.json").exists()
        assert not [said for said in told(app) if "saved" in said]  # no toast
        assert screen_lines(app)[:-2] == before  # the decision list and panels as they were
        assert str(tmp_path) not in "\n".join(screen_lines(app))
        app.screen._end_note()  # the few seconds are over
        await until(pilot, lambda: "saved to" not in screen_lines(app)[-2])


async def test_the_quit_question_names_the_save_as_ctrl_s_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ctrl+q's question said "The game is saved in /root/.local/share/imperial/g....json"
    where ctrl+s said "saved to ~/.local/share/imperial/...": one path, the short one."""
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(elsewhere)  # the save is not under the current folder: from ~
    game = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    session = Session(game, humans(game), home / "games" / "g.json")
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("ctrl+q")
        await until(pilot, lambda: "Quit Imperial?" in " ".join(screen_lines(app)))
        dialog = [line.split("█")[1] for line in screen_lines(app) if line.count("█") >= 2]
        text = " ".join(" ".join(dialog).split())
        assert "The game is saved in ~/games/g.json." in text
        assert str(tmp_path) not in text
        await pilot.press("n")
