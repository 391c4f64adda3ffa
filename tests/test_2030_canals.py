"""Canals (RULES_2030.md §2.3): a fleet crossing Panama or Suez, or an army convoyed across,
needs the permission of the nation whose flag stands in Colombia / North Africa; its
government answers a ``canal`` decision at the crossing. No flag there, or the mover's own:
free. The readings RULES_2030.md leaves open are the options canal_refusal,
canal_same_government and canal_ungoverned."""

from __future__ import annotations

import pytest
from helpers import give_turn, nation_of, new_game, set_flags, set_units, texts

from rules import Game, IllegalAction, RuleSet
from rules.actions import CanalPassage, parse_action
from rules.changes import summary_changes
from rules.explain import CANAL, explain

CROSS = "US move fleet caribbean_sea -> north_pacific"


def game(**options) -> Game:
    """Six players: Anna RU, Ben CN, Cleo IN, Dan BR, Eve US, Finn EU."""
    return new_game(6, rules=RuleSet.preset(game="2030").with_options(**options))


def units(g: Game, nation: str, region: str, kind: str = "fleets") -> int:
    s = g.state
    return getattr(s, kind)[nation_of(g, nation)][s.board.index[region]]


def moves(g: Game) -> set[str]:
    return {str(a) for a in g.legal_actions()}


def us_fleet_at_panama(fleets: int = 1, **options) -> Game:
    """The US (Eve) maneuvers with fleets in the Caribbean Sea; Brazil's flag (Dan) stands
    in Colombia."""
    g = game(**options)
    set_units(g, "US", "caribbean_sea", fleets=fleets)
    set_flags(g, "BR", "colombia")
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    return g


def test_canal_asked_a_fleet_crossing_panama_waits_for_the_controllers_government():
    g = us_fleet_at_panama()
    assert CROSS in moves(g)
    events = g.apply(CROSS)
    assert g.awaiting is not None
    assert (g.awaiting.player, g.awaiting.kind, g.awaiting.nation) == ("Dan", "canal", "BR")
    assert [str(a) for a in g.legal_actions()] == [
        "BR allows US through panama",
        "BR refuses US through panama",
    ]
    assert units(g, "US", "caribbean_sea") == 1  # nothing moves before the answer
    assert "asks Brazil (Dan) to let a fleet through the Panama Canal" in texts(events)


def test_canal_allowed_the_fleet_crosses_and_the_maneuver_goes_on():
    g = us_fleet_at_panama()
    g.apply(CROSS)
    events = g.apply("BR allows US through panama")
    assert units(g, "US", "north_pacific") == 1 and units(g, "US", "caribbean_sea") == 0
    assert "Brazil lets a fleet of United States through the Panama Canal" in texts(events)
    assert g.awaiting is not None and (g.awaiting.kind, g.awaiting.nation) == ("maneuver", "US")
    assert not any("move fleet" in m for m in moves(g))  # the fleet has moved


def test_canal_refused_the_fleet_stays_and_may_do_anything_else():
    g = us_fleet_at_panama()
    g.apply(CROSS)
    events = g.apply("BR refuses US through panama")
    assert "Brazil refuses a fleet of United States passage" in texts(events)
    assert units(g, "US", "caribbean_sea") == 1
    assert g.awaiting is not None and g.awaiting.kind == "maneuver"
    assert CROSS not in moves(g)
    assert "US move fleet caribbean_sea -> north_atlantic" in moves(g)
    with pytest.raises(IllegalAction, match="Brazil has already refused passage"):
        g.apply(CROSS)
    g.apply("US move fleet caribbean_sea -> north_atlantic")
    assert units(g, "US", "north_atlantic") == 1


def test_canal_refused_unit_only_the_other_fleet_may_still_ask():
    g = us_fleet_at_panama(fleets=2)
    g.apply(CROSS)
    g.apply("BR refuses US through panama")
    assert CROSS in moves(g)  # the second fleet has not been asked about
    g.apply(CROSS)
    g.apply("BR refuses US through panama")
    assert CROSS not in moves(g)


def test_canal_refused_the_refused_fleet_leaving_lets_the_other_ask():
    g = us_fleet_at_panama(fleets=2)
    g.apply(CROSS)
    g.apply("BR refuses US through panama")
    g.apply("US move fleet caribbean_sea -> north_atlantic")  # counts as the refused one
    assert CROSS in moves(g)


def test_canal_option_canal_refusal_maneuver_closes_it_for_the_rest_of_the_maneuver():
    g = us_fleet_at_panama(fleets=2, canal_refusal="maneuver")
    g.apply(CROSS)
    g.apply("BR refuses US through panama")
    assert CROSS not in moves(g)


def test_canal_free_when_no_flag_stands_in_colombia():
    g = game()
    set_units(g, "US", "caribbean_sea", fleets=1)
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    g.apply(CROSS)
    assert units(g, "US", "north_pacific") == 1
    assert g.awaiting is not None and g.awaiting.kind == "maneuver"


def test_canal_free_for_the_controlling_nations_own_fleet():
    g = game()
    set_units(g, "BR", "caribbean_sea", fleets=1)
    set_flags(g, "BR", "colombia")
    give_turn(g, "BR", "investor")
    g.apply("BR rondel maneuver2")
    g.apply("BR move fleet caribbean_sea -> north_pacific")
    assert units(g, "BR", "north_pacific") == 1


def test_canal_suez_is_controlled_from_north_africa():
    g = game()
    set_units(g, "EU", "mediterranean_sea", fleets=1)
    set_flags(g, "IN", "north_africa")
    give_turn(g, "EU", "investor")
    g.apply("EU rondel maneuver2")
    g.apply("EU move fleet mediterranean_sea -> indian_ocean")
    assert g.awaiting is not None and (g.awaiting.player, g.awaiting.nation) == ("Cleo", "IN")
    g.apply("IN allows EU through suez")
    assert units(g, "EU", "indian_ocean") == 1


def brazil_convoy(g: Game) -> None:
    """Brazil (Dan) has an army in Fortaleza and fleets in the Caribbean Sea and the North
    Pacific; the US flag (Eve) stands in Colombia."""
    set_units(g, "BR", "fortaleza", armies=1)
    set_units(g, "BR", "caribbean_sea", fleets=1)
    set_units(g, "BR", "north_pacific", fleets=1)
    set_flags(g, "US", "colombia")
    give_turn(g, "BR", "investor")
    g.apply("BR rondel maneuver2")


CONVOY = "BR move army fortaleza -> alaska convoy caribbean_sea,north_pacific"


def test_canal_convoyed_army_is_asked_and_crosses_on_a_yes():
    g = game()
    brazil_convoy(g)
    assert CONVOY in moves(g)
    events = g.apply(CONVOY)
    assert "to let an army through the Panama Canal: by convoy from Fortaleza to Alaska" in texts(
        events
    )
    assert g.awaiting is not None and (g.awaiting.player, g.awaiting.kind) == ("Eve", "canal")
    assert units(g, "BR", "fortaleza", "armies") == 1
    g.apply("US allows BR through panama")
    assert units(g, "BR", "alaska", "armies") == 1


def test_canal_convoyed_army_refused_stays_and_is_not_asked_about_again():
    g = game()
    brazil_convoy(g)
    g.apply(CONVOY)
    g.apply("US refuses BR through panama")
    assert units(g, "BR", "fortaleza", "armies") == 1
    assert CONVOY not in moves(g)
    assert "BR move army fortaleza -> manaus" in moves(g)


def us_army_in_fortaleza(flag: bool = True) -> Game:
    """A US army in Fortaleza (on the Caribbean only) with US fleets in the Caribbean, the
    South Atlantic, the South Pacific and the North Pacific; Brazil's flag in Colombia."""
    g = game()
    set_units(g, "US", "fortaleza", armies=1)
    for sea in ("caribbean_sea", "south_atlantic", "south_pacific", "north_pacific"):
        set_units(g, "US", sea, fleets=1)
    if flag:
        set_flags(g, "BR", "colombia")
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    return g


SHORT = "US move army fortaleza -> alaska convoy caribbean_sea,north_pacific"
AROUND = (
    "US move army fortaleza -> alaska convoy "
    "caribbean_sea,south_atlantic,south_pacific,north_pacific"
)


def test_canal_convoy_around_the_canal_stays_offered_beside_the_canal_route():
    g = us_army_in_fortaleza()
    assert {SHORT, AROUND} <= moves(g)
    g.apply(SHORT)
    g.apply("BR refuses US through panama")
    assert SHORT not in moves(g) and AROUND in moves(g)
    g.apply(AROUND)  # no canal on the way: no question
    assert units(g, "US", "alaska", "armies") == 1


def test_canal_convoy_through_a_free_canal_makes_the_longer_route_needless():
    g = us_army_in_fortaleza(flag=False)
    assert SHORT in moves(g) and AROUND not in moves(g)
    with pytest.raises(IllegalAction, match="fewer fleets can carry this army"):
        g.apply(AROUND)


def test_canal_convoy_through_both_canals_asks_each_controller_in_route_order():
    g = game()
    set_units(g, "EU", "rome", armies=1)
    for sea in ("mediterranean_sea", "indian_ocean", "south_atlantic", "caribbean_sea",
                "north_pacific"):  # fmt: skip
        set_units(g, "EU", sea, fleets=1)
    set_flags(g, "IN", "north_africa")
    set_flags(g, "US", "colombia")
    give_turn(g, "EU", "investor")
    g.apply("EU rondel maneuver2")
    route = "mediterranean_sea,indian_ocean,south_atlantic,caribbean_sea,north_pacific"
    g.apply(f"EU move army rome -> alaska convoy {route}")
    assert g.awaiting is not None and g.awaiting.nation == "IN"  # Suez comes first
    g.apply("IN allows EU through suez")
    assert g.awaiting is not None and g.awaiting.nation == "US"
    assert units(g, "EU", "rome", "armies") == 1
    g.apply("US refuses EU through panama")  # a no from either withdraws the convoy
    assert units(g, "EU", "rome", "armies") == 1
    assert units(g, "EU", "alaska", "armies") == 0
    assert g.awaiting is not None and g.awaiting.kind == "maneuver"


def test_canal_a_new_controller_decides_the_crossings_asked_after_the_change():
    g = us_fleet_at_panama(fleets=2)
    g.apply(CROSS)
    g.apply("BR refuses US through panama")
    g.apply("US move fleet caribbean_sea -> north_atlantic")
    set_flags(g, "CN", "colombia")  # the flag in Colombia changed hands (as after a battle)
    g.apply(CROSS)
    assert g.awaiting is not None and (g.awaiting.nation, g.awaiting.player) == ("CN", "Ben")


def test_canal_option_canal_same_government_ask_still_asks_allow_lets_through():
    g = us_fleet_at_panama()
    g.state.government[nation_of(g, "BR")] = g.state.government[nation_of(g, "US")]
    g.apply(CROSS)
    assert g.awaiting is not None and g.awaiting.kind == "canal" and g.awaiting.player == "Eve"
    g = us_fleet_at_panama(canal_same_government="allow")
    g.state.government[nation_of(g, "BR")] = g.state.government[nation_of(g, "US")]
    g.apply(CROSS)
    assert units(g, "US", "north_pacific") == 1


def test_canal_option_canal_ungoverned_free_or_closed():
    g = us_fleet_at_panama()
    g.state.government[nation_of(g, "BR")] = -1
    g.apply(CROSS)  # nobody can refuse: free
    assert units(g, "US", "north_pacific") == 1
    g = us_fleet_at_panama(canal_ungoverned="closed")
    g.state.government[nation_of(g, "BR")] = -1
    assert CROSS not in moves(g)
    with pytest.raises(IllegalAction, match="the Panama Canal is closed"):
        g.apply(CROSS)


def test_canal_answer_must_be_about_the_question_asked():
    g = us_fleet_at_panama()
    g.apply(CROSS)
    with pytest.raises(IllegalAction, match="whether US may pass through panama"):
        g.apply("BR allows US through suez")
    with pytest.raises(IllegalAction, match="Dan's decision for Brazil"):
        g.apply("US allows US through panama")


def test_canal_notation_reads_back():
    for text in ("BR allows US through panama", "IN refuses EU through suez"):
        action = parse_action(text)
        assert isinstance(action, CanalPassage) and str(action) == text
    assert parse_action("br ALLOWS us through Panama") == CanalPassage("BR", "US", "panama", True)


def test_canal_undo_takes_back_the_question_and_the_answer():
    g = us_fleet_at_panama()
    before = g.summary()
    g.apply(CROSS)
    g.apply("BR allows US through panama")
    g.undo()
    assert g.awaiting is not None and g.awaiting.kind == "canal"
    g.undo()
    assert g.summary() == before


def test_canal_decision_and_refusals_round_trip_through_a_position():
    g = us_fleet_at_panama(fleets=2)
    g.apply(CROSS)
    doc = g.summary()
    assert doc["game"] == "2030"
    assert doc["awaiting"] == {"player": "Dan", "kind": "canal", "nation": "BR"}
    assert doc["position"]["decision"] == {
        "move": CROSS,
        "asking": [{"canal": "panama", "nation": "BR"}],
    }
    again = Game.from_position(doc)
    assert moves(again) == moves(g)
    g.apply("BR refuses US through panama")
    doc = g.summary()
    assert doc["position"]["turn_context"]["canal_refused"] == [
        {"region": "caribbean_sea", "unit": "fleet", "canal": "panama", "asked": "BR", "count": 1}
    ]
    again = Game.from_position(doc)
    assert moves(again) == moves(g)
    again.apply(CROSS)
    again.apply("BR refuses US through panama")
    assert CROSS not in moves(again)


def test_canal_explain_names_the_canal_rule_and_who_is_asked():
    g = us_fleet_at_panama()
    answer = explain(g, CROSS)
    assert answer.legal and answer.rule == CANAL
    assert "Brazil's government (Dan) for the Panama Canal is asked first" in answer.why
    assert answer.rule.where() == "`imperial rules 2030`, RULES_2030.md §2.3"
    g.apply(CROSS)
    assert explain(g, "BR refuses US through panama").legal
    g.apply("BR refuses US through panama")
    refused = explain(g, CROSS)
    assert not refused.legal and refused.rule == CANAL


def test_canal_preview_of_the_request_names_the_next_decision():
    g = us_fleet_at_panama()
    before = g.summary()
    g.apply(CROSS)
    assert summary_changes(before, g.summary()) == ["next: Dan decides canal for BR"]
