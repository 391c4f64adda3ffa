"""Set-up (RULES.md §2): components, flag cards and starting bonds, unassigned flags, the
investor card."""

from __future__ import annotations

import pytest
from helpers import bonds_of, cash, governor, investor_holder, money_total, nat, new_game, treasury

from rules import Game, RuleSet, SetupError
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
