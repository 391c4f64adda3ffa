"""Undo by keys: ctrl+z asks first, hidden cash never lets one player take back another's
decision, the previous player may undo on the hand-over (and is told the true reason
after it), and undo works from the computers' pause."""

from __future__ import annotations

from pathlib import Path

from pilot import drive, humans, opened_board, screen_text, settle, told, until
from test_following import ben_takes_austria

from imperial_tui.app import ImperialApp
from imperial_tui.app.screens.game import GameScreen
from imperial_tui.model.session import Session
from rules import Game


async def test_undo_asks_and_pace_keys(tmp_path: Path) -> None:
    """ctrl+z asks first (n keeps the game, y takes the decision back); + and - change the
    computer players' pace, which is saved with the game."""

    app = ImperialApp(save_path=tmp_path / "u.json", seed=6, pace=0.0)
    async with drive(app) as pilot:
        await pilot.press("ctrl+g")
        await settle(pilot)
        session = app.session
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert type(app.screen).__name__ != "ConfirmScreen"  # nothing of Anna's yet
        await pilot.press("enter")
        await settle(pilot)
        plies = len(session.game.plies)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert type(app.screen).__name__ == "ConfirmScreen"
        # the question names whose decision it takes back, and counts the computers' moves
        question = str(app.screen.query_one(".question").render())
        assert question.startswith("Undo Anna's decision, AH ")
        assert "computer move(s)" not in question
        await pilot.press("n")
        await pilot.pause()
        assert len(session.game.plies) == plies
        await pilot.press("ctrl+z")
        await pilot.pause()
        await pilot.press("y")
        await settle(pilot)
        assert len(session.game.plies) < plies
        assert session.is_human(session.game.awaiting.player)
        pace = session.pace
        await pilot.press("minus")
        await pilot.pause()
        assert session.pace == round(pace + 0.2, 1)
        await pilot.press("plus", "plus")
        await pilot.pause()
        assert session.pace == max(0.0, round(pace - 0.2, 1))
        assert Session.load(tmp_path / "u.json").pace == session.pace


def test_hidden_cash_undo_never_goes_past_another_humans_decision() -> None:
    game = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    humans = {"Anna": "human", "Ben": "human"}
    session = Session(game, humans, None, hidden_cash=True)
    game.apply("AH rondel import")
    assert session.undo_steps() == 1  # Anna may take back her own decision
    game.apply("AH import army vienna")
    assert session.undo_steps() == 1
    game.apply("AH import done")
    assert game.awaiting.player == "Ben"  # Italy's turn: Ben decides now
    assert session.undo_steps() == 0  # Anna's decision is not Ben's to take back
    assert session.undo() == 0
    assert len(game.plies) == 3
    # with open cash the same undo is allowed
    assert Session(game, humans, None, hidden_cash=False).undo_steps() == 1


async def test_the_previous_player_undoes_on_the_hand_over_and_gets_the_true_reason(
    tmp_path: Path,
) -> None:
    g = Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=IT")
    session = Session(g, humans(g), tmp_path / "u.json", hidden_cash=True)

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Anna takes the keyboard
        await opened_board(pilot)
        app.apply_human(g.parse("AH rondel investor"))
        await pilot.pause()
        assert type(app.screen).__name__ == "HandoverScreen"
        assert "ctrl+z takes back your last decision" in screen_text(app)
        await pilot.press("ctrl+z")  # Anna, before passing the keyboard
        await pilot.pause()
        assert not g.plies and g.awaiting.player == "Anna"
        assert isinstance(app.screen, GameScreen)
        app.apply_human(g.parse("AH rondel investor"))
        await pilot.pause()
        await pilot.press("enter")  # Ben now
        await opened_board(pilot)
        await pilot.press("ctrl+z")
        await pilot.pause()
        said = " ".join(told(app))
        assert "another player decided since" not in said
        assert "keyboard is Ben's" in said and len(g.plies) == 1


async def test_undo_works_from_the_computers_pause_closing_it_first(tmp_path: Path) -> None:
    session = ben_takes_austria(tmp_path)
    session.pause = "decision"

    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        app.apply_human(session.game.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "PausedScreen")
        assert len(session.game.plies) > 1  # a computer decided after Anna
        await pilot.press("ctrl+z")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("n")  # not now: the computers go on (and pause again)
        await until(pilot, lambda: type(app.screen).__name__ == "PausedScreen")
        await pilot.press("ctrl+z")
        await until(pilot, lambda: type(app.screen).__name__ == "ConfirmScreen")
        await pilot.press("y")
        await until(pilot, lambda: len(session.game.plies) == 0)
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        assert session.game.awaiting.player == "Anna"


async def test_the_hand_over_says_its_undo_takes_the_computers_moves_back_too() -> None:
    """The hand-over's ctrl+z asks nothing more, and it took back a computer's move made in
    between without a word (a club organiser's report): the line says so."""
    from helpers import give_turn, new_game

    built = new_game(3)
    give_turn(built, "AH", None)
    g = Game.from_position(built.summary())
    controllers = {"Anna": "human", "Ben": "bot:greedy", "Cleo": "human"}
    session = Session(g, controllers, None, hidden_cash=True, pace=0.0)
    app = ImperialApp(session=session, pace=0.0)
    async with drive(app) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # Anna takes the keyboard
        await opened_board(pilot)
        app.apply_human(g.parse("AH rondel investor"))
        await until(pilot, lambda: type(app.screen).__name__ == "HandoverScreen")
        computers = len(g.plies) - 1
        assert computers >= 1  # (else this shows nothing)
        moves = "computer move" if computers == 1 else "computer moves"
        said = " ".join(screen_text(app).replace("█", " ").split())
        assert f"Anna: ctrl+z takes back your last decision and the {computers} {moves}" in said
        await pilot.press("ctrl+z")
        await until(pilot, lambda: not g.plies)
