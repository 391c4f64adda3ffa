"""What ``explain`` and a refusal say, read as a rules lawyer reads them (an audit from the
command line): the payment of a bond upgrade, a step a nation may leave out, whose bond it
is, which interest a short treasury cannot pay, where donations are in the rules."""

from __future__ import annotations

from helpers import (
    bonds_of,
    give_bond,
    give_turn,
    new_game,
    set_cash,
    set_treasury,
    take_bond,
)

from rules import Game
from rules.explain import explain


def investing_ben() -> Game:
    """Four players; Austria-Hungary lands on Investor and Ben, with the investor card, holds
    GB 4 and may trade it up."""
    game = new_game(4)
    give_turn(game, "AH", None)
    game.apply("AH rondel investor")
    assert game.awaiting is not None and game.awaiting.player == "Ben"
    assert bonds_of(game, "Ben", "GB") == [4]
    return game


def test_upgrading_a_bond_pays_the_difference_rules_5_5_2() -> None:
    """Upgrading: "He returns it to the pile, takes a higher available bond of the same
    nation and pays only the difference" (RULES.md §5.5.2), not "the bond's value"."""
    answer = explain(investing_ben(), "Ben buys GB 6 returning GB 4")
    assert answer.legal
    assert "returns the smaller bond and pays the difference" in answer.headline()
    assert "bond's value" not in answer.headline()
    plain = explain(investing_ben(), "Ben buys GB 2")
    assert "pays the bond's value" in plain.headline()


def test_a_bond_in_a_players_hands_names_its_owner() -> None:
    game = investing_ben()
    give_bond(game, "Cleo", "GB", 9)
    assert "the GB 4M bond is not in the pile; Ben already owns it" in (
        explain(game, "Ben buys GB 4").headline()
    )
    assert "the GB 9M bond is not in the pile; Cleo owns it" in (
        explain(game, "Ben buys GB 9").headline()
    )


def test_a_step_the_nation_may_leave_out_is_a_decision_on_it() -> None:
    """Building is optional ("GE build no factory" is legal), as importing and investing are:
    an action out of turn is not told that the player "must build a factory"."""
    answer = explain(investing_ben(), "AH import army vienna")
    assert "Ben must decide whether to invest now" in answer.headline()
    game = new_game(4)
    give_turn(game, "AH", None)
    game.apply("AH rondel factory")
    words = explain(game, "AH import army vienna").headline()
    assert "must decide on a factory now" in words, words
    assert "AH build no factory" in [str(a) for a in game.legal_actions()]


def test_investor_refused_for_the_interest_owed_to_the_others_rules_5_5_1() -> None:
    """The treasury pays the other holders first and the government gives up their own
    interest (RULES.md §5.5.1): the shortfall named is of what the others are owed."""
    game = new_game(4)
    give_turn(game, "AH", None)
    take_bond(game, "AH", 4)  # (Cleo's)
    give_bond(game, "Ben", "AH", 6)  # 3M of interest owed to Ben; Anna's own 4M is given up
    set_treasury(game, "AH", 1)
    set_cash(game, "Anna", 0)
    words = explain(game, "AH rondel investor").headline()
    assert "its treasury is 2M short of the interest it owes the other bondholders" in words
    assert "Anna, its government, cannot pay that in cash" in words


def test_a_donation_is_cited_as_a_money_rule_rules_1_5() -> None:
    """A player may donate to any treasury at any time (RULES.md §1.5), not only at Import."""
    game = investing_ben()
    answer = explain(game, "Ben donates 3 to GE")
    assert answer.rule.short() == "Money, donations"
    assert answer.rule.page == "overview"
