"""A Swiss bank's question says what it decides (RULES.md §3.5, §7): the move that passes
Investor, the interest a stop forced there pays, and, when the nation's Taxation would
reach 25 power points, that letting it go on ends the game. At 80x24 the question was cut
to "decide whether to" over a blank line (a player's report)."""

from __future__ import annotations

from pilot import drive, humans, screen_text, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.position_text import read_position_text
from rules.preview import interest_text, swiss_bank_text

POSITION = """
players = ["Anna", "Ben", "Cleo"]
to_move = "IT rondel"
round = 15
edition = "2010"
[Anna]
cash = 7
bonds = ["IT 16"]
[Ben]
cash = 10
bonds = ["IT 4", "IT 12", "GE 4"]
[Cleo]
cash = 20
bonds = ["AH 2"]
[IT]
governor = "Ben"
rondel = "maneuver1"
treasury = 30
power = 20
tax = 14
factories = ["rome", "florence", "naples", "venice", "genoa"]
flags = ["tunis", "western_mediterranean", "ionian_sea", "algeria", "greece"]
[GE]
governor = "Ben"
power = 10
rondel = "factory"
[AH]
governor = "Cleo"
"""


def asked() -> Game:
    game = Game.from_position(read_position_text(POSITION))
    game.apply("IT rondel taxation")  # passes Investor: Anna holds no government
    assert game.awaiting is not None and game.awaiting.kind == "swiss_bank"
    assert game.awaiting.player == "Anna"
    return game


def test_the_question_names_the_move_the_interest_and_the_end_of_the_game() -> None:
    game = asked()
    s = game.state
    text = swiss_bank_text(s)
    assert text.startswith("Italy moves from Maneuver to Taxation, passing Investor. ")
    assert f"Forced to stop there: {interest_text(s, s.turn)}." in text
    assert text.endswith("Let go on, its Taxation reaches 25: the game ends.")
    # what it says comes true: let go on, Italy's Taxation ends the game
    game.apply("Anna lets IT pass")
    assert game.is_over


async def test_at_80x24_the_question_is_read_whole() -> None:
    game = asked()
    app = ImperialApp(session=Session(game, humans(game), None), pace=0.0, ascii_only=False)
    async with drive(app) as pilot:
        await until(pilot, lambda: "force a stop?" in screen_text(app))
        box = " ".join(
            line.split("│")[1].strip()
            for line in screen_text(app).splitlines()
            if line.count("│") >= 2
        )
        assert "Decide: IT Anna - force a stop?" in box
        assert "passing Investor. Forced to stop there: interest" in box
        assert "the game ends." in box


def test_imperial_moves_says_it_too(tmp_path) -> None:
    from typer.testing import CliRunner

    from imperial_tui.cli import app
    from rules.savefile import save_game

    game = asked()
    path = tmp_path / "swiss.json"
    save_game(game, path)
    out = CliRunner().invoke(app, ["moves", str(path)]).stdout
    assert out.splitlines()[:3] == [
        "Anna decides (swiss_bank, IT):",
        "  Anna forces IT to investor",
        "  Anna lets IT pass",
    ]
    assert out.splitlines()[3] == swiss_bank_text(game.state)
