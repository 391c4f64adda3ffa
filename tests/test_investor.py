"""Investor (RULES.md §5.5, §3.4): interest and its shortfall, the investor card, buying and
upgrading bonds, players without a government, government changes and their tie-breaks, card
passing, passing Investor and the game-ending Taxation."""

from __future__ import annotations

import pytest
from helpers import (
    bonds_of,
    cash,
    finn_governs_nothing,
    give_bond,
    give_turn,
    governor,
    investor_holder,
    money_total,
    nat,
    new_game,
    pass_all_investors,
    play,
    player,
    set_cash,
    set_factories,
    set_treasury,
    take_bond,
    treasury,
)

from rules import IllegalAction, RuleSet


def legal(g):
    return {a.notation() for a in g.legal_actions()}


def _investor_turn(g, nation="AH", origin=None):
    give_turn(g, nation, origin)
    g.apply(f"{nation} rondel investor")


# ------------------------------------------------------------------------------- interest


def test_investor_interest_paid_to_every_bondholder_from_the_treasury():
    g = new_game()
    total = money_total(g.state)
    _investor_turn(g)
    assert cash(g, "Anna") == 4  # AH 9M
    assert cash(g, "Cleo") == 2  # AH 4M (FR's flag card)
    assert treasury(g, "AH") == 13 - 6
    assert money_total(g.state) == total  # interest moves treasury money to players


def test_investor_interest_on_each_of_several_bonds():
    g = new_game()
    give_bond(g, "Cleo", "AH", 16)
    _investor_turn(g)
    assert cash(g, "Cleo") == 2 + 6


def test_investor_interest_shortfall_government_gives_up_own_interest_first():
    g = new_game()
    set_treasury(g, "AH", 5)
    _investor_turn(g)
    assert cash(g, "Cleo") == 2  # the others are paid first
    assert cash(g, "Anna") == 3  # of her 4M
    assert treasury(g, "AH") == 0


def test_investor_interest_shortfall_government_pays_the_rest_from_his_cash():
    g = new_game()
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 5)
    _investor_turn(g)
    assert cash(g, "Cleo") == 2
    assert cash(g, "Anna") == 4  # paid 1M, received nothing
    assert treasury(g, "AH") == 0


def test_investor_interest_shortfall_forbids_investor_when_government_cannot_pay():
    g = new_game()
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 0)
    give_turn(g, "AH", None)
    before = g.summary()
    assert "AH rondel investor" not in legal(g)
    with pytest.raises(IllegalAction, match="cannot choose Investor"):
        g.apply("AH rondel investor")
    assert g.summary() == before


def test_investor_interest_shortfall_counts_the_rondel_cost_too():
    g = new_game()
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 2)  # 2M move + 1M shortfall > 2M
    give_turn(g, "AH", "taxation")  # taxation -> investor: 4 spaces, 2M
    assert "AH rondel investor" not in legal(g)
    set_cash(g, "Anna", 3)
    assert "AH rondel investor" in legal(g)


def test_investor_interest_shortfall_pay_what_possible_option():
    g = new_game(interest_shortfall="pay_what_possible")
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 0)
    _investor_turn(g)
    assert cash(g, "Cleo") == 1
    assert cash(g, "Anna") == 0
    assert treasury(g, "AH") == 0


def test_investor_nation_without_bonds_owes_nothing():
    g = new_game()
    for v in (9, 4):
        take_bond(g, "AH", v)
    _investor_turn(g)
    assert treasury(g, "AH") == 13


# ------------------------------------------------------------------------------- the card


def test_investor_card_holder_receives_2m_from_the_bank_and_invests_in_any_nation():
    g = new_game()
    set_cash(g, "Ben", 10)
    _investor_turn(g)
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Ben"
    assert cash(g, "Ben") == 12
    buys = legal(g)
    for c in ("AH", "IT", "FR", "GB", "GE", "RU"):
        assert f"Ben buys {c} 12" in buys
    assert "Ben buys AH 16" not in buys  # cannot afford
    assert "Ben passes" in buys


def test_investor_buying_a_new_bond_pays_its_full_price_into_the_treasury():
    g = new_game()
    set_cash(g, "Ben", 10)
    _investor_turn(g)
    t = treasury(g, "FR")
    g.apply("Ben buys FR 12")
    assert cash(g, "Ben") == 0
    assert treasury(g, "FR") == t + 12
    assert bonds_of(g, "Ben", "FR") == [12]
    assert 12 not in g.summary()["nations"]["FR"]["bonds_available"]


def test_investor_italian_upgrade_example_return_it_4_take_it_12_pay_8():
    g = new_game()  # Eve holds IT 4M through the GE flag card
    g.state.investor_card = player(g, "Eve")
    set_cash(g, "Eve", 6)
    _investor_turn(g)
    assert cash(g, "Eve") == 8
    t = treasury(g, "IT")
    assert "Eve buys IT 12 returning IT 4" in legal(g)
    g.apply("Eve buys IT 12 returning IT 4")
    assert bonds_of(g, "Eve", "IT") == [12]
    assert cash(g, "Eve") == 0
    assert treasury(g, "IT") == t + 8
    assert 4 in g.summary()["nations"]["IT"]["bonds_available"]  # back in the pile


def test_investor_upgrade_may_take_any_higher_bond_by_default():
    g = new_game()
    g.state.investor_card = player(g, "Eve")
    set_cash(g, "Eve", 30)
    _investor_turn(g)
    ups = {a for a in legal(g) if "returning IT" in a}
    assert ups == {f"Eve buys IT {v} returning IT 4" for v in (6, 12, 16, 20, 25)}


def test_investor_upgrade_next_higher_only_option():
    g = new_game(bond_upgrade="next_higher")
    g.state.investor_card = player(g, "Eve")
    set_cash(g, "Eve", 30)
    _investor_turn(g)
    ups = {a for a in legal(g) if "returning IT" in a}
    assert ups == {"Eve buys IT 6 returning IT 4"}  # IT 9 is owned by Ben: 6 is next
    with pytest.raises(IllegalAction, match="next higher"):
        g.apply("Eve buys IT 12 returning IT 4")


def test_investor_upgrade_must_return_an_owned_lower_bond_of_the_same_nation():
    g = new_game()
    g.state.investor_card = player(g, "Eve")
    set_cash(g, "Eve", 30)
    _investor_turn(g)
    before = g.summary()
    with pytest.raises(IllegalAction, match="does not own"):
        g.apply("Eve buys IT 12 returning IT 2")
    give_bond(g, "Eve", "IT", 16)
    with pytest.raises(IllegalAction, match="higher bond"):
        g.apply("Eve buys IT 12 returning IT 16")
    take_bond(g, "IT", 16)
    with pytest.raises(IllegalAction):
        g.apply("Eve buys IT 12 returning GE 4")  # notation refuses another nation
    assert g.summary() == before


def test_investor_only_bonds_still_in_the_pile_can_be_bought():
    g = new_game()
    set_cash(g, "Ben", 20)
    _investor_turn(g)
    with pytest.raises(IllegalAction, match="not in the pile"):
        g.apply("Ben buys AH 9")
    with pytest.raises(IllegalAction, match="no 30M bond"):
        g.apply("Ben buys AH 30")  # first edition: no 30M bond


def test_investor_cannot_spend_more_than_personal_cash():
    g = new_game()
    set_cash(g, "Ben", 0)
    _investor_turn(g)
    with pytest.raises(IllegalAction, match="cannot pay"):
        g.apply("Ben buys AH 6")
    g.apply("Ben buys AH 2")
    assert cash(g, "Ben") == 0


def test_investor_investing_is_optional():
    g = new_game()
    _investor_turn(g)
    g.apply("Ben passes")
    assert bonds_of(g, "Ben", "AH") == []
    assert cash(g, "Ben") == 2


def test_investor_only_the_awaited_player_may_invest():
    g = new_game()
    set_cash(g, "Cleo", 20)
    _investor_turn(g)
    with pytest.raises(IllegalAction, match="Ben's turn"):
        g.apply("Cleo buys AH 2")


def test_investor_card_passes_clockwise_after_the_investor_turn():
    g = new_game()
    _investor_turn(g)
    g.apply("Ben passes")
    assert investor_holder(g) == "Cleo"
    g.state.investor_card = player(g, "Finn")
    _investor_turn(g, "IT", None)
    g.apply("Finn passes")
    assert investor_holder(g) == "Anna"  # round the table


# ------------------------------------------------------------------- players without government


def test_investor_players_without_government_invest_after_the_card_holder_without_2m():
    g = new_game()
    finn_governs_nothing(g)
    set_cash(g, "Finn", 6)
    _investor_turn(g)
    g.apply("Ben passes")
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Finn"
    assert cash(g, "Finn") == 6  # no 2M
    g.apply("Finn buys GB 6")
    assert bonds_of(g, "Finn", "GB") == [6]
    assert g.awaiting.nation == "IT"


def test_investor_players_without_government_go_clockwise_from_the_card_holder():
    g = new_game()
    finn_governs_nothing(g)
    g.state.government[nat("GB")] = player(g, "Cleo")  # Dan governs nothing either
    g.state.investor_card = player(g, "Eve")
    _investor_turn(g)
    order = []
    while g.awaiting.kind == "invest":
        order.append(g.awaiting.player)
        g.apply(f"{g.awaiting.player} passes")
    assert order == ["Eve", "Finn", "Dan"]


def test_investor_card_holder_without_government_invests_only_once():
    g = new_game()
    finn_governs_nothing(g)
    g.state.investor_card = player(g, "Finn")
    set_cash(g, "Finn", 0)
    _investor_turn(g)
    assert g.awaiting.player == "Finn"
    g.apply("Finn buys AH 2")
    assert g.awaiting.nation == "IT"  # not asked a second time


def test_investor_swiss_bank_holders_invest_in_2010():
    g = new_game(rules=RuleSet.preset("2010"))
    finn_governs_nothing(g)
    assert g.summary()["players"][5]["swiss_bank"] is True
    assert g.summary()["players"][4]["swiss_bank"] is False
    _investor_turn(g)
    g.apply("Ben passes")
    assert g.awaiting.player == "Finn"


# ------------------------------------------------------------------------------- governments


def test_investor_government_changes_to_strictly_higher_credit():
    g = new_game()
    set_cash(g, "Ben", 10)
    _investor_turn(g)
    g.apply("Ben buys AH 12")  # Ben 12 > Anna 9
    assert governor(g, "AH") == "Ben"
    assert "AH" in g.summary()["players"][1]["governs"]


def test_investor_government_tie_keeps_the_current_government():
    g = new_game()
    give_bond(g, "Anna", "AH", 16)  # Anna 25
    give_bond(g, "Dan", "AH", 25)  # Dan 25
    _investor_turn(g)
    g.apply("Ben passes")
    assert governor(g, "AH") == "Anna"


def test_investor_government_changes_after_a_purchase_breaks_the_tie():
    g = new_game()
    give_bond(g, "Anna", "AH", 16)
    give_bond(g, "Dan", "AH", 25)
    g.state.investor_card = player(g, "Dan")
    _investor_turn(g)
    g.apply("Dan buys AH 2")  # 27 > 25
    assert governor(g, "AH") == "Dan"


def _tied_challengers(g):
    """Anna governs AH with 9M; Dan (16M) and Finn (12M + 4M) challenge with 16M each."""
    give_bond(g, "Dan", "AH", 16)
    take_bond(g, "AH", 4)
    give_bond(g, "Finn", "AH", 4)
    give_bond(g, "Finn", "AH", 12)


def test_investor_government_tied_challengers_first_clockwise_from_card_holder_wins():
    g = new_game()
    _tied_challengers(g)
    _investor_turn(g)  # card holder Ben: Cleo, Dan, Eve, Finn ... -> Dan
    g.apply("Ben passes")
    assert governor(g, "AH") == "Dan"
    g = new_game()
    _tied_challengers(g)
    g.state.investor_card = player(g, "Eve")  # Eve, Finn, ... -> Finn
    _investor_turn(g)
    g.apply("Eve passes")
    assert governor(g, "AH") == "Finn"


def test_investor_government_check_is_made_before_the_card_moves_on():
    g = new_game()
    _tied_challengers(g)
    g.state.investor_card = player(g, "Dan")  # after passing, the card goes to Eve
    _investor_turn(g)
    g.apply("Dan passes")
    assert governor(g, "AH") == "Dan"  # Dan counted from himself, not Finn from Eve
    assert investor_holder(g) == "Eve"


def test_investor_government_tie_card_holder_counts_first_by_default():
    g = new_game()
    give_bond(g, "Ben", "AH", 16)  # card holder Ben 16
    give_bond(g, "Cleo", "AH", 12)  # Cleo 4 + 12 = 16
    _investor_turn(g)
    g.apply("Ben passes")
    assert governor(g, "AH") == "Ben"


def test_investor_government_tie_card_holder_counts_last_option():
    g = new_game(government_tie_holder_first=False)
    give_bond(g, "Ben", "AH", 16)
    give_bond(g, "Cleo", "AH", 12)
    _investor_turn(g)
    g.apply("Ben passes")
    assert governor(g, "AH") == "Cleo"


def test_investor_government_checked_only_at_the_end_of_the_investor_turn():
    g = new_game()
    finn_governs_nothing(g)
    set_cash(g, "Ben", 10)
    set_cash(g, "Finn", 16)
    _investor_turn(g)
    g.apply("Ben buys AH 12")
    assert governor(g, "AH") == "Anna"  # not yet: Finn still invests
    g.apply("Finn buys AH 16")
    assert governor(g, "AH") == "Finn"


def test_investor_government_may_change_in_every_nation_at_one_check():
    g = new_game()
    give_bond(g, "Dan", "AH", 25)
    give_bond(g, "Dan", "RU", 25)
    _investor_turn(g)
    g.apply("Ben passes")
    assert governor(g, "AH") == "Dan" and governor(g, "RU") == "Dan"
    assert governor(g, "GB") == "Dan"


def _four_players_ah_undealt(rules=None):
    # AH and FR undealt; FR goes to Dan (RU card: FR 4M); nobody holds an AH bond
    g = new_game(4, rules=rules, deal="Anna=IT,Ben=GB,Cleo=GE,Dan=RU")
    assert governor(g, "AH") is None
    assert investor_holder(g) == "Ben"  # left of IT's government
    set_cash(g, "Ben", 10)
    _investor_turn(g, "IT")
    return g


def test_investor_unassigned_flag_not_claimed_by_a_2m_bond_first_edition():
    g = _four_players_ah_undealt()
    g.apply("Ben buys AH 2")
    assert governor(g, "AH") is None
    assert g.awaiting.nation == "FR"


def test_investor_unassigned_flag_claimed_by_first_bond_of_at_least_4m():
    g = _four_players_ah_undealt()
    g.apply("Ben buys AH 4")
    assert governor(g, "AH") == "Ben"


def test_investor_unassigned_flag_claimed_by_upgrading_to_4m():
    g = _four_players_ah_undealt()
    give_bond(g, "Ben", "AH", 2)
    g.apply("Ben buys AH 6 returning AH 2")
    assert governor(g, "AH") == "Ben"


def test_investor_unassigned_flag_any_bond_claims_in_2010():
    g = _four_players_ah_undealt(RuleSet.preset("2010"))
    g.apply("Ben buys AH 2")
    assert governor(g, "AH") == "Ben"


def test_investor_unassigned_flag_option_min_bond_2_in_first_edition():
    g = _four_players_ah_undealt(RuleSet().with_options(unassigned_flag_min_bond=2))
    g.apply("Ben buys AH 2")
    assert governor(g, "AH") == "Ben"


# ------------------------------------------------------------- second-edition 1M rule (option)


def _takeover_of_finns_last_government(option, ben_cash):
    g = new_game(last_government_payment=option)  # Finn governs only RU (RU 9M), 0 power
    set_cash(g, "Ben", ben_cash)
    set_cash(g, "Finn", 0)
    _investor_turn(g)
    return g


def test_investor_last_government_payment_off_by_default():
    g = _takeover_of_finns_last_government("off", 11)
    g.apply("Ben buys RU 12")
    assert governor(g, "RU") == "Ben"
    assert cash(g, "Finn") == 0 and cash(g, "Ben") == 1


def test_investor_last_government_payment_strict_pays_1m():
    g = _takeover_of_finns_last_government("strict", 11)
    g.apply("Ben buys RU 12")
    assert governor(g, "RU") == "Ben"
    assert cash(g, "Finn") == 1 and cash(g, "Ben") == 0


def test_investor_last_government_payment_strict_forbids_a_takeover_he_cannot_pay():
    g = _takeover_of_finns_last_government("strict", 10)
    assert "Ben buys RU 12" not in legal(g)
    with pytest.raises(IllegalAction, match="could not pay the old governor 1M"):
        g.apply("Ben buys RU 12")
    assert "Ben buys RU 6" in legal(g)  # no takeover: allowed


def test_investor_last_government_payment_lenient_pays_only_if_he_can():
    g = _takeover_of_finns_last_government("lenient", 10)
    g.apply("Ben buys RU 12")
    assert governor(g, "RU") == "Ben"
    assert cash(g, "Finn") == 0 and cash(g, "Ben") == 0
    g = _takeover_of_finns_last_government("lenient", 11)
    g.apply("Ben buys RU 12")
    assert cash(g, "Finn") == 1


def test_investor_last_government_payment_not_due_once_the_nation_has_power_points():
    g = new_game(last_government_payment="strict")
    g.state.power[nat("RU")] = 1
    set_cash(g, "Ben", 10)
    _investor_turn(g)
    g.apply("Ben buys RU 12")
    assert governor(g, "RU") == "Ben"
    assert cash(g, "Finn") == 0


# ------------------------------------------------------------- passing Investor / game end


def test_investor_passing_pays_no_interest_but_runs_card_and_free_investors():
    g = new_game()
    finn_governs_nothing(g)
    give_turn(g, "AH", "production1")
    g.apply("AH rondel import")
    g.apply("AH import done")
    assert cash(g, "Cleo") == 0 and treasury(g, "AH") == 13  # no interest
    assert g.awaiting.player == "Ben" and cash(g, "Ben") == 2
    g.apply("Ben passes")
    assert g.awaiting.player == "Finn"
    g.apply("Finn passes")
    assert investor_holder(g) == "Cleo"


def test_investor_passing_then_government_check():
    g = new_game()
    set_cash(g, "Ben", 10)
    give_turn(g, "AH", "production1")
    g.apply("AH rondel import")
    g.apply("AH import done")
    g.apply("Ben buys AH 12")
    assert governor(g, "AH") == "Ben"


def _ending_taxation_passing_investor(rules=None, **options):
    g = new_game(rules=rules, **options)
    g.state.power[nat("GE")] = 24
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    give_turn(g, "GE", "maneuver1")
    set_cash(g, "Eve", 4)
    g.apply("GE rondel taxation")  # 5 spaces: passes Investor, 4M
    return g


def test_investor_after_game_ending_taxation_not_done_in_the_first_edition():
    # [BSW] German (seed 002): "werden Punkt 2 und 3 des Investorzuges nicht mehr ausgeführt";
    # English (seed 004): "phases 2 and 3 of that segment won't be played anymore"
    g = _ending_taxation_passing_investor()
    assert g.is_over
    assert cash(g, "Ben") == 0
    assert investor_holder(g) == "Ben"


def test_investor_after_game_ending_taxation_still_invests_with_the_hu1_option():
    # [HU1], read literally: "steps 2 and 3 must still be carried out" (option
    # invest_after_game_end=true)
    g = _ending_taxation_passing_investor(invest_after_game_end=True)
    assert not g.is_over
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Ben"
    pass_all_investors(g)
    assert g.is_over
    assert investor_holder(g) == "Cleo"


def test_investor_after_game_ending_taxation_not_done_in_2010():
    g = _ending_taxation_passing_investor(rules=RuleSet.preset("2010"))
    assert g.is_over
    assert cash(g, "Ben") == 2  # his starting cash only


# ------------------------------------------------------------- undealt flags claimed in play


def test_investor_unassigned_flag_claimed_by_upgrading_2m_to_exactly_4m():
    g = _four_players_ah_undealt()
    give_bond(g, "Ben", "AH", 2)  # a 2M bond alone never claimed AH
    g.apply("Ben buys AH 4 returning AH 2")  # pays 2M, but now grants a 4M bond
    assert governor(g, "AH") == "Ben"
    assert bonds_of(g, "Ben", "AH") == [4]


def _four_players_ah_undealt_cleo_free():
    g = _four_players_ah_undealt()
    # Cleo's GE government goes to Anna, so Cleo governs nothing and invests after Ben
    give_bond(g, "Anna", "GE", 12)
    g.state.government[nat("GE")] = player(g, "Anna")
    set_cash(g, "Cleo", 10)
    return g


def test_investor_unassigned_flag_first_qualifying_buyer_claims_then_higher_credit_takes_it():
    g = _four_players_ah_undealt_cleo_free()
    g.apply("Ben buys AH 4")  # the first grant of at least 4M: Ben claims the flag
    g.apply("Cleo buys AH 6")  # ... but Cleo ends the Investor turn with more credit
    assert governor(g, "AH") == "Cleo"


def test_investor_unassigned_flag_claimer_keeps_it_on_a_tie_with_a_later_buyer():
    g = _four_players_ah_undealt_cleo_free()
    give_bond(g, "Cleo", "AH", 2)
    g.apply("Ben buys AH 6")  # Ben claims with 6M
    g.apply("Cleo buys AH 4")  # Cleo 2 + 4 = 6: a tie keeps the flag with the claimer
    assert governor(g, "AH") == "Ben"


def test_investor_setup_bonds_do_not_claim_option_first_edition_needs_a_4m_grant():
    # 4 players, GE undealt; Anna's set-up GE 4M (AH card) does not claim the flag
    g = new_game(4, setup_bonds_claim_flags=False)
    assert governor(g, "GE") is None
    _investor_turn(g)  # Ben holds the card: 2M
    g.apply("Ben buys GE 2")
    assert governor(g, "GE") is None  # a 2M grant never claims in the first edition
    # Anna upgrading her set-up 4M bond grants a 6M bond: she claims the flag
    g.state.investor_card = player(g, "Anna")
    _investor_turn(g, "IT")
    g.apply("Anna buys GE 6 returning GE 4")
    assert governor(g, "GE") == "Anna"


def test_investor_setup_bonds_do_not_claim_option_2010_any_later_bond_claims():
    rules = RuleSet.preset("2010").with_options(setup_bonds_claim_flags=False)
    g = new_game(4, rules=rules)  # Anna's set-up GE 2M does not claim GE
    assert governor(g, "GE") is None
    _investor_turn(g)  # Ben: 2M cash + 2M from the card
    g.apply("Ben buys GE 4")
    assert governor(g, "GE") == "Ben"  # 4M beats Anna's 2M


# ------------------------------------------------------------- money conservation by hand


def test_investor_money_flows_by_hand_over_two_rounds():
    """Every rule-given flow between bank, treasuries and players, followed by hand."""
    g = new_game()  # first edition, 6 players: 13M in every treasury, no cash
    assert g.state.bank == 380 - 78
    # round 1
    play(g, "AH rondel investor")  # interest Cleo 2, Anna 4 (AH 13 -> 7); Ben's card +2
    play(g, "Ben buys AH 2")  # AH 9, Ben 0
    play(g, "IT rondel factory", "IT build factory florence")  # IT 8, bank +5
    play(g, "FR rondel import", "FR import army paris", "FR import army paris")
    play(g, "FR import fleet brest")  # FR 10, bank +3
    play(g, "GB rondel taxation")  # tax 4, no bonus (2-5), 0 units: GB 17
    play(g, "GE rondel production1", "GE produce all")  # free
    play(g, "RU rondel factory", "RU build factory kiev")  # RU 8
    # round 2
    play(g, "AH rondel taxation")  # 4 spaces: Anna pays 2M; tax 4: AH 13
    play(g, "IT rondel investor")  # Eve 2, Ben 4 (IT 8 -> 2); Cleo's card +2
    play(g, "Cleo buys AH 6 returning AH 4")  # Cleo pays 2: AH 15
    play(g, "FR rondel taxation")  # tax 4 - 3 units = 1: FR 11
    play(g, "GB rondel factory", "GB build factory sheffield")  # GB 12
    play(g, "GE rondel import", "GE import army berlin", "GE import done")  # GE 12
    # GE passed Investor: Dan's card +2, Dan buys GE 2 (GE 14); the card moves to Eve
    play(g, "Dan buys GE 2")
    play(g, "RU rondel investor")  # Dan 2, Finn 4 (RU 8 -> 2); Eve's card +2
    play(g, "Eve buys RU 2")  # RU 4
    play(g, "Anna donates 2 to IT")  # IT 4
    expected_cash = {"Anna": 0, "Ben": 4, "Cleo": 2, "Dan": 2, "Eve": 2, "Finn": 4}
    assert {p: cash(g, p) for p in g.players} == expected_cash
    assert [treasury(g, c) for c in ("AH", "IT", "FR", "GB", "GE", "RU")] == [
        15, 4, 11, 12, 14, 4,
    ]  # fmt: skip
    assert g.state.bank == 306
    assert money_total(g.state) == 380
    assert investor_holder(g) == "Finn"


def test_investor_interest_shortfall_several_holders_treasury_then_government_cash():
    g = new_game()  # AH: Anna (government) 9M, Cleo 4M
    give_bond(g, "Dan", "AH", 12)
    give_bond(g, "Eve", "AH", 2)
    set_treasury(g, "AH", 3)  # owes the others 2 + 5 + 1 = 8M
    set_cash(g, "Anna", 6)
    total = money_total(g.state)
    _investor_turn(g)
    assert (cash(g, "Cleo"), cash(g, "Dan"), cash(g, "Eve")) == (2, 5, 1)  # all paid in full
    assert cash(g, "Anna") == 6 - 5  # pays the 5M missing and gives up her own 4M
    assert treasury(g, "AH") == 0
    assert money_total(g.state) == total
