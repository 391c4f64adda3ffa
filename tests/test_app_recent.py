"""The app remembers the table and the game last played (issue #24, item 8): the new-game
screen starts from the seats of the last new game and can set every computer seat's level
at once; "continue" offers the game played last, also one opened with ``imperial play FILE``
outside the save folder; Load lists each save once; a damaged memory file is ignored."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pilot import drive, humans, until
from textual.widgets import Input, OptionList, Select

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


async def test_a_game_saved_as_elsewhere_stays_listed_after_another_is_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A playtest: a game saved with "save as" outside the save folder, played on there,
    then left for another game, was gone from Load; and before that "continue last game"
    offered the file saved before the "save as", an older position of the same game. The
    games played last are each listed wherever they are, newest first."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "imperial"
    folder.mkdir()
    older = folder / "older.json"
    Session(Game.new(["Anna", "Ben"], seed=1), {"Anna": "human", "Ben": "human"}, older).save()
    os.utime(older, (1e9, 1e9))
    game = Game.new(["Anna", "Ben", "Cleo"], seed=3)
    autosave = folder / "game-1.json"
    session = Session(game, humans(game), autosave)
    session.save()
    mine = tmp_path / "club" / "mine.json"
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, opened=True) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"save as", "enter")
        await until(pilot, lambda: type(app.screen).__name__ == "PromptScreen")
        field = app.screen.query_one(Input)
        field.value = str(mine)
        await pilot.press("enter")
        await until(pilot, lambda: mine.exists())
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen))
        listed = app.screen.query_one("#load-list", OptionList)
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert not any(p.startswith("Continue") for p in prompts), prompts
        assert "mine.json (on show)" in prompts[0]
        assert "game-1.json" in prompts[listed.highlighted or 0]
        await pilot.press("escape")
        app.load(older)  # another game
        await until(pilot, lambda: app.session is not None and app.session.path == older)
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen))
        listed = app.screen.query_one("#load-list", OptionList)
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert sum("mine.json" in p for p in prompts) == 1, prompts
    app = ImperialApp(pace=0.0)  # the next start: "continue" is the game played last
    async with drive(app) as pilot:
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen))
        listed = app.screen.query_one("#load-list", OptionList)
        first = str(listed.get_option_at_index(0).prompt)
        assert first.startswith("Continue last game") and "older.json" in first, first
        assert any("mine.json" in str(listed.get_option_at_index(i).prompt) for i in range(4))


async def test_load_lists_each_save_once_whatever_name_it_was_opened_by(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game on show, opened as `imperial play two.json` in the save folder, was listed
    twice: offered to continue (its relative name did not match the folder's) and again in
    the list; a second name of one file (a symbolic link) was listed twice too. Each file
    is listed once, newest first, the game on show marked and the first other highlighted.
    With a game on show no entry is "continue last game": that game is the one on show."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "imperial"
    folder.mkdir()
    for age, (name, seed) in enumerate((("tuesday.json", 3), ("two.json", 2), ("one.json", 1))):
        game = Game.new(["Anna", "Ben", "Cleo"], seed=seed)
        Session(game, humans(game), folder / name).save()
        os.utime(folder / name, (1e9 - age * 60, 1e9 - age * 60))  # tuesday the newest
    (folder / "link.json").symlink_to(folder / "tuesday.json")  # one file, two names
    monkeypatch.chdir(folder)
    session = Session.load(Path("two.json"))  # as `imperial play two.json` there
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app, opened=True) as pilot:
        await pilot.press("ctrl+o")
        await until(pilot, lambda: isinstance(app.screen, LoadScreen))
        listed = app.screen.query_one("#load-list", OptionList)
        prompts = [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]
        assert len(prompts) == 4, prompts  # three saves, another file
        assert sum("two.json" in p for p in prompts) == 1
        assert sum("one.json" in p for p in prompts) == 1
        assert sum("tuesday.json" in p or "link.json" in p for p in prompts) == 1
        assert not any(p.startswith("Continue") for p in prompts)
        assert "tuesday.json" in prompts[0] or "link.json" in prompts[0]  # the newest
        assert listed.highlighted == 0
        assert [p for p in prompts if "(on show)" in p] == [p for p in prompts if "two.json" in p]
        await pilot.press("enter")
        await until(pilot, lambda: app.session is not session, what="the game continued")
        assert app.session is not None and app.session.path is not None
        assert app.session.path.resolve() == (folder / "tuesday.json").resolve()


def test_a_damaged_memory_file_is_ignored_and_replaced() -> None:
    path = recent_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    for text in (
        "[" * 5000,
        '{"seats": [["Anna", "bot:godlike"]]}',
        '{"seats": [["A\\u0007", "human"]], "last_game": 7}',
        '{"seats": "x", "last_game": "a\\u0000b"}',
        '{"games": [7, null, "a\\u0000b"]}',
        '{"games": {"a": 1}, "last_game": []}',
        "\x00\xff",
    ):
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
        assert load_recent() == Recent()
    save_recent(Recent((("Anna", "human"),)))
    assert load_recent().seats == (("Anna", "human"),)


def test_a_save_header_names_the_round_and_a_finished_games_winner(tmp_path: Path) -> None:
    """Load listed a finished game as any other ("945 actions"): a player could not tell it
    from the game they meant to go on with. The header now holds the round and, once the
    game is over, its winners; the list reads them without replaying the game."""
    import random

    from imperial_tui.app.screens.load import read_saved

    game = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    rng = random.Random(5)
    for _ in range(40):
        game.apply(rng.choice(game.legal_actions()))
    Session(game, humans(game), tmp_path / "on.json").save()
    entry = read_saved(tmp_path / "on.json")
    assert entry is not None
    assert entry.progress() == f"round {game.state.round}, 40 actions"
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    Session(game, humans(game), tmp_path / "over.json").save()
    entry = read_saved(tmp_path / "over.json")
    result = game.result()
    assert entry is not None and result is not None and len(result.winners) == 1
    assert entry.progress() == f"{len(game.plies)} actions, over: {result.winners[0]} won"


@pytest.mark.parametrize(
    ("extra", "shown"),
    [
        ({}, "1 action"),  # an older save: no round, no winners
        ({"round": "3"}, "1 action"),
        ({"round": True}, "1 action"),
        ({"round": 10**9}, "1 action"),
        ({"winners": "Anna"}, "round 1, 1 action"),
        ({"winners": [7]}, "round 1, 1 action"),
        ({"winners": ["Anna", "Ben", "Cleo", "Dan"]}, "round 1, 1 action"),
        ({"winners": ["Anna", "Ben"]}, "1 action, over: shared by Anna and Ben"),
        ({"winners": ["\x1b[2JAnna"]}, "1 action, over: \\x1b[2JAnna won"),  # shown, not sent
    ],
)
def test_the_lists_header_fields_of_any_type_never_stop_a_listing(
    tmp_path: Path, extra: dict[str, object], shown: str
) -> None:
    import json

    from imperial_tui.app.screens.load import read_saved

    game = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    game.apply(game.legal_actions()[0])
    path = tmp_path / "g.json"
    Session(game, humans(game), path).save()
    doc = json.loads(path.read_text())
    doc.pop("round")
    path.write_text(json.dumps(doc | ({"round": 1} if "winners" in extra else {}) | extra))
    entry = read_saved(path)
    assert entry is not None
    assert entry.progress() == shown
