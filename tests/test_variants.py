"""The experienced players' set-up (RULES.md §2.5) and the variant without investor card (§6)."""

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
    nat,
    new_game,
    pass_all_investors,
    player,
    set_cash,
    set_treasury,
    treasury,
)

from rules import IllegalAction, RuleSet

EXPERIENCED = RuleSet.preset("first", "experienced")
NO_CARD = RuleSet.preset("first", "no-investor-card")


def legal(g):
    return {a.notation() for a in g.legal_actions()}


# ------------------------------------------------------------------------------- experienced


@pytest.mark.parametrize(("players", "money"), [(6, 15), (5, 18), (4, 22), (3, 28), (2, 40)])
def test_variant_experienced_starting_money_and_no_bonds(players, money):
    g = new_game(players, rules=EXPERIENCED)
    assert all(cash(g, p) == money for p in g.players)
    assert all(not p["bonds"] and not p["governs"] for p in g.summary()["players"])
    assert sum(g.state.treasury) == 0


def test_variant_experienced_rounds_per_nation_first_chooser_rotates_clockwise():
    g = new_game(3, rules=EXPERIENCED, deal="Ben")
    seen = []
    while g.awaiting is not None and g.awaiting.kind == "bond_choice":
        seen.append((g.awaiting.nation, g.awaiting.player))
        g.apply(f"{g.awaiting.player} passes")
    assert g.is_over  # nobody bought a bond: no nation has a government
    assert seen == [
        ("AH", "Ben"), ("AH", "Cleo"), ("AH", "Anna"),
        ("IT", "Cleo"), ("IT", "Anna"), ("IT", "Ben"),
        ("FR", "Anna"), ("FR", "Ben"), ("FR", "Cleo"),
        ("GB", "Ben"), ("GB", "Cleo"), ("GB", "Anna"),
        ("GE", "Cleo"), ("GE", "Anna"), ("GE", "Ben"),
        ("RU", "Anna"), ("RU", "Ben"), ("RU", "Cleo"),
    ]  # fmt: skip


def test_variant_experienced_only_the_round_nation_and_one_bond_each():
    g = new_game(3, rules=EXPERIENCED, deal="Anna")
    assert all(" AH " in a or a.endswith("passes") for a in legal(g))
    with pytest.raises(IllegalAction, match="only invest in AH"):
        g.apply("Anna buys IT 9")
    g.apply("Anna buys AH 9")
    assert cash(g, "Anna") == 28 - 9
    assert treasury(g, "AH") == 9
    assert governor(g, "AH") == "Anna"
    # each player buys at most one bond of a nation in these rounds
    g.apply("Ben passes")
    g.apply("Cleo passes")
    assert g.awaiting.nation == "IT"


def test_variant_experienced_highest_credit_governs_earlier_buyer_keeps_a_tie():
    g = new_game(3, rules=EXPERIENCED, deal="Anna")
    g.apply("Anna buys AH 9")
    g.apply("Ben buys AH 12")
    assert governor(g, "AH") == "Ben"
    g.apply("Cleo passes")
    g = new_game(3, rules=EXPERIENCED, deal="Anna")
    g.apply("Anna buys AH 4")
    g.apply("Ben buys AH 2")
    assert governor(g, "AH") == "Anna"


def test_variant_experienced_tie_earlier_buyer_keeps_flag_or_later_buyer_option():
    # single bonds never tie, so Anna's credit is topped up to 6 before Ben buys AH 6
    for option, expected in (("earlier_buyer", "Anna"), ("later_buyer", "Ben")):
        g = new_game(3, rules=EXPERIENCED.with_options(auction_tie=option), deal="Anna")
        g.apply("Anna buys AH 4")
        give_bond(g, "Anna", "AH", 2)
        g.apply("Ben buys AH 6")
        assert governor(g, "AH") == expected


def test_variant_experienced_nation_nobody_bought_has_no_government():
    g = new_game(2, rules=EXPERIENCED, deal="Anna")
    g.apply("Anna buys AH 9")
    pass_all_investors(g)
    assert all(governor(g, c) is None for c in ("IT", "FR", "GB", "GE", "RU"))
    assert g.awaiting.kind == "rondel" and g.awaiting.nation == "AH"
    assert investor_holder(g) == "Ben"  # left of AH's government
    g.apply("AH rondel factory")
    g.apply("AH build no factory")
    assert g.awaiting.nation == "AH"  # every other nation is skipped
    assert g.state.round == 2


def test_variant_experienced_investor_card_left_of_it_government_when_ah_unbought():
    g = new_game(3, rules=EXPERIENCED, deal="Anna")
    pass_all_investors_until(g, "IT")
    g.apply("Ben buys IT 9")  # Ben chooses first for IT
    pass_all_investors(g)
    assert governor(g, "AH") is None
    assert governor(g, "IT") == "Ben"
    assert investor_holder(g) == "Cleo"


def pass_all_investors_until(g, nation):
    while g.awaiting.nation != nation:
        g.apply(f"{g.awaiting.player} passes")


def test_variant_experienced_2010_players_without_government_hold_a_swiss_bank():
    g = new_game(3, rules=RuleSet.preset("2010", "experienced"), deal="Anna")
    assert cash(g, "Anna") == 28
    # nobody holds a Swiss bank during the bond rounds: they are handed out at the end
    assert not any(p["swiss_bank"] for p in g.summary()["players"])
    g.apply("Anna buys AH 25")
    pass_all_investors(g)
    swiss = {p["name"]: p["swiss_bank"] for p in g.summary()["players"]}
    assert swiss == {"Anna": False, "Ben": True, "Cleo": True}


# ------------------------------------------------------------------------------- no card


def test_variant_no_card_has_no_investor_card():
    g = new_game(rules=NO_CARD)
    assert investor_holder(g) is None
    assert not any(p["investor_card"] for p in g.summary()["players"])


def test_variant_no_card_after_each_turn_its_government_then_the_others_invest_in_it():
    g = new_game(rules=NO_CARD)
    set_cash(g, "Cleo", 20)
    g.apply("AH rondel factory")
    g.apply("AH build no factory")
    order = []
    while g.awaiting.kind == "invest":
        order.append(g.awaiting.player)
        assert all(" AH " in a or a.endswith("passes") for a in legal(g))
        if g.awaiting.player == "Cleo":
            g.apply("Cleo buys AH 12")
        else:
            g.apply(f"{g.awaiting.player} passes")
    assert order == ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"]
    assert governor(g, "AH") == "Cleo"  # 4 + 12 > 9: checked after the round
    assert g.awaiting.nation == "IT"


def test_variant_no_card_players_without_government_invest_in_any_nation():
    g = new_game(rules=NO_CARD)
    finn_governs_nothing(g)  # Finn governs nothing
    set_cash(g, "Finn", 20)
    g.apply("AH rondel factory")
    g.apply("AH build no factory")
    for _ in range(6):
        g.apply(f"{g.awaiting.player} passes")  # the AH round
    assert g.awaiting.player == "Finn"
    assert "Finn buys GB 12" in legal(g)
    g.apply("Finn buys GB 12")
    assert bonds_of(g, "Finn", "GB") == [12]
    assert g.awaiting.nation == "IT"


def test_variant_no_card_free_investing_once_per_round_option():
    for option, asked_again in (("every_turn", True), ("once_per_round", False)):
        g = new_game(rules=NO_CARD.with_options(no_card_free_investing=option))
        finn_governs_nothing(g)
        set_cash(g, "Finn", 20)
        g.apply("AH rondel factory")
        g.apply("AH build no factory")
        for _ in range(6):
            g.apply(f"{g.awaiting.player} passes")
        g.apply("Finn buys GB 2")
        g.apply("IT rondel factory")
        g.apply("IT build no factory")
        for _ in range(6):
            g.apply(f"{g.awaiting.player} passes")  # the IT round
        assert (g.awaiting.kind == "invest" and g.awaiting.player == "Finn") is asked_again


def test_variant_no_card_investor_space_pays_interest_only():
    g = new_game(rules=NO_CARD)
    g.apply("AH rondel investor")
    assert cash(g, "Anna") == 4 and cash(g, "Cleo") == 2
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Anna"
    assert all(" AH " in a or a.endswith("passes") for a in legal(g))  # the AH round only


def test_variant_no_card_passing_investor_has_no_effect():
    g = new_game(rules=NO_CARD)
    give_turn(g, "AH", "maneuver1")
    g.apply("AH rondel import")
    g.apply("AH import done")
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Anna"
    assert cash(g, "Ben") == 0 and cash(g, "Cleo") == 0
    assert all(" AH " in a or a.endswith("passes") for a in legal(g))


def test_variant_no_card_equal_challengers_first_clockwise_from_the_nations_government():
    for gov, expected in (("Anna", "Dan"), ("Eve", "Finn")):
        g = new_game(rules=NO_CARD)
        g.state.government[nat("AH")] = player(g, gov)
        give_bond(g, "Dan", "AH", 16)
        g.state.bond_owner[nat("AH")][g.state.rules.bond_costs.index(4)] = player(g, "Finn")
        give_bond(g, "Finn", "AH", 12)  # Dan 16, Finn 4 + 12 = 16
        g.apply("AH rondel factory")
        g.apply("AH build no factory")
        pass_all_investors(g)
        assert governor(g, "AH") == expected


def test_variant_no_card_unbonded_nation_option_2010():
    rules = RuleSet.preset("2010", "no-investor-card")
    assert rules.no_card_unbonded_nation
    # 4 players, AH and FR undealt; AH got no bond at the start: after RU's turn (the nation
    # before AH) the players may invest in AH, RU's government first
    g = new_game(4, rules=rules, deal="Anna=IT,Ben=GB,Cleo=GE,Dan=RU")
    assert governor(g, "AH") is None
    give_turn(g, "RU", None)
    set_treasury(g, "RU", 20)
    g.apply("RU rondel factory")
    g.apply("RU build no factory")
    seen = []
    while g.awaiting.kind == "invest":
        buys = {a.split()[2] for a in legal(g) if " buys " in a}
        seen.append((g.awaiting.player, tuple(sorted(buys))))
        g.apply(f"{g.awaiting.player} passes")
    assert ("Dan", ("AH",)) in seen
    off = new_game(
        4,
        rules=rules.with_options(no_card_unbonded_nation=False),
        deal="Anna=IT,Ben=GB,Cleo=GE,Dan=RU",
    )
    give_turn(off, "RU", None)
    off.apply("RU rondel factory")
    off.apply("RU build no factory")
    nations = set()
    while off.awaiting.kind == "invest":
        nations |= {a.split()[2] for a in legal(off) if " buys " in a}
        off.apply(f"{off.awaiting.player} passes")
    assert "AH" not in nations


def test_variant_experienced_nation_nobody_bought_gets_a_government_with_its_first_bond():
    # the 4M minimum of §2.3 is for undealt flag cards only: here any bond claims the flag
    g = new_game(3, rules=EXPERIENCED, deal="Anna")
    g.apply("Anna buys AH 9")
    pass_all_investors(g)  # nobody buys IT, FR, GB, GE or RU
    assert governor(g, "IT") is None
    assert investor_holder(g) == "Ben"
    g.apply("AH rondel investor")  # Anna's interest 4M; Ben's card 2M
    g.apply("Ben buys IT 2")
    assert governor(g, "IT") is None  # checked only at the end of the Investor turn
    g.apply("Cleo passes")  # Cleo governs nothing and invests after the card holder
    assert governor(g, "IT") == "Ben"
    assert g.awaiting.nation == "IT"  # IT now takes its turn in this round


def test_variant_experienced_bond_rounds_one_bond_per_player_per_nation_money_is_kept():
    g = new_game(2, rules=EXPERIENCED, deal="Ben")
    g.apply("Ben buys AH 25")
    assert "Ben buys AH 2" not in legal(g) and g.awaiting.player == "Anna"
    g.apply("Anna buys AH 12")
    assert g.awaiting.nation == "IT" and g.awaiting.player == "Anna"  # rotates to Anna
    assert not any("returning" in a for a in legal(g))  # no upgrades in the set-up rounds
    pass_all_investors(g)
    assert cash(g, "Ben") == 40 - 25 and cash(g, "Anna") == 40 - 12
    assert treasury(g, "AH") == 37 and governor(g, "AH") == "Ben"
    assert investor_holder(g) == "Anna"  # left of AH's government Ben


def test_variant_experienced_2010_swiss_bank_holder_may_force_after_set_up():
    g = new_game(3, rules=RuleSet.preset("2010", "experienced"), deal="Anna")
    g.apply("Anna buys AH 9")
    pass_all_investors(g)
    give_turn(g, "AH", "maneuver1")
    g.apply("AH rondel import")  # passes Investor; AH's 9M covers Anna's 4M interest
    assert g.awaiting.kind == "swiss_bank" and g.awaiting.player == "Ben"  # card holder


def test_variant_experienced_bond_rounds_refuse_a_second_bond_and_an_upgrade():
    g = new_game(3, rules=EXPERIENCED, deal="Anna")
    g.apply("Anna buys AH 4")
    give_bond(g, "Ben", "AH", 2)  # as if Ben already held an AH bond in this round
    before = g.summary()
    with pytest.raises(IllegalAction, match="already bought"):
        g.apply("Ben buys AH 6")
    with pytest.raises(IllegalAction, match="set-up bond rounds"):
        g.apply("Ben buys AH 6 returning AH 2")
    assert g.summary() == before
