"""Taxation (RULES.md §5.6) and the end of the game it may cause (§7)."""

from __future__ import annotations

from helpers import (
    cash,
    give_turn,
    money_total,
    nat,
    new_game,
    set_cash,
    set_factories,
    set_flags,
    set_treasury,
    set_units,
    texts,
    treasury,
)

NEUTRAL = ("norway", "sweden", "denmark", "holland", "belgium",
           "portugal", "spain", "morocco", "algeria", "tunis")  # fmt: skip


def _german_example(**options):
    """Tax marker on 6, power 1; 2 factories, 3 flags; 2 armies and 1 fleet."""
    g = new_game(**options)
    s = g.state
    ge = nat("GE")
    s.tax_level[ge] = 6
    s.power[ge] = 1
    set_factories(g, "GE", "berlin", "hamburg")
    set_flags(g, "GE", "denmark", "norway", "baltic_sea")
    set_units(g, "GE", "denmark", armies=1)
    set_units(g, "GE", "norway", armies=1)
    set_units(g, "GE", "baltic_sea", fleets=1)
    set_cash(g, "Eve", 0)
    give_turn(g, "GE", None)
    return g


def test_taxation_german_example_bonus_1m_treasury_plus_4_power_1_to_3():
    g = _german_example()
    total = money_total(g.state)
    g.apply("GE rondel taxation")
    s = g.state
    ge = nat("GE")
    assert s.tax_level[ge] == 7  # tax 2 x 2M + 3 x 1M
    assert cash(g, "Eve") == 1  # success bonus: one space up
    assert treasury(g, "GE") == 13 + 4  # 7 - 3 soldiers' pay
    assert s.power[ge] == 3  # +2 for a tax of 7
    assert money_total(s) == total  # all of it from the bank


def test_taxation_tax_marker_moves_down_without_penalty():
    g = new_game()
    ge = nat("GE")
    g.state.tax_level[ge] = 12
    set_cash(g, "Eve", 0)
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # 2 factories: tax 4
    assert g.state.tax_level[ge] == 5
    assert cash(g, "Eve") == 0
    assert g.state.power[ge] == 0


def test_taxation_bonus_is_one_million_per_space_gained():
    g = new_game()
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    set_flags(g, "GE", "denmark", "sweden")
    set_cash(g, "Eve", 0)
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # tax 12: chart 5 -> 12
    assert cash(g, "Eve") == 7
    assert g.state.power[nat("GE")] == 7


def test_taxation_maximum_first_edition_is_20_chart_stops_at_15_and_gives_10_points():
    g = new_game()
    ge = nat("GE")
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    set_flags(g, "GE", *NEUTRAL)  # all 10 tax chips
    assert g.state.flags_in_supply(ge) == 0
    give_turn(g, "GE", None)
    ev = g.apply("GE rondel taxation")
    assert "taxes 20M" in texts(ev)
    assert g.state.tax_level[ge] == 15
    assert cash(g, "Eve") == 10
    assert g.state.power[ge] == 10
    assert treasury(g, "GE") == 13 + 20


def test_taxation_occupied_factory_pays_no_tax_friendly_army_does_not_matter():
    g = new_game()
    set_units(g, "RU", "berlin", armies=1)  # hostile
    set_units(g, "FR", "hamburg", armies=1, friendly=1)
    give_turn(g, "GE", None)
    ev = g.apply("GE rondel taxation")
    assert "taxes 2M (1 factory × 2M" in texts(ev)


def test_taxation_soldiers_pay_is_never_taken_from_the_treasury():
    g = new_game()
    set_units(g, "GE", "denmark", armies=8)
    set_units(g, "GE", "hamburg", fleets=2)  # fleets in port are paid too
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # tax 4, pay 10
    assert treasury(g, "GE") == 13


def test_taxation_fleets_in_port_count_for_soldiers_pay():
    g = new_game()
    set_units(g, "GE", "hamburg", fleets=3)
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # tax 4 - 3 units
    assert treasury(g, "GE") == 14


def test_taxation_reaching_25_power_points_ends_the_game_at_once():
    g = new_game()
    ge = nat("GE")
    g.state.power[ge] = 24
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # +5
    assert g.state.power[ge] == 25  # the track tops out at 25
    assert g.is_over
    assert g.awaiting is None
    assert g.legal_actions() == []
    assert g.result() is not None
    assert g.summary()["finished"] is True


def test_taxation_not_ending_after_passing_investor_invests_normally():
    g = new_game(invest_after_game_end=False)
    give_turn(g, "GE", "maneuver1")
    set_cash(g, "Eve", 4)
    g.apply("GE rondel taxation")
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Ben"


def test_taxation_game_ends_only_after_the_taxation_itself():
    g = new_game()
    ge = nat("GE")
    g.state.power[ge] = 20
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    set_flags(g, "GE", "denmark")
    set_treasury(g, "GE", 0)
    set_cash(g, "Eve", 0)
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # tax 11: bonus 6, income 11, +6 points
    assert g.is_over
    assert cash(g, "Eve") == 6
    assert treasury(g, "GE") == 11
    assert g.state.power[ge] == 25


def test_taxation_bonus_counts_from_the_marker_after_a_drop():
    # a drop costs nothing and the next rise is paid from the lower position: 9 -> 6 -> 9
    g = new_game()
    ge = nat("GE")
    g.state.tax_level[ge] = 9
    set_cash(g, "Eve", 0)
    set_factories(g, "GE", "berlin", "hamburg", "munich")  # tax 6
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")
    assert g.state.tax_level[ge] == 6 and cash(g, "Eve") == 0
    assert g.state.power[ge] == 1  # points from the new position, even after a drop
    set_flags(g, "GE", "denmark", "norway", "sweden")  # tax 9
    give_turn(g, "GE", "import")
    g.apply("GE rondel taxation")
    assert g.state.tax_level[ge] == 9
    assert cash(g, "Eve") == 3  # three spaces up from 6, not zero from the old 9


def test_taxation_power_points_are_capped_at_25_from_below_25():
    g = new_game()
    ge = nat("GE")
    g.state.power[ge] = 18
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")  # tax 10: +5
    set_flags(g, "GE", *NEUTRAL[:5])  # tax 15: +10
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")
    assert g.state.power[ge] == 25
    assert g.is_over
