"""Which nation the treasuries panel marks (▶) while the investor card pays out (issue #24,
play log O9: "▶ on GE during Anna's investor decision in GB's turn"). RULES.md: the Investor
is triggered by the rondel move of the nation whose turn it is (landing on it or passing it),
and the payout and the investing belong to that nation's turn; the engine keeps ``turn`` on
that nation until the card has passed on, and ▶ marks it."""

from __future__ import annotations

from helpers import nation_of, new_game
from pilot import drive, screen_lines, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules.actions import RONDEL_SPACES
from rules.decisions import Decision


async def test_the_marker_stays_on_the_nation_whose_move_triggered_the_investor() -> None:
    game = new_game(4)  # Anna decides AH's first rondel move
    s = game.state
    s.rondel[nation_of(game, "AH")] = RONDEL_SPACES.index("maneuver1")  # Investor next
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("home", "down", "enter")  # Import, one step beyond the Investor
        await until(pilot, lambda: any(p.action.kind == "rondel" for p in game.plies))
        assert str(game.plies[-1].action) == "AH rondel import"
        await until(pilot, lambda: game.awaiting.kind in (Decision.INVEST, Decision.IMPORT))
        while game.awaiting.kind == Decision.IMPORT:  # AH's import first, then the payout
            await pilot.press("end", "enter")  # done importing
            await pilot.pause()
        assert game.awaiting.kind == Decision.INVEST  # the card holder's decision
        await until(pilot, lambda: "invest" in screen_lines(app)[0])
        marked = [line for line in screen_lines(app) if "▶" in line]
        assert len(marked) == 1 and "▶AH" in marked[0].replace(" ", ""), marked
        assert "invest · AH's turn" in screen_lines(app)[0]  # the status line names it too
