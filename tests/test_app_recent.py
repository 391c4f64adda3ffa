"""The app remembers the table and the game last played (issue #24, item 8): the new-game
screen starts from the seats of the last new game and can set every computer seat's level
at once; "continue" offers the game played last, also one opened with ``imperial play FILE``
outside the save folder; a damaged memory file is ignored."""

from __future__ import annotations

from pathlib import Path

from pilot import drive, humans, until
from textual.widgets import Input, Select

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.load import LoadScreen
from imperial_tui.app.screens.new_game import NewGameScreen
from imperial_tui.model.recent import Recent, load_recent, recent_file, save_recent
from imperial_tui.model.session import Session
from rules import Game


def seat_values(screen: NewGameScreen) -> list[tuple[str, str]]:
    return [
        (
            screen.query_one(f"#seat-name-{i}", Input).value,
            str(screen.query_one(f"#seat-kind-{i}", Select).value),
        )
        for i in range(6)
    ]


async def test_the_new_game_screen_starts_from_the_last_tables_seats() -> None:
    app = ImperialApp(pace=0.0)
    async with drive(app) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        screen.query_one("#seat-name-1", Input).value = "Zoltan"
        screen.query_one("#seat-kind-1", Select).value = "bot:strong"
        screen.query_one("#seat-kind-3", Select).value = "off"
        await pilot.press("ctrl+g")
        await until(pilot, lambda: app.session is not None)
    assert load_recent().seats == (
        ("Anna", "human"),
        ("Zoltan", "bot:strong"),
        ("Cleo", "bot:greedy"),
    )
    app = ImperialApp(pace=0.0)
    async with drive(app) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert seat_values(app.screen)[:4] == [
            ("Anna", "human"),
            ("Zoltan", "bot:strong"),
            ("Cleo", "bot:greedy"),
            ("Dan", "off"),
        ]


async def test_all_computer_seats_take_one_level_and_humans_stay() -> None:
    app = ImperialApp(pace=0.0)
    async with drive(app) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        screen.query_one("#all-computers", Select).value = "normal"
        await pilot.pause()
        kinds = [kind for _, kind in seat_values(screen)]
        assert kinds == ["human", "bot:normal", "bot:normal", "bot:normal", "off", "off"]


async def test_continue_offers_the_game_opened_with_imperial_play(tmp_path: Path) -> None:
    game = Game.new(["Anna", "Ben", "Cleo"], seed=3)
    elsewhere = tmp_path / "club" / "tuesday.json"
    session = Session(game, humans(game), elsewhere)
    session.save()
    app = ImperialApp(session=session, pace=0.0)  # as `imperial play club/tuesday.json`
    async with drive(app, opened=True):
        pass
    app = ImperialApp(pace=0.0)
    async with drive(app) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen))
        first = app.screen.query_one("#load-list").get_option_at_index(0)
        assert "Continue last game" in str(first.prompt) and "tuesday.json" in str(first.prompt)
        await pilot.press("enter")
        await until(pilot, lambda: app.session is not None)
        assert app.session.path == elsewhere.absolute()


def test_a_damaged_memory_file_is_ignored_and_replaced() -> None:
    path = recent_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in (
        "[" * 5000,
        '{"seats": [["Anna", "bot:godlike"]]}',
        '{"seats": [["A\\u0007", "human"]], "last_game": 7}',
        '{"seats": "x", "last_game": "a\\u0000b"}',
        "\x00\xff",
    ):
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        assert load_recent() == Recent()
    save_recent(Recent((("Anna", "human"),), None))
    assert load_recent().seats == (("Anna", "human"),)
