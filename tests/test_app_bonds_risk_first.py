"""At 80x24 the warning that a government the player holds could be taken (issue #24, play
log O7) sat under that nation's line, below what the bonds panel shows without scrolling:
Dan took Great Britain twice at his next investment. The player's own governments at risk
now come first in the panel, from the same ``rules.takeover`` the nations' lines use."""

from __future__ import annotations

from helpers import nation_of, new_game, set_cash
from pilot import drive, screen_lines, until

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules.takeover import takeovers


async def test_the_governors_own_nation_at_risk_is_read_without_scrolling_at_80x24() -> None:
    game = new_game(4)  # Anna governs AH and GE, and decides first
    set_cash(game, "Ben", 30)
    risks = {  # who and how: the figures in brackets may wrap to the next line
        code: " ".join(takeovers(game.state, nation_of(game, code))[0].parts()[:2])
        for code in ("AH", "GE")
    }
    assert all(words.startswith("Ben ") for words in risks.values())
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        assert session.viewer == "Anna"
        await pilot.press("2")  # the bonds panel, as it opens: not scrolled
        await until(pilot, lambda: "player" in "\n".join(screen_lines(app)))
        lines = screen_lines(app)
        for code, words in risks.items():
            assert any(f"{code} at risk: {words}" in line for line in lines), (code, lines)
        # the other nations' warnings stay under their lines (IT is Ben's: nobody's view here)
        assert not any("IT at risk" in line for line in lines)
