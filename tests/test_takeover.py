"""Who could take a government at their next investment (issue #24, item 6): the warning
the bonds panel shows under each governed nation, from the engine's own preview of a
purchase (RULES.md §5.5: the player with the most credit governs; a tie keeps the
governor)."""

from __future__ import annotations

import random

from helpers import give_bond, nation_of, new_game, set_cash
from pilot import drive, screen_text

from imperial_tui.app import ImperialApp
from imperial_tui.model.session import Session
from rules import Game
from rules.actions import Buy
from rules.takeover import takeovers


def test_a_tie_keeps_the_governor_so_the_warning_names_the_next_bond_up() -> None:
    game = new_game(4)  # Ben governs IT with the 9M bond
    set_cash(game, "Anna", 30)
    it = nation_of(game, "IT")
    [risk] = takeovers(game.state, it)
    assert risk.words() == "Anna with the 12M bond (12 > 9M)"  # 9M would only tie


def test_a_challenger_who_cannot_pay_is_no_threat_unless_their_cash_is_secret() -> None:
    game = new_game(4)
    set_cash(game, "Anna", 11)
    it = nation_of(game, "IT")
    assert takeovers(game.state, it) == []
    secret = next(t for t in takeovers(game.state, it, lambda p: False) if t.player == "Anna")
    assert secret.affordable is None
    assert secret.words().endswith("(12 > 9M, if the cash is there)")


def test_a_trade_up_is_the_cheaper_way_when_it_is() -> None:
    game = new_game(4)
    give_bond(game, "Cleo", "IT", 6)  # Cleo 6 vs Ben 9: the 12M for the 6M costs 6M
    give_bond(game, "Dan", "IT", 4)  # (the 4M bond would do for 4M: it is gone)
    set_cash(game, "Cleo", 6)
    it = nation_of(game, "IT")
    [risk] = takeovers(game.state, it)
    assert (risk.player, risk.value, risk.returning, risk.price) == ("Cleo", 12, 6, 6)
    assert risk.words() == "Cleo trading up 6M to 12M (12 > 9M)"


def test_every_warning_is_a_legal_purchase_that_the_engine_says_takes_the_nation() -> None:
    """In random games, at each investment, each warning for the player investing names a
    purchase the engine lists, and after it the engine's government check hands them the
    nation (when nobody else buys in between: the next check comes at once)."""
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=seed)
        for _ in range(400):
            aw = game.awaiting
            if aw is None:
                break
            if aw.kind == "invest":
                s = game.state
                legal = {str(a) for a in game.legal_actions()}
                for n, code in enumerate(s.board.codes):
                    for risk in takeovers(s, n):
                        if risk.player != aw.player:
                            continue
                        buy = Buy(risk.player, code, risk.value, risk.returning)
                        assert str(buy) in legal, (seed, str(buy))
                        after = Game.from_position(game.summary())
                        after.apply(str(buy))
                        while after.awaiting is not None and after.awaiting.kind == "invest":
                            after.apply(f"{after.awaiting.player} passes")
                        assert after.state.government[n] == s.players.index(risk.player)
                        checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked >= 5


async def test_the_bonds_panel_warns_under_the_nation_at_risk() -> None:
    game = new_game(4)
    set_cash(game, "Anna", 30)
    session = Session(game, dict.fromkeys(game.players, "human"), None)
    app = ImperialApp(session=session, pace=0.0, ascii_only=False)
    async with drive(app, opened=True) as pilot:
        await pilot.press("2", "end")  # the bonds panel, scrolled to its nations
        await pilot.pause()
        text = screen_text(app)
        assert "at risk: Anna with the 12M bond" in text
