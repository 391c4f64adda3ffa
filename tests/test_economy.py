"""Factory, Production and Import (RULES.md §5.1-5.3)."""

from __future__ import annotations

import pytest
from helpers import (
    give_turn,
    money_total,
    nat,
    new_game,
    region,
    set_cash,
    set_factories,
    set_treasury,
    set_units,
    treasury,
)

from rules import IllegalAction


def legal(g):
    return {a.notation() for a in g.legal_actions()}


# ------------------------------------------------------------------------------- factory


def _german_factory_example():
    g = new_game()
    set_factories(g, "GE", "berlin", "hamburg")
    set_units(g, "FR", "cologne", armies=1)  # hostile
    give_turn(g, "GE", None)
    g.apply("GE rondel factory")
    return g


def test_factory_german_example_only_danzig_or_munich():
    g = _german_factory_example()
    assert legal(g) == {
        "GE build factory danzig",
        "GE build factory munich",
        "GE build no factory",
    }


def test_factory_german_example_builds_a_shipyard_in_danzig_for_5m():
    g = _german_factory_example()
    total = money_total(g.state)
    bank = g.state.bank
    g.apply("GE build factory danzig")
    s = g.state
    assert s.factory[region(g, "danzig")]
    assert treasury(g, "GE") == 13 - 5
    assert s.bank == bank + 5
    assert money_total(s) == total
    assert g.summary()["regions"]["danzig"]["factory"] == "shipyard"
    assert g.summary()["regions"]["munich"]["factory"] is None


def test_factory_german_example_builds_armaments_in_munich():
    g = _german_factory_example()
    g.apply("GE build factory munich")
    assert g.summary()["regions"]["munich"]["factory"] == "armaments"
    assert g.awaiting.nation == "RU"  # at most one factory per turn


def test_factory_cannot_be_built_in_an_occupied_province():
    g = _german_factory_example()
    before = g.summary()
    with pytest.raises(IllegalAction, match="occupied"):
        g.apply("GE build factory cologne")
    assert g.summary() == before


def test_factory_cannot_be_built_where_a_factory_stands():
    g = _german_factory_example()
    with pytest.raises(IllegalAction, match="already has a factory"):
        g.apply("GE build factory berlin")


def test_factory_only_in_own_home_provinces():
    g = _german_factory_example()
    with pytest.raises(IllegalAction, match="own home provinces"):
        g.apply("GE build factory prague")


def test_factory_friendly_foreign_army_does_not_block_building():
    g = new_game()
    set_units(g, "FR", "cologne", armies=1, friendly=1)
    give_turn(g, "GE", None)
    g.apply("GE rondel factory")
    assert "GE build factory cologne" in legal(g)


def test_factory_treasury_must_pay_5m_but_the_government_may_donate_first():
    g = new_game()
    give_turn(g, "GE", None)
    set_treasury(g, "GE", 3)
    set_cash(g, "Eve", 5)
    g.apply("GE rondel factory")
    assert legal(g) == {"GE build no factory"}
    with pytest.raises(IllegalAction, match="cannot afford"):
        g.apply("GE build factory munich")
    g.apply("Eve donates 2 to GE")
    assert "GE build factory munich" in legal(g)
    g.apply("GE build factory munich")
    assert treasury(g, "GE") == 0


def test_factory_a_destroyed_factory_can_be_rebuilt():
    g = new_game()
    set_factories(g, "GE", "hamburg")  # Berlin's factory was destroyed
    give_turn(g, "GE", None)
    g.apply("GE rondel factory")
    assert "GE build factory berlin" in legal(g)


def test_factory_build_no_factory_ends_the_action():
    g = new_game()
    give_turn(g, "GE", None)
    g.apply("GE rondel factory")
    g.apply("GE build no factory")
    assert g.awaiting.nation == "RU"
    assert treasury(g, "GE") == 13


# ------------------------------------------------------------------------------- production


def _german_production_example():
    g = new_game()
    set_factories(g, "GE", "berlin", "hamburg", "munich")
    set_units(g, "RU", "berlin", armies=1)  # hostile Russian army
    set_units(g, "FR", "munich", armies=1, friendly=1)  # friendly French army
    give_turn(g, "GE", None)
    g.apply("GE rondel production1")
    return g


def test_production_german_example_fleet_in_hamburg_army_in_munich():
    g = _german_production_example()
    assert "GE produce berlin" not in legal(g)
    g.apply("GE produce all")
    s = g.state
    ge = nat("GE")
    assert s.fleets[ge][region(g, "hamburg")] == 1
    assert s.armies[ge][region(g, "munich")] == 1
    assert s.armies[ge][region(g, "berlin")] == 0
    assert s.units_of(ge) == 2
    assert g.awaiting.nation == "RU"


def test_production_is_free():
    g = _german_production_example()
    total, t = money_total(g.state), treasury(g, "GE")
    g.apply("GE produce all")
    assert treasury(g, "GE") == t and money_total(g.state) == total


def test_production_occupier_never_produces_in_a_foreign_factory():
    g = _german_production_example()
    g.apply("GE produce all")
    assert g.state.armies[nat("RU")][region(g, "berlin")] == 1  # unchanged


def test_production_units_already_present_do_not_matter():
    g = new_game()
    set_units(g, "GE", "berlin", armies=3)
    set_units(g, "GE", "hamburg", fleets=2)
    give_turn(g, "GE", None)
    g.apply("GE rondel production1")
    g.apply("GE produce all")
    ge = nat("GE")
    assert g.state.armies[ge][region(g, "berlin")] == 4
    assert g.state.fleets[ge][region(g, "hamburg")] == 3


def test_production_is_optional_per_factory():
    g = new_game()
    give_turn(g, "GE", None)
    g.apply("GE rondel production2")
    assert legal(g) == {
        "GE produce all",
        "GE produce berlin",
        "GE produce hamburg",
        "GE produce done",
    }
    g.apply("GE produce hamburg")
    assert legal(g) == {"GE produce berlin", "GE produce done"}
    with pytest.raises(IllegalAction, match="already produced"):
        g.apply("GE produce hamburg")
    g.apply("GE produce done")
    ge = nat("GE")
    assert g.state.fleets[ge][region(g, "hamburg")] == 1
    assert g.state.armies[ge][region(g, "berlin")] == 0


def test_production_limited_by_the_unit_supply():
    g = new_game()
    set_units(g, "GE", "denmark", armies=8)  # every German army is on the board
    give_turn(g, "GE", None)
    g.apply("GE rondel production1")
    assert "GE produce berlin" not in legal(g)
    with pytest.raises(IllegalAction, match="no armies left"):
        g.apply("GE produce berlin")
    g.apply("GE produce hamburg")
    assert g.state.fleets[nat("GE")][region(g, "hamburg")] == 1
    assert g.state.armies_in_supply(nat("GE")) == 0


def test_production_with_every_factory_occupied_produces_nothing():
    g = new_game()
    set_units(g, "RU", "berlin", armies=1)
    set_units(g, "FR", "hamburg", armies=1)
    give_turn(g, "GE", None)
    g.apply("GE rondel production1")
    assert g.awaiting.nation == "RU"
    assert g.state.units_of(nat("GE")) == 0


# ------------------------------------------------------------------------------- import


def test_import_austrian_example_two_fleets_and_an_army_in_trieste_for_3m():
    g = new_game()
    give_turn(g, "AH", None)
    total, bank = money_total(g.state), g.state.bank
    g.apply("AH rondel import")
    g.apply("AH import fleet trieste")
    g.apply("AH import fleet trieste")
    g.apply("AH import army trieste")
    s = g.state
    ah, trieste = nat("AH"), region(g, "trieste")
    assert s.fleets[ah][trieste] == 2 and s.armies[ah][trieste] == 1
    assert treasury(g, "AH") == 13 - 3
    assert s.bank == bank + 3 and money_total(s) == total
    assert g.awaiting.nation == "IT"  # three units is the limit: the import ends by itself


def test_import_army_may_go_into_any_unoccupied_home_province():
    g = new_game()
    set_units(g, "RU", "lemberg", armies=1)  # hostile
    give_turn(g, "AH", None)
    g.apply("AH rondel import")
    armies = {a for a in legal(g) if " army " in a}
    assert armies == {f"AH import army {r}" for r in ("vienna", "budapest", "prague", "trieste")}
    with pytest.raises(IllegalAction, match="occupied"):
        g.apply("AH import army lemberg")


def test_import_fleet_only_into_a_light_blue_port_city():
    g = new_game()
    give_turn(g, "AH", None)
    g.apply("AH rondel import")
    assert {a for a in legal(g) if " fleet " in a} == {"AH import fleet trieste"}
    with pytest.raises(IllegalAction, match="harbour"):
        g.apply("AH import fleet vienna")


def test_import_fleet_into_a_port_without_shipyard_by_default():
    g = new_game()
    give_turn(g, "GE", None)
    g.apply("GE rondel import")
    assert "GE import fleet danzig" in legal(g)  # no shipyard built in Danzig


def test_import_fleet_needs_shipyard_option():
    g = new_game(import_fleet_needs_shipyard=True)
    give_turn(g, "GE", None)
    g.apply("GE rondel import")
    assert {a for a in legal(g) if " fleet " in a} == {"GE import fleet hamburg"}
    with pytest.raises(IllegalAction, match="no shipyard"):
        g.apply("GE import fleet danzig")


def test_import_may_stop_early():
    g = new_game()
    give_turn(g, "AH", None)
    g.apply("AH rondel import")
    g.apply("AH import army vienna")
    g.apply("AH import done")
    assert treasury(g, "AH") == 12
    assert g.awaiting.nation == "IT"


def test_import_is_limited_by_the_treasury_after_donations():
    g = new_game()
    give_turn(g, "AH", None)
    set_treasury(g, "AH", 1)
    set_cash(g, "Anna", 1)
    g.apply("AH rondel import")
    g.apply("AH import army vienna")
    assert legal(g) == {"AH import done"}
    with pytest.raises(IllegalAction, match="cannot afford"):
        g.apply("AH import army vienna")
    g.apply("Anna donates 1 to AH")
    g.apply("AH import army budapest")
    assert treasury(g, "AH") == 0
    assert g.state.armies[nat("AH")][region(g, "budapest")] == 1


def test_import_is_limited_by_the_unit_supply():
    g = new_game()
    set_units(g, "AH", "west_balkan", armies=9)  # one army left in supply (10 in all)
    set_units(g, "AH", "ionian_sea", fleets=6)  # no fleet left (6 in all)
    give_turn(g, "AH", None)
    g.apply("AH rondel import")
    assert not any(" fleet " in a for a in legal(g))
    g.apply("AH import army vienna")
    assert g.awaiting.nation == "IT"  # nothing more can be imported
    with pytest.raises(IllegalAction):
        g.apply("AH import fleet trieste")


def test_import_with_nothing_importable_skips_the_decision():
    g = new_game()
    set_units(g, "AH", "west_balkan", armies=10)
    set_units(g, "AH", "ionian_sea", fleets=6)
    give_turn(g, "AH", None)
    g.apply("AH rondel import")
    assert g.awaiting.nation == "IT"


def test_production_all_only_when_two_or_more_factories_can_produce():
    g = new_game()
    give_turn(g, "GE", None)
    g.apply("GE rondel production1")
    g.apply("GE produce hamburg")
    assert "GE produce all" not in legal(g)
    before = g.summary()
    with pytest.raises(IllegalAction, match="only Berlin"):
        g.apply("GE produce all")
    assert g.summary() == before
