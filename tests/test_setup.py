"""Set-up (RULES.md §2): components, flag cards and starting bonds, unassigned flags, the
investor card."""

from __future__ import annotations

import pytest
from helpers import bonds_of, cash, governor, investor_holder, money_total, nat, new_game, treasury

from rules import Game, RuleSet, SetupError
from rules.actions import NATION_CODES as NATIONS
from rules.state import NO


def test_setup_places_markers_in_the_centre_on_tax_2_5_and_power_0():
    g = new_game()
    s = g.state
    assert s.rondel == [NO] * 6
    assert s.tax_level == [5] * 6
    assert s.power == [0] * 6


def test_setup_places_the_twelve_starting_factories():
    g = new_game()
    built = {g.state.board.id(r) for r, f in enumerate(g.state.factory) if f}
    assert built == {
        "vienna", "budapest", "rome", "naples", "paris", "bordeaux",
        "london", "liverpool", "berlin", "hamburg", "moscow", "odessa",
    }  # fmt: skip


def test_setup_unit_supplies_are_10_6_for_ah_6_10_for_gb_8_8_for_the_others():
    g = new_game()
    s = g.state
    supply = [(s.armies_in_supply(n), s.fleets_in_supply(n)) for n in range(6)]
    assert supply == [(10, 6), (8, 8), (8, 8), (6, 10), (8, 8), (8, 8)]
    assert all(s.flags_in_supply(n) == 10 for n in range(6))


def test_setup_2010_edition_has_15_flags_and_a_30m_bond():
    g = new_game(rules=RuleSet.preset("2010"))
    assert g.state.flags_in_supply(0) == 15
    assert g.state.rules.bond_costs[-1] == 30
    assert g.summary()["nations"]["AH"]["bonds_available"][-1] == 30


@pytest.mark.parametrize(
    ("card", "own", "partner"),
    [("AH", "AH", "GE"), ("IT", "IT", "GB"), ("FR", "FR", "AH"),
     ("GB", "GB", "RU"), ("GE", "GE", "IT"), ("RU", "RU", "FR")],
)  # fmt: skip
def test_setup_first_edition_flag_card_buys_own_9m_and_partner_4m_bond(card, own, partner):
    g = new_game()
    name = g.players[nat(card)]
    assert bonds_of(g, name, own) == [9]
    assert bonds_of(g, name, partner) == [4]
    assert governor(g, card) == name


def test_setup_first_edition_6_players_spend_all_13m_and_keep_0_cash():
    g = new_game()
    assert all(cash(g, p) == 0 for p in g.players)
    # each treasury: its own 9M bond + 4M from the partner card
    assert all(treasury(g, c) == 13 for c in ("AH", "IT", "FR", "GB", "GE", "RU"))


def test_setup_2010_6_players_buy_9m_and_2m_and_keep_2m_cash():
    g = new_game(rules=RuleSet.preset("2010"))
    assert all(cash(g, p) == 2 for p in g.players)
    assert bonds_of(g, "Anna", "AH") == [9]
    assert bonds_of(g, "Anna", "GE") == [2]
    assert treasury(g, "AH") == 11


def test_setup_money_comes_from_the_bank_so_the_total_is_the_bank_notes():
    assert money_total(new_game().state) == 380  # 50x1 + 40x2 + 30x5 + 10x10
    assert money_total(new_game(rules=RuleSet.preset("2010")).state) == 420


def test_setup_6_players_every_pile_loses_its_9m_and_4m_bond():
    g = new_game()
    for c in ("AH", "IT", "FR", "GB", "GE", "RU"):
        assert g.summary()["nations"][c]["bonds_available"] == [2, 6, 12, 16, 20, 25]


def test_setup_3_players_ah_holder_gets_gb_it_holder_ru_fr_holder_ge():
    g = new_game(3, deal="Anna=IT,Ben=FR,Cleo=AH")
    assert g.setup.deal.cards == {"Anna": ("IT", "RU"), "Ben": ("FR", "GE"), "Cleo": ("AH", "GB")}
    assert [governor(g, c) for c in ("AH", "IT", "FR", "GB", "GE", "RU")] == [
        "Cleo", "Anna", "Ben", "Cleo", "Ben", "Anna",
    ]  # fmt: skip


def test_setup_3_players_first_edition_26m_all_spent():
    g = new_game(3)
    assert all(cash(g, p) == 0 for p in g.players)
    assert bonds_of(g, "Anna", "AH") == [9] and bonds_of(g, "Anna", "GB") == [9]
    assert bonds_of(g, "Anna", "GE") == [4] and bonds_of(g, "Anna", "RU") == [4]
    assert money_total(g.state) - g.state.bank == 3 * 26


def test_setup_3_players_2010_24m_with_2m_cash():
    g = new_game(3, rules=RuleSet.preset("2010"))
    assert all(cash(g, p) == 2 for p in g.players)
    assert sum(g.state.treasury) == 3 * 22


def test_setup_2_players_ah_holder_gets_fr_and_ge_it_holder_gb_and_ru():
    g = new_game(2, deal="Anna=IT,Ben=AH")
    assert g.setup.deal.cards == {"Anna": ("IT", "GB", "RU"), "Ben": ("AH", "FR", "GE")}
    assert [governor(g, c) for c in ("AH", "IT", "FR", "GB", "GE", "RU")] == [
        "Ben", "Anna", "Ben", "Anna", "Ben", "Anna",
    ]  # fmt: skip


def test_setup_2_players_first_edition_39m_all_spent_2010_35m_with_2m_cash():
    g = new_game(2)
    assert all(cash(g, p) == 0 for p in g.players) and sum(g.state.treasury) == 78
    # Anna (AH, FR, GE) holds AH 9 + AH 4 (from FR's card) and GE 9 + GE 4 (from AH's card)
    assert bonds_of(g, "Anna", "AH") == [4, 9]
    assert bonds_of(g, "Anna", "GE") == [4, 9]
    g2 = new_game(2, rules=RuleSet.preset("2010"))
    assert all(cash(g2, p) == 2 for p in g2.players) and sum(g2.state.treasury) == 66


def test_setup_investor_card_goes_to_the_left_of_ah_government():
    g = new_game(deal="Anna=GB,Ben=IT,Cleo=FR,Dan=AH,Eve=GE,Finn=RU")
    assert investor_holder(g) == "Eve"
    g = new_game(deal="Anna=GB,Ben=IT,Cleo=FR,Dan=RU,Eve=GE,Finn=AH")
    assert investor_holder(g) == "Anna"  # clockwise wraps round the table


def test_setup_investor_card_goes_left_of_it_government_when_ah_has_none():
    # 4 players, AH undealt; with set-up bonds not counting AH stays ungoverned
    g = new_game(4, deal="Anna=IT,Ben=GE,Cleo=GB,Dan=RU", setup_bonds_claim_flags=False)
    assert governor(g, "AH") is None
    assert investor_holder(g) == "Ben"


def test_setup_unassigned_flag_goes_to_holder_of_a_setup_4m_bond_first_edition():
    # FR dealt, AH not: FR's holder owns AH 4M and governs AH from the start (UNCERTAIN #2)
    g = new_game(5, deal="Anna=IT,Ben=FR,Cleo=GB,Dan=GE,Eve=RU")
    assert governor(g, "AH") == "Ben"
    assert bonds_of(g, "Ben", "AH") == [4]


def test_setup_unassigned_flag_with_no_4m_bond_leaves_nation_without_government():
    # AH and FR undealt: nobody owns an AH bond (FR's card would have bought it)
    g = new_game(4, deal="Anna=IT,Ben=GB,Cleo=GE,Dan=RU")
    assert governor(g, "AH") is None
    # FR: RU's card bought FR 4M -> Dan governs FR
    assert governor(g, "FR") == "Dan"
    assert g.state.flag_min_bond[nat("AH")] == 4


def test_setup_unassigned_flag_2010_goes_to_holder_of_the_2m_bond():
    g = new_game(5, rules=RuleSet.preset("2010"), deal="Anna=IT,Ben=FR,Cleo=GB,Dan=GE,Eve=RU")
    assert governor(g, "AH") == "Ben"
    assert bonds_of(g, "Ben", "AH") == [2]


def test_setup_option_setup_bonds_do_not_claim_flags():
    g = new_game(5, deal="Anna=IT,Ben=FR,Cleo=GB,Dan=GE,Eve=RU", setup_bonds_claim_flags=False)
    assert governor(g, "AH") is None
    assert bonds_of(g, "Ben", "AH") == [4]


def test_setup_nation_without_government_is_skipped_in_turn_order():
    g = new_game(4, deal="Anna=IT,Ben=GB,Cleo=GE,Dan=RU")
    assert governor(g, "AH") is None
    assert g.awaiting.nation == "IT"  # AH has no government and is skipped


def test_setup_rejects_wrong_player_counts_and_bad_names():
    with pytest.raises(SetupError):
        Game.new(["Anna"])
    with pytest.raises(SetupError):
        Game.new(["A", "B", "C", "D", "E", "F", "G"])
    with pytest.raises(SetupError):
        Game.new(["Anna", "anna"])
    with pytest.raises(SetupError):
        Game.new(["Anna", "AH"])


def test_setup_rejects_bad_deals():
    with pytest.raises(SetupError):
        Game.new(["Anna", "Ben"], deal="Anna=AH,Ben=FR")  # 2 players: only AH and IT dealt
    with pytest.raises(SetupError):
        Game.new(["Anna", "Ben", "Cleo"], deal="Anna=AH,Ben=AH,Cleo=IT")
    with pytest.raises(SetupError):
        Game.new(["Anna", "Ben", "Cleo"], deal="Anna=AH,Ben=IT")


def test_setup_seeded_deal_is_reproducible():
    a = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=7)
    b = Game.new(["Anna", "Ben", "Cleo", "Dan"], seed=7)
    assert a.setup.deal == b.setup.deal
    assert a.summary() == b.summary()


def test_first_turn_is_ah_with_any_rondel_space_free():
    g = new_game()
    assert g.awaiting.nation == "AH" and g.awaiting.player == "Anna"
    assert len(g.legal_actions()) == 8


# ------------------------------------------------- the whole standard distribution, by hand

# Who ends up with which bonds after the flag cards of the default deals (Anna=AH, Ben=IT,
# Cleo=FR, ...; with 2 and 3 players the extra cards of §2.2), first edition: 9M own + 4M
# partner per card (AH->GE, IT->GB, FR->AH, GB->RU, GE->IT, RU->FR).
SETUP_BONDS = {
    2: {
        "Anna": {"AH": [4, 9], "IT": [4], "FR": [9], "GE": [4, 9]},  # cards AH, FR, GE
        "Ben": {"IT": [9], "FR": [4], "GB": [4, 9], "RU": [4, 9]},  # cards IT, GB, RU
    },
    3: {
        "Anna": {"AH": [9], "GB": [9], "GE": [4], "RU": [4]},  # cards AH, GB
        "Ben": {"IT": [9], "RU": [9], "GB": [4], "FR": [4]},  # cards IT, RU
        "Cleo": {"FR": [9], "GE": [9], "AH": [4], "IT": [4]},  # cards FR, GE
    },
    4: {
        "Anna": {"AH": [9], "GE": [4]},
        "Ben": {"IT": [9], "GB": [4]},
        "Cleo": {"FR": [9], "AH": [4]},
        "Dan": {"GB": [9], "RU": [4]},
    },
    5: {
        "Anna": {"AH": [9], "GE": [4]},
        "Ben": {"IT": [9], "GB": [4]},
        "Cleo": {"FR": [9], "AH": [4]},
        "Dan": {"GB": [9], "RU": [4]},
        "Eve": {"GE": [9], "IT": [4]},
    },
    6: {
        "Anna": {"AH": [9], "GE": [4]},
        "Ben": {"IT": [9], "GB": [4]},
        "Cleo": {"FR": [9], "AH": [4]},
        "Dan": {"GB": [9], "RU": [4]},
        "Eve": {"GE": [9], "IT": [4]},
        "Finn": {"RU": [9], "FR": [4]},
    },
}
# Governments in turn order AH IT FR GB GE RU. With 4 players GE and RU are undealt: Anna's
# GE 4M (AH card) and Dan's RU 4M (GB card) claim them; with 5 players RU goes to Dan.
SETUP_GOVERNMENTS = {
    2: ("Anna", "Ben", "Anna", "Ben", "Anna", "Ben"),
    3: ("Anna", "Ben", "Cleo", "Anna", "Cleo", "Ben"),
    4: ("Anna", "Ben", "Cleo", "Dan", "Anna", "Dan"),
    5: ("Anna", "Ben", "Cleo", "Dan", "Eve", "Dan"),
    6: ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"),
}


@pytest.mark.parametrize("edition", ["first", "2010"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_standard_distribution_bonds_treasuries_cash_governments_and_card(players, edition):
    g = new_game(players, rules=RuleSet.preset(edition))
    partner = 4 if edition == "first" else 2  # 2010: the partner bond is the 2M one
    expected = {
        name: {c: sorted(partner if v == 4 else v for v in vs) for c, vs in held.items()}
        for name, held in SETUP_BONDS[players].items()
    }
    for name in g.players:
        held = {c: bonds_of(g, name, c) for c in NATIONS if bonds_of(g, name, c)}
        assert held == expected[name], name
        # first edition: the whole starting money is in bonds; 2010: 2M cash are kept
        assert cash(g, name) == (0 if edition == "first" else 2)
    for c in NATIONS:
        assert treasury(g, c) == sum(sum(h.get(c, [])) for h in expected.values()), c
    assert tuple(governor(g, c) for c in NATIONS) == SETUP_GOVERNMENTS[players]
    assert investor_holder(g) == "Ben"  # left of AH's government Anna
    # starting money: 13M per flag card; 2010: 11M of bonds + 2M cash = 13M, 24M, 35M
    start = {"first": {2: 39, 3: 26}, "2010": {2: 35, 3: 24}}[edition].get(players, 13)
    assert g.state.bank == g.rules.bank_notes_total - start * players
    assert money_total(g.state) == g.rules.bank_notes_total


@pytest.mark.parametrize(("edition", "min_bond"), [("first", 4), ("2010", 2)])
def test_setup_undealt_flags_with_4_and_5_players_stay_in_the_bank_without_a_claim(
    edition, min_bond
):
    # setup_bonds_claim_flags=false: the set-up partner bonds do not claim the undealt flags
    rules = RuleSet.preset(edition).with_options(setup_bonds_claim_flags=False)
    g4 = new_game(4, rules=rules)
    assert governor(g4, "GE") is None and governor(g4, "RU") is None
    assert [g4.state.flag_min_bond[nat(c)] for c in NATIONS] == [2, 2, 2, 2] + [min_bond] * 2
    assert g4.awaiting.nation == "AH"
    g5 = new_game(5, rules=rules)
    assert governor(g5, "RU") is None
    assert bonds_of(g5, "Dan", "RU") == [min_bond]  # bought through the GB card all the same
    assert investor_holder(g5) == "Ben"


def test_setup_investor_card_left_of_ah_government_who_governs_two_nations():
    # 3 players dealt differently: Cleo holds AH (and GB); the card goes to Anna on her left
    g = new_game(3, deal="Anna=IT,Ben=FR,Cleo=AH")
    assert governor(g, "AH") == "Cleo" and governor(g, "GB") == "Cleo"
    assert investor_holder(g) == "Anna"
    assert g.awaiting.player == "Cleo" and g.awaiting.nation == "AH"
