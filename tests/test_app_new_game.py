"""The new-game screen and the file commands by keys: the quit keys ask wherever the focus
is, the save path is told on the log line (not in a toast over the first decision), a new
game keeps the seats of the game on show and Load lists the saved games."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot import drive, opened_board, told

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game


@pytest.mark.parametrize("key", ["ctrl+q", "ctrl+c"])
async def test_quit_keys_ask_on_the_new_game_screen_whatever_has_the_focus(key: str) -> None:
    app = ImperialApp(seed=1, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        # a name field, a dropdown, an open dropdown, the rule options list
        for moves in ([], ["tab"], ["enter"], ["escape", *["tab"] * 18]):
            await pilot.press(*moves)
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()
            assert type(app.screen).__name__ == "ConfirmScreen", (moves, app.focused)
            await pilot.press("n")
            await pilot.pause()
        await pilot.press(key, "y")
        await pilot.pause()
    assert app.return_code == 0


async def test_the_save_path_is_on_the_log_line_not_a_toast(tmp_path: Path) -> None:
    app = ImperialApp(save_path=tmp_path / "s.json", seed=3, pace=0.0)
    async with drive(app) as pilot:
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert not [n for n in told(app) if "saved" in n]
        tail = str(app.game_screen().query_one("#logtail").render())
        assert "saved after every move to" in tail and "s.json" in tail


async def test_new_game_keeps_the_seats_and_load_lists_saved_games(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "imperial"
    folder.mkdir()
    older = Game.new(["Xena", "Yuri"], seed=8)
    Session(older, {"Xena": "human", "Yuri": "bot:random"}, folder / "old.json").save()
    game = Game.new(["Zed", "Yan", "Wu"], seed=9)
    controllers = {"Zed": "human", "Yan": "bot:greedy", "Wu": "bot:random"}
    session = Session(game, controllers, folder / "now.json")
    session.save()

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, opened=True) as pilot:
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert type(app.screen).__name__ == "LoadScreen"
        listed = app.screen.query_one("#load-list")
        chosen = listed.get_option_at_index(listed.highlighted).prompt.plain
        assert "Xena, Yuri" in chosen and "(on show)" not in chosen  # the first other game
        await pilot.press("enter")
        await opened_board(pilot)
        assert app.session.path == folder / "old.json"
        await pilot.press("ctrl+n", "y")
        await pilot.pause()
        assert type(app.screen).__name__ == "NewGameScreen"
        names = [app.screen.query_one(f"#seat-name-{i}").value for i in range(3)]
        kinds = [app.screen.query_one(f"#seat-kind-{i}").value for i in range(3)]
        assert names[:2] == ["Xena", "Yuri"]  # the game on show's seats
        assert kinds[:3] == ["human", "bot:random", "off"]


async def test_down_and_up_go_from_a_seats_name_to_the_next_and_back() -> None:
    """Down in a name field scrolled the form and left the focus there: a newcomer pressed
    down twice, typed, and replaced seat 1's name. Down and up go from line to line."""
    app = ImperialApp(seed=1, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        first = app.screen.query_one("#seat-name-0").value
        assert app.focused is not None and app.focused.id == "seat-name-0"
        await pilot.press("down", "down")
        assert app.focused.id == "seat-name-2"
        await pilot.press(*"Zed")
        await pilot.press("up")
        assert app.focused.id == "seat-name-1"
        assert app.screen.query_one("#seat-name-2").value == "Zed"
        assert app.screen.query_one("#seat-name-0").value == first
