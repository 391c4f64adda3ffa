"""The rule set: edition presets, option validation, and both readings of every option that
lies outside Maneuver (the Maneuver options are exercised in tests/test_maneuver.py)."""

from __future__ import annotations

import pathlib
import re

import pytest
from helpers import cash, give_turn, nat, new_game, set_factories, set_flags, treasury

from rules import OPTIONS, RuleSet
from rules.options import parse_option_value
from rules.ruleset import EDITIONS, VARIANTS
from rules.setup import board_for

MANEUVER_OPTIONS = {
    "status_change_without_moving",
    "port_fleet_fights_present_army",
    "armies_may_enter_dublin",
    "last_factory_entry",
    "convoy_through_foreign_fleets",
    "rail_from_occupied_province",
    "battle_sequence",
    "destroy_requires_hostile",
    "flag_transfer_on_departure",
    "returned_flag_placement",
}


def test_ruleset_default_is_the_first_edition_standard_game():
    r = RuleSet()
    assert r == RuleSet.preset("first", "standard")
    assert r.bond_costs == (2, 4, 6, 9, 12, 16, 20, 25)
    assert r.flags_per_nation == 10 and r.partner_bond == 4 and r.start_cash == 0
    assert r.unassigned_flag_min_bond == 4 and not r.swiss_banks
    assert r.uses_investor_card
    # two seeds of three ([BSW] German and English against [HU1]) decide the first edition
    assert r.invest_after_game_end is False
    assert r.last_factory_entry == "unoccupied"


def test_ruleset_2010_preset():
    r = RuleSet.preset("2010")
    assert r.bond_costs[-1] == 30 and len(r.bond_costs) == 9
    assert r.flags_per_nation == 15 and r.partner_bond == 2 and r.start_cash == 2
    assert r.unassigned_flag_min_bond == 2 and r.swiss_banks
    assert r.invest_after_game_end is False
    assert r.no_card_unbonded_nation and r.port_fleet_fights_present_army
    assert r.differences() == {}
    assert set(r.options()) == {name for name, o in OPTIONS.items() if "imperial" in o.games}


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_ruleset_presets_for_every_edition_and_variant(edition, variant):
    r = RuleSet.preset(edition, variant)
    assert (r.edition, r.variant) == (edition, variant)
    assert r.uses_investor_card is (variant != "no-investor-card")
    for name, value in r.options().items():
        assert value in OPTIONS[name].choices


def test_ruleset_unknown_edition_or_variant_is_refused():
    with pytest.raises(ValueError, match="unknown edition"):
        RuleSet.preset("third")
    with pytest.raises(ValueError, match="unknown variant"):
        RuleSet.preset("first", "solo")


def test_ruleset_with_options_checks_names_and_values():
    r = RuleSet()
    with pytest.raises(ValueError, match="unknown rule option"):
        r.with_options(no_such_rule=True)
    with pytest.raises(ValueError, match="cannot be"):
        r.with_options(flags_per_nation=12)
    with pytest.raises(ValueError, match="cannot be"):
        r.with_options(bank="infinite")
    changed = r.with_options(flags_per_nation=15, bank="limited")
    assert changed.flags_per_nation == 15 and changed.bank == "limited"
    assert r.flags_per_nation == 10  # the original is unchanged (frozen)
    assert changed.differences() == {"flags_per_nation": 15, "bank": "limited"}


def test_ruleset_from_dict_round_trip():
    r = RuleSet.preset("2010", "experienced").with_options(tie_break="highest_bond")
    again = RuleSet.from_dict(r.edition, r.variant, r.options())
    assert again == r
    with pytest.raises(ValueError):
        RuleSet.from_dict("first", "standard", {"bogus": 1})


def test_ruleset_parse_option_value():
    assert parse_option_value("swiss_banks", "true") is True
    assert parse_option_value("flags_per_nation", "15") == 15
    assert parse_option_value("bank", " Limited ") == "limited"
    with pytest.raises(ValueError, match="unknown rule option"):
        parse_option_value("nope", "1")
    with pytest.raises(ValueError, match="cannot be"):
        parse_option_value("swiss_banks", "maybe")


def test_ruleset_every_option_is_documented_with_at_least_two_choices():
    for name, info in OPTIONS.items():
        assert info.name == name
        assert len(info.choices) >= 2
        assert info.summary and info.source
        preset = RuleSet.preset(game=info.games[0])  # the first game it applies to
        assert getattr(preset, name) == info.choices[0] or name in preset.options()


def test_ruleset_every_option_outside_maneuver_is_exercised_by_name_in_the_rules_tests():
    """Both readings of each option are played in these files; this guards against a new
    option arriving without a test of its own."""
    here = pathlib.Path(__file__).parent
    text = "\n".join(
        (here / f).read_text()
        for f in ("test_setup.py", "test_rondel.py", "test_economy.py", "test_investor.py",
                  "test_taxation.py", "test_scoring.py", "test_variants.py", "test_ruleset.py",
                  "test_2030_setup.py", "test_2030_rules.py", "test_2030_canals.py")
    )  # fmt: skip
    preset_only = {  # read through the presets: first vs 2010 in test_setup / test_investor
        "thirty_million_bond", "flags_per_nation", "partner_bond", "start_cash", "swiss_banks",
    }  # fmt: skip
    missing = [
        name
        for name in OPTIONS
        if name not in MANEUVER_OPTIONS
        and name not in preset_only
        and not re.search(
            rf"\b{name}\b", text.replace("test_ruleset_every_option_outside_maneuver", "")
        )
    ]
    assert missing == []


def test_ruleset_every_maneuver_option_is_exercised_by_name_in_the_maneuver_tests():
    assert set(OPTIONS) >= MANEUVER_OPTIONS, "a listed Maneuver option does not exist"
    text = (pathlib.Path(__file__).parent / "test_maneuver.py").read_text()
    assert [name for name in MANEUVER_OPTIONS if not re.search(rf"\b{name}\b", text)] == []


# ----------------------------------------------------------- options not covered elsewhere


def test_ruleset_bank_unlimited_may_go_negative():
    g = new_game()
    g.state.bank = 0
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # tax 10: bonus 5, income 10
    assert cash(g, "Eve") == 5 and treasury(g, "GE") == 23
    assert g.state.bank == -15


def test_ruleset_bank_limited_pays_only_what_it_holds():
    g = new_game(bank="limited")
    g.state.bank = 7
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")  # bonus 5 first, then 2 of the 10M income
    assert cash(g, "Eve") == 5 and treasury(g, "GE") == 13 + 2
    assert g.state.bank == 0
    assert g.state.power[nat("GE")] == 5  # power points do not depend on the bank


def test_ruleset_black_sea_eastern_mediterranean_adjacency_option():
    on = board_for(RuleSet())
    off = board_for(RuleSet().with_options(black_sea_eastern_mediterranean=False))
    bs, em = on.index["black_sea"], on.index["eastern_mediterranean"]
    assert em in on.sea_neighbours[bs]
    assert em not in off.sea_neighbours[off.index["black_sea"]]


def test_ruleset_2010_flags_limit_tax_to_25_but_chart_stops_at_15():
    from rules import RuleSet as RS

    g = new_game(rules=RS.preset("2010"))
    seas = ("north_atlantic", "north_sea", "english_channel", "bay_of_biscay",
            "western_mediterranean")  # fmt: skip
    lands = ("norway", "sweden", "denmark", "holland", "belgium", "portugal", "spain",
             "morocco", "algeria", "tunis")  # fmt: skip
    set_factories(g, "GE", "berlin", "hamburg", "munich", "cologne", "danzig")
    set_flags(g, "GE", *seas, *lands)
    assert g.state.flags_in_supply(nat("GE")) == 0
    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")
    assert treasury(g, "GE") == 11 + 25
    assert g.state.tax_level[nat("GE")] == 15
    assert g.state.power[nat("GE")] == 10


def test_ruleset_bank_notes_total_sets_the_money_in_play():
    from helpers import money_total

    assert money_total(new_game().state) == 380
    assert money_total(new_game(rules=RuleSet.preset("2010")).state) == 420
    r = RuleSet().with_options(bank_notes_total=420)
    assert money_total(new_game(rules=r).state) == 420
