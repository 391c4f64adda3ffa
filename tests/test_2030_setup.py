"""Imperial 2030 set-up (RULES_2030.md §7 and the number table of §11): the flag cards with
their 9M + partner 2M bonds, the 2- and 3-player groupings, the investor card left of
Russia's government, and the experienced players' bond rounds with 2030 starting cash."""

from __future__ import annotations

import pytest
from helpers import (
    bonds_of,
    cash,
    governor,
    investor_holder,
    money_total,
    nation_of,
    new_game,
    treasury,
)

from rules import Game, RuleSet, SetupError
from rules.state import NO

NATIONS = ("RU", "CN", "IN", "BR", "US", "EU")
PARTNER = {"RU": "EU", "CN": "US", "IN": "BR", "BR": "CN", "US": "RU", "EU": "IN"}


def rules_2030(variant: str = "standard", **options) -> RuleSet:
    return RuleSet.preset(variant=variant, game="2030").with_options(**options)


def test_2030_preset_is_the_2010_rules_with_the_2030_differences():
    r = rules_2030()
    assert (r.game, r.edition, r.variant) == ("2030", "2010", "standard")
    assert r.title == "Imperial 2030"
    assert r.bond_costs == (2, 4, 6, 9, 12, 16, 20, 25, 30)
    assert r.flags_per_nation == 15 and r.swiss_banks and r.bank_notes_total == 420
    assert r.partner_bond == 2 and r.start_cash == 2
    assert r.rondel_extra_cost == "power_factor" and r.taxation == "2030"
    assert r.experienced_cash == "2030" and r.success_bonus == "table"
    assert r.differences() == {}
    # Europe's map options do not apply to the world board
    assert "black_sea_eastern_mediterranean" not in r.options()
    assert "armies_may_enter_dublin" not in r.options()
    assert "taxation" in r.options() and "taxation" not in RuleSet.preset("2010").options()


def test_2030_has_no_first_edition_and_refuses_the_options_of_the_other_game():
    with pytest.raises(ValueError, match="Imperial 2030 is played with the 2010 rules"):
        RuleSet.preset("first", game="2030")
    with pytest.raises(ValueError, match="unknown game"):
        RuleSet.preset(game="2040")
    with pytest.raises(ValueError, match="applies only to Imperial, not to Imperial 2030"):
        rules_2030().with_options(black_sea_eastern_mediterranean=False)
    with pytest.raises(ValueError, match="applies only to Imperial 2030, not to Imperial"):
        RuleSet().with_options(taxation="2030")


def test_2030_six_players_each_card_buys_own_9m_and_partner_2m_bond_keeping_2m_cash():
    g = new_game(6, rules=rules_2030())
    for p, card in zip(g.players, NATIONS, strict=True):
        assert bonds_of(g, p, card) == [9]
        assert bonds_of(g, p, PARTNER[card]) == [2]
        assert governor(g, card) == p
        assert cash(g, p) == 2
    # every nation is one card's partner: 9M + 2M in every treasury
    assert all(treasury(g, c) == 11 for c in NATIONS)
    assert g.summary()["nations"]["RU"]["bonds_available"] == [4, 6, 12, 16, 20, 25, 30]


@pytest.mark.parametrize(("players", "money"), [(2, 35), (3, 24), (4, 13), (5, 13), (6, 13)])
def test_2030_standard_starting_money_per_player(players, money):
    g = new_game(players, rules=rules_2030())
    s = g.state
    for p in range(players):
        bonds = sum(
            s.rules.bond_costs[k] for n in range(6) for k, o in enumerate(s.bond_owner[n]) if o == p
        )
        assert bonds + s.cash[p] == money
        assert s.cash[p] == 2
    assert money_total(s) == 420


def test_2030_three_players_ru_takes_br_cn_takes_eu_in_takes_us():
    g = new_game(3, rules=rules_2030(), deal="Anna=CN,Ben=IN,Cleo=RU")
    assert g.setup.deal.cards == {"Anna": ("CN", "EU"), "Ben": ("IN", "US"), "Cleo": ("RU", "BR")}
    assert [governor(g, c) for c in NATIONS] == ["Cleo", "Anna", "Ben", "Cleo", "Ben", "Anna"]
    assert all(treasury(g, c) == 11 for c in NATIONS)


def test_2030_two_players_ru_in_us_against_cn_br_eu():
    g = new_game(2, rules=rules_2030(), deal="Anna=CN,Ben=RU")
    assert g.setup.deal.cards == {"Anna": ("CN", "BR", "EU"), "Ben": ("RU", "IN", "US")}
    assert [governor(g, c) for c in NATIONS] == ["Ben", "Anna", "Ben", "Anna", "Ben", "Anna"]
    # Ben's RU card buys EU 2, his US card buys RU 2: he holds RU 9 and RU 2
    assert bonds_of(g, "Ben", "RU") == [2, 9]
    assert bonds_of(g, "Anna", "EU") == [9]
    assert bonds_of(g, "Ben", "EU") == [2]


def test_2030_two_and_three_players_deal_only_the_first_nations_cards():
    with pytest.raises(SetupError, match="the dealt flag cards are RU, CN; 'IN' cannot"):
        new_game(2, rules=rules_2030(), deal="Anna=IN,Ben=CN")
    with pytest.raises(SetupError, match="RU, CN, IN"):
        new_game(3, rules=rules_2030(), deal="Anna=RU,Ben=CN,Cleo=US")
    with pytest.raises(SetupError, match="must give every player a card"):
        new_game(4, rules=rules_2030(), deal="Anna=RU,Ben=CN,Cleo=IN")
    with pytest.raises(SetupError, match="cannot be dealt"):
        new_game(4, rules=rules_2030(), deal="Anna=RU,Ben=CN,Cleo=IN,Dan=GB")


def test_2030_four_players_undealt_nations_go_to_the_holder_of_their_2m_bond():
    # RU, CN, IN, BR dealt: US's 2M bond came with CN's card, EU's with RU's
    g = new_game(4, rules=rules_2030())
    assert governor(g, "US") == "Ben"
    assert governor(g, "EU") == "Anna"
    assert treasury(g, "US") == 2 and treasury(g, "EU") == 2
    assert treasury(g, "RU") == 9  # its partner card (US) was not dealt
    assert treasury(g, "BR") == 11


def test_2030_five_players_undealt_eu_goes_to_the_holder_of_its_2m_bond():
    g = new_game(5, rules=rules_2030())
    assert governor(g, "EU") == "Anna"  # RU's card buys the EU 2M bond
    assert treasury(g, "EU") == 2


@pytest.mark.parametrize("players", range(2, 7))
def test_2030_two_starting_factories_per_nation_and_the_markers_at_rest(players):
    g = new_game(players, rules=rules_2030())
    s = g.state
    assert sum(s.factory) == 12
    for n in range(6):
        assert len(s.factories_of(n)) == 2
    assert s.power == [0] * 6 and s.rondel == [NO] * 6
    assert all(s.flags_in_supply(n) == 15 for n in range(6))


def test_2030_investor_card_goes_left_of_russias_government():
    g = new_game(6, rules=rules_2030())
    assert governor(g, "RU") == "Anna" and investor_holder(g) == "Ben"
    g = new_game(3, rules=rules_2030(), deal="Anna=IN,Ben=CN,Cleo=RU")
    assert investor_holder(g) == "Anna"  # left of Cleo, who sits last


def test_2030_investor_card_goes_left_of_chinas_government_when_russia_has_none():
    g = new_game(6, rules=rules_2030())
    s = g.state
    s.government[nation_of(g, "RU")] = NO
    from rules.setup import place_investor_card

    place_investor_card(s)
    assert investor_holder(g) == "Cleo"  # left of Ben (CN)


def test_2030_first_turn_is_russias():
    g = new_game(4, rules=rules_2030())
    assert g.awaiting is not None
    assert (g.awaiting.kind, g.awaiting.nation, g.awaiting.player) == ("rondel", "RU", "Anna")


@pytest.mark.parametrize(("players", "money"), [(2, 37), (3, 25), (4, 19), (5, 15), (6, 13)])
def test_2030_experienced_start_cash_per_player(players, money):
    g = new_game(players, rules=rules_2030("experienced"))
    s = g.state
    assert s.cash == [money] * players
    assert s.treasury == [0] * 6 and s.government == [NO] * 6
    assert all(o == NO for bonds in s.bond_owner for o in bonds)
    assert sum(s.factory) == 12
    # the bond rounds run in the 2030 order, Russia first
    assert g.awaiting is not None
    assert (g.awaiting.kind, g.awaiting.nation) == ("bond_choice", "RU")


@pytest.mark.parametrize(("players", "money"), [(2, 40), (3, 28), (4, 22), (5, 18), (6, 15)])
def test_2030_option_experienced_cash_imperial_uses_imperials_table(players, money):
    g = new_game(players, rules=rules_2030("experienced", experienced_cash="imperial"))
    assert g.state.cash == [money] * players


def test_2030_experienced_bond_rounds_go_ru_cn_in_br_us_eu_then_swiss_banks():
    g = new_game(3, rules=rules_2030("experienced"))
    seen = []
    while g.awaiting is not None and g.awaiting.kind == "bond_choice":
        if g.awaiting.nation not in seen:
            seen.append(g.awaiting.nation)
        buys = [a for a in g.legal_actions() if str(a).endswith(" 9")]
        g.apply(buys[0] if buys and len(seen) <= 3 else f"{g.awaiting.player} passes")
    assert seen == list(NATIONS)
    assert g.awaiting is not None and g.awaiting.kind == "rondel"
    swiss = [p["name"] for p in g.summary()["players"] if p["swiss_bank"]]
    governing = {p["name"] for p in g.summary()["players"] if p["governs"]}
    assert set(swiss) == set(g.players) - governing


def test_2030_player_names_may_not_be_2030_nation_codes():
    with pytest.raises(SetupError, match="'Us' is a nation code"):
        Game.new(["Anna", "Us"], rules_2030())
    # in Imperial "Us" is a name like any other
    assert Game.new(["Anna", "Us"], RuleSet(), seed=1).players == ("Anna", "Us")


def test_2030_seeded_deal_is_reproducible_and_deals_2030_cards():
    a = Game.new(["Anna", "Ben", "Cleo", "Dan"], rules_2030(), seed=5)
    b = Game.new(["Anna", "Ben", "Cleo", "Dan"], rules_2030(), seed=5)
    assert a.setup.deal == b.setup.deal
    assert all(set(cards) <= set(NATIONS) for cards in a.setup.deal.cards.values())
