"""The donation box (d, the decision list's entry, the palette's Donate): RULES.md §1.5, "a
player may donate personal cash to any treasury at any time". An amount the engine refuses
keeps the box open with the engine's reason; closing it would hand the next Enter to the
decision list behind, which played a move (a newcomer's report)."""

from __future__ import annotations

from pilot import drive, humans, screen_text, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.numbers import whole_number
from imperial_tui.model.session import Session
from rules import Game


def one_human_game() -> tuple[Session, str, str, int]:
    game = Game.new(["Anna", "Ben", "Cleo"], seed=5)
    aw = game.awaiting
    assert aw is not None and aw.nation is not None
    game.state.cash[game.players.index(aw.player)] = cash = 5
    return Session(game, humans(game), None), aw.player, aw.nation, cash


def box_problem(app: ImperialApp) -> str | None:
    """The reason shown in the open box, or None when none is shown."""
    problem = app.screen.query_one("#prompt-problem")
    return str(problem.render()) if problem.display else None


async def test_an_amount_the_engine_refuses_keeps_the_box_open_with_its_reason() -> None:
    session, player, nation, cash = one_human_game()
    before = len(session.game.plies)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        for typed, reason in (
            ("abc", "give a whole number of millions, such as 3"),
            ("-2", "a donation is at least 1M"),
            ("0", "a donation is at least 1M"),
            (str(cash + 1), f"{player} cannot donate {cash + 1}M with only {cash}M in cash"),
            ("3_0", "give a whole number of millions, such as 3"),
        ):
            await pilot.press("d")
            await until(pilot, lambda: type(app.screen).__name__ == "PromptScreen", what="box")
            await pilot.press(*typed, "enter")
            await pilot.pause()
            assert type(app.screen).__name__ == "PromptScreen", typed
            assert box_problem(app) == reason
            assert reason in screen_text(app)
            # typing again clears the reason; escape leaves the game as it was
            await pilot.press("1")
            await pilot.pause()
            assert box_problem(app) is None
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen).__name__ == "GameScreen"
            assert len(session.game.plies) == before
        # an amount the engine takes closes the box and is given
        await pilot.press("d")
        await until(pilot, lambda: type(app.screen).__name__ == "PromptScreen", what="box")
        await pilot.press(*"abc", "enter")
        await pilot.press("backspace", "backspace", "backspace", "1", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "GameScreen"
        assert str(session.game.plies[-1].action) == f"{player} donates 1 to {nation}"
        assert session.game.can_donate(player) == cash - 1


async def test_the_palette_offers_donate() -> None:
    session, player, nation, _ = one_human_game()
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("ctrl+p", *"donate")
        await until(pilot, lambda: "Donate..." in screen_text(app), what="the palette's line")
        await pilot.press("enter")
        await until(pilot, lambda: type(app.screen).__name__ == "PromptScreen", what="box")
        assert f"{player}: donate how many M to {nation}'s treasury?" in screen_text(app)


def test_whole_number_takes_ascii_digits_with_a_sign_only() -> None:
    assert all(whole_number(t) for t in ("3", "+3", "-2", "0", "12"))
    assert not any(whole_number(t) for t in ("", "-", "3_000", "٣", "1.5", "3M", " 3", "--3"))
