"""The rule differences of Imperial 2030 (RULES_2030.md §1-§8), one test each, named after
the rule: the rondel's price by power factor, the 2030 taxation (revenue, soldiers' pay out
of the treasury, the fixed success bonus, power points by table), unit limits, at most four
factories, the world board's wrap and harbours, the 30M bond, the end at 25 and scoring."""

from __future__ import annotations

import pytest
from helpers import (
    cash,
    give_bond,
    give_turn,
    nation_of,
    new_game,
    set_cash,
    set_factories,
    set_flags,
    set_treasury,
    set_units,
    texts,
    treasury,
)

from rules import IllegalAction, RuleSet
from rules.preview import rondel_preview
from rules.rondel import move_cost
from rules.taxation import tax_plan

NEUTRAL_SEAS = (
    "north_pacific", "south_pacific", "north_atlantic", "caribbean_sea", "south_atlantic",
    "gulf_of_guinea", "mediterranean_sea", "indian_ocean", "sea_of_japan", "china_sea",
    "tasman_sea",
)  # fmt: skip
NEUTRAL_LANDS = (
    "afghanistan", "alaska", "argentina", "australia", "canada", "colombia", "congo",
    "east_africa", "guinea", "indochina", "indonesia", "iran", "japan", "kazakhstan", "korea",
)  # fmt: skip
CN_CITIES = ("beijing", "shanghai", "chongqing", "urumqi")


def game(players: int = 6, variant: str = "standard", **options):
    rules = RuleSet.preset(variant=variant, game="2030").with_options(**options)
    return new_game(players, rules=rules)


def china_ready(g, revenue: int, units: int = 0, treasury_now: int = 20) -> None:
    """China (Ben) with factories and flags making ``revenue``, ``units`` armies at home and
    ``treasury_now`` in the treasury, on the Maneuver space before Taxation: its government
    chooses Taxation (one space: free)."""
    factories = min(4, revenue // 2)
    flags = revenue - 2 * factories
    set_factories(g, "CN", *CN_CITIES[:factories])
    set_flags(g, "CN", *(NEUTRAL_SEAS + NEUTRAL_LANDS)[:flags])
    set_units(g, "CN", "beijing", armies=0)
    set_units(g, "CN", "shanghai", fleets=0)
    set_units(g, "CN", "beijing", armies=units)
    set_treasury(g, "CN", treasury_now)
    give_turn(g, "CN", "maneuver2")


def china_taxes(g, revenue: int, units: int = 0, treasury_now: int = 20):
    """``china_ready``, then China chooses Taxation; returns its events."""
    china_ready(g, revenue, units, treasury_now)
    return g.apply("CN rondel taxation")


# ------------------------------------------------------------------------------- rondel


@pytest.mark.parametrize("power", [0, 4, 5, 9, 10, 14, 15, 19, 20, 24])
@pytest.mark.parametrize(("origin", "target", "extra"), [
    ("factory", "import", 1), ("factory", "production2", 2), ("factory", "maneuver2", 3),
    ("investor", "taxation", 1), ("factory", "maneuver1", 0),
])  # fmt: skip
def test_2030_rondel_extra_space_costs_1m_plus_the_power_factor(power, origin, target, extra):
    g = game()
    s = g.state
    s.power[nation_of(g, "CN")] = power
    give_turn(g, "CN", origin)
    from rules.actions import RONDEL_SPACES

    assert move_cost(s, nation_of(g, "CN"), RONDEL_SPACES.index(target)) == extra * (1 + power // 5)


def test_2030_rondel_china_at_11_power_points_pays_3m_from_investor_to_taxation():
    """The rulebook's example (RULES_2030.md §3, [D30] p.6)."""
    g = game()
    s = g.state
    s.power[nation_of(g, "CN")] = 11
    give_turn(g, "CN", "investor")
    set_cash(g, "Ben", 5)
    before = cash(g, "Ben")
    events = g.apply("CN rondel taxation")
    assert cash(g, "Ben") == before - 3
    assert "Ben pays 3M" in texts(events)
    preview = {p.space: p.cost for p in rondel_preview(g.state, nation_of(g, "CN"))}
    assert preview["taxation"] is None  # China now stands on it


def test_2030_rondel_price_limits_the_spaces_a_government_can_pay_for():
    g = game()
    s = g.state
    s.power[nation_of(g, "CN")] = 15  # factor 3: 4 spaces 4M, 5 spaces 8M, 6 spaces 12M
    give_turn(g, "CN", "factory")
    s.cash[s.government[nation_of(g, "CN")]] = 8
    spaces = {a.space for a in g.legal_actions()}
    assert "production2" in spaces  # 5 spaces: 8M
    assert "maneuver2" not in spaces  # 6 spaces: 12M
    with pytest.raises(IllegalAction, match="cannot pay 12M"):
        g.apply("CN rondel maneuver2")


def test_2030_rondel_refusal_for_the_price_cites_the_2030_rule():
    """The price is Imperial 2030's (RULES_2030.md §3), not Imperial's 2M a space (§3.3)."""
    from rules.explain import explain

    g = game()
    s = g.state
    s.power[nation_of(g, "CN")] = 15
    give_turn(g, "CN", "factory")
    s.cash[s.government[nation_of(g, "CN")]] = 8
    answer = explain(g, "CN rondel maneuver2")
    assert not answer.legal
    assert answer.rule.short() == "Imperial 2030, cost of a rondel move"
    assert answer.rule.where() == "`imperial rules 2030`, RULES_2030.md §3"


def test_2030_option_rondel_extra_cost_flat_costs_2m_a_space_as_in_imperial():
    g = game(rondel_extra_cost="flat")
    s = g.state
    s.power[nation_of(g, "CN")] = 11
    give_turn(g, "CN", "investor")
    before = cash(g, "Ben")
    g.apply("CN rondel taxation")
    assert cash(g, "Ben") == before - 2


# ------------------------------------------------------------------------------- taxation


@pytest.mark.parametrize(
    ("revenue", "points", "bonus"),
    [
        (0, 0, 0), (5, 0, 0), (6, 1, 1), (7, 1, 1), (8, 2, 1), (9, 2, 1), (10, 3, 2),
        (11, 4, 2), (12, 5, 3), (13, 6, 3), (14, 7, 4), (15, 8, 4), (16, 9, 5), (17, 9, 5),
        (18, 10, 5), (23, 10, 5),
    ],
)  # fmt: skip
def test_2030_taxation_table_power_points_and_success_bonus_at_each_row_edge(
    revenue, points, bonus
):
    g = game()
    before = cash(g, "Ben")
    events = china_taxes(g, revenue, units=0, treasury_now=20)
    assert g.state.power[nation_of(g, "CN")] == points
    assert cash(g, "Ben") == before + bonus
    assert treasury(g, "CN") == 20 + revenue - bonus
    assert f"CN taxes {revenue}M" in texts(events).replace("China", "CN")


def test_2030_taxation_revenue_is_at_most_23m_with_4_factories_and_15_flags():
    g = game()
    events = china_taxes(g, 23, units=0, treasury_now=0)
    assert "China taxes 23M (4 factories × 2M + 15 flags)" in texts(events)
    assert g.state.flags_in_supply(nation_of(g, "CN")) == 0
    assert treasury(g, "CN") == 23 - 5


def test_2030_taxation_soldiers_are_paid_from_the_treasury_before_the_bonus():
    """RULES_2030.md §4, first worked example: R = 12, 5 units, treasury 1."""
    g = game()
    before = cash(g, "Ben")
    china_taxes(g, 12, units=5, treasury_now=1)
    assert treasury(g, "CN") == 1 + 12 - 5 - 3
    assert cash(g, "Ben") == before + 3
    assert g.state.power[nation_of(g, "CN")] == 5


def test_2030_taxation_bonus_is_cut_to_what_the_treasury_holds_after_soldiers_pay():
    g = game()
    before = cash(g, "Ben")
    events = china_taxes(g, 12, units=10, treasury_now=0)  # 0 + 12 - 10 = 2, bonus 3 -> 2
    assert cash(g, "Ben") == before + 2
    assert treasury(g, "CN") == 0
    assert "2M success bonus" in texts(events) and "the table gives 3M" in texts(events)


def test_2030_taxation_treasury_reaches_zero_and_the_rest_of_the_pay_stays_unpaid():
    """RULES_2030.md §4, second worked example: R = 6, 8 units, treasury 0."""
    g = game()
    china_ready(g, 6, units=8, treasury_now=0)
    before = cash(g, "Ben")
    bank = g.state.bank
    events = g.apply("CN rondel taxation")
    assert treasury(g, "CN") == 0
    assert cash(g, "Ben") == before  # the bonus of 1M is cut to 0
    assert g.state.power[nation_of(g, "CN")] == 1
    assert g.state.bank == bank  # 6M in, 6M of the 8M pay back out
    assert "pays 6M of the 8M" in texts(events)


def test_2030_taxation_treasury_may_lose_money_imperial_treasury_never_does():
    g = game()
    china_taxes(g, 4, units=7, treasury_now=10)
    assert treasury(g, "CN") == 10 + 4 - 7
    imperial = new_game()
    set_units(imperial, "AH", "vienna", armies=7)
    start = treasury(imperial, "AH")
    give_turn(imperial, "AH", "maneuver2")
    imperial.apply("AH rondel taxation")
    assert treasury(imperial, "AH") == start  # 4M tax, 7 units: the treasury receives nothing


def test_2030_taxation_preview_is_the_step_the_engine_takes():
    g = game()
    set_factories(g, "CN", "beijing", "shanghai", "chongqing")
    set_flags(g, "CN", "korea", "japan", "china_sea", "mongolia", "indochina", "tasman_sea")
    set_units(g, "CN", "beijing", armies=5)
    set_treasury(g, "CN", 1)
    plan = tax_plan(g.state, nation_of(g, "CN"))
    assert (plan.revenue, plan.pay, plan.bonus, plan.points) == (12, 5, 3, 5)
    assert plan.treasury_gain == 12 - 5 - 3 and plan.bonus_from_treasury
    give_turn(g, "CN", "investor")
    text = next(p.text for p in rondel_preview(g.state) if p.space == "taxation")
    assert text == "tax 12M: treasury +4M, power +5, Ben +3M bonus"


def test_2030_option_success_bonus_imperial_pays_the_chart_rise_from_the_bank():
    g = game(success_bonus="imperial")
    before = cash(g, "Ben")
    china_taxes(g, 12, units=5, treasury_now=1)
    assert cash(g, "Ben") == before + 12 - 5  # chart 5 -> 12: 7M from the bank
    assert treasury(g, "CN") == 1 + 12 - 5  # nothing out of the treasury for the bonus
    assert g.state.tax_level[nation_of(g, "CN")] == 12
    assert g.state.power[nation_of(g, "CN")] == 5  # power still by the 2030 table


def test_2030_option_taxation_imperial_uses_imperials_chart_and_pay():
    g = game(taxation="imperial")
    before = cash(g, "Ben")
    china_taxes(g, 12, units=5, treasury_now=1)
    assert g.state.power[nation_of(g, "CN")] == 7  # chart 12 - 5
    assert cash(g, "Ben") == before + 7
    assert treasury(g, "CN") == 1 + 12 - 5


def test_2030_game_ends_at_25_power_points_and_scores_as_imperial():
    g = game()
    s = g.state
    s.power[nation_of(g, "CN")] = 20
    events = china_taxes(g, 18, units=0, treasury_now=0)
    assert g.state.power[nation_of(g, "CN")] == 25
    assert "reaches 25 power points: the game ends" in texts(events)
    while g.awaiting is not None:  # the investor card pays out after Taxation passes Investor
        g.apply(g.legal_actions()[-1])
    result = g.result()
    assert result is not None
    # Ben holds CN 9 (interest 4) at factor 5 and IN... : bonds x power factor + cash
    scores = result.scores
    s = g.state
    for p, name in enumerate(g.players):
        expected = s.cash[p] + sum(
            (k + 1) * min(5, s.power[n] // 5)
            for n in range(6)
            for k, o in enumerate(s.bond_owner[n])
            if o == p
        )
        assert scores[name] == expected


# ------------------------------------------------------------------------------- bonds


def test_2030_thirty_million_bond_pays_interest_9():
    g = game()
    give_bond(g, "Anna", "CN", 30)
    s = g.state
    assert s.interest_owed(nation_of(g, "CN"))[0] == 9
    assert s.rules.bond_costs.index(30) == 8
    assert g.summary()["nations"]["RU"]["bonds_available"][-1] == 30


def test_2030_thirty_million_bond_can_be_bought_on_the_investor_space():
    g = game()
    set_treasury(g, "RU", 30)  # pays all interest
    give_turn(g, "RU", "factory")  # Investor is three spaces on: free
    set_cash(g, "Ben", 30)  # Ben holds the investor card
    g.apply("RU rondel investor")
    assert g.awaiting is not None and (g.awaiting.player, g.awaiting.kind) == ("Ben", "invest")
    assert "Ben buys CN 30" in {str(a) for a in g.legal_actions()}
    g.apply("Ben buys CN 30")
    assert treasury(g, "CN") == 11 + 30
    assert 30 in [b["value"] for b in g.summary()["players"][1]["bonds"] if b["nation"] == "CN"]


# ------------------------------------------------------------------------------- units


def test_2030_unit_limits_china_10_armies_6_fleets_us_6_armies_10_fleets():
    g = game()
    s = g.state
    cn, us = nation_of(g, "CN"), nation_of(g, "US")
    assert (s.armies_in_supply(cn), s.fleets_in_supply(cn)) == (10, 6)
    assert (s.armies_in_supply(us), s.fleets_in_supply(us)) == (6, 10)
    set_units(g, "CN", "shanghai", fleets=6)
    set_treasury(g, "CN", 10)
    give_turn(g, "CN", "investor")
    g.apply("CN rondel import")
    imports = {str(a) for a in g.legal_actions()}
    assert "CN import army beijing" in imports
    assert not any("fleet" in a for a in imports)
    with pytest.raises(IllegalAction, match="no fleets left"):
        g.apply("CN import fleet shanghai")


def test_2030_unit_limits_stop_production_at_the_supply():
    g = game()
    set_units(g, "US", "chicago", armies=6)
    give_turn(g, "US", "investor")
    g.apply("US rondel production2")
    # Chicago's armaments cannot produce (6 of 6 armies out); New Orleans builds a fleet
    assert [str(a) for a in g.legal_actions()] == ["US produce new_orleans", "US produce done"]
    g.apply("US produce new_orleans")
    assert sum(g.state.fleets[nation_of(g, "US")]) == 1
    assert sum(g.state.armies[nation_of(g, "US")]) == 6


def test_2030_at_most_four_factories_one_per_home_province():
    g = game()
    set_factories(g, "CN", *CN_CITIES)
    set_treasury(g, "CN", 20)
    give_turn(g, "CN", "investor")
    events = g.apply("CN rondel factory")
    assert "China has no free unoccupied city for a factory" in texts(events)
    assert len(g.state.factories_of(nation_of(g, "CN"))) == 4
    g2 = game()
    set_factories(g2, "US", "chicago", "new_orleans", "new_york")
    set_treasury(g2, "US", 20)
    give_turn(g2, "US", "investor")
    g2.apply("US rondel factory")
    assert {str(a) for a in g2.legal_actions()} == {
        "US build factory san_francisco",
        "US build no factory",
    }


# ------------------------------------------------------------------------------- the board


def test_2030_wrap_border_a_fleet_crosses_the_pacific_edge():
    g = game()
    set_units(g, "RU", "north_pacific", fleets=1)
    give_turn(g, "RU", "investor")
    g.apply("RU rondel maneuver2")
    moves = {str(a) for a in g.legal_actions()}
    assert "RU move fleet north_pacific -> sea_of_japan" in moves
    assert "RU move fleet north_pacific -> china_sea" in moves
    g.apply("RU move fleet north_pacific -> sea_of_japan")
    assert g.state.fleets[nation_of(g, "RU")][g.state.board.index["sea_of_japan"]] == 1


def test_2030_wrap_border_a_convoy_crosses_the_pacific_edge():
    g = game()
    set_units(g, "US", "san_francisco", armies=1)
    set_units(g, "US", "north_pacific", fleets=1)
    set_units(g, "US", "sea_of_japan", fleets=1)
    give_turn(g, "US", "investor")
    g.apply("US rondel maneuver2")
    g.apply("US move army san_francisco -> japan convoy north_pacific,sea_of_japan")
    assert g.state.armies[nation_of(g, "US")][g.state.board.index["japan"]] == 1


@pytest.mark.parametrize(
    ("port", "nation", "sea"),
    [("san_francisco", "US", "north_pacific"), ("vladivostok", "RU", "sea_of_japan"),
     ("fortaleza", "BR", "caribbean_sea"), ("murmansk", "RU", "north_atlantic")],
)  # fmt: skip
def test_2030_harbour_seas_a_fleet_in_port_sails_only_into_its_harbour(port, nation, sea):
    g = game()
    set_units(g, nation, port, fleets=1)
    give_turn(g, nation, "investor")
    g.apply(f"{nation} rondel maneuver2")
    fleet_moves = [str(a) for a in g.legal_actions() if "fleet" in str(a) and port in str(a)]
    assert fleet_moves == [f"{nation} move fleet {port} -> {sea}"]


def test_2030_nation_codes_of_imperial_are_refused_in_a_2030_game():
    g = game()
    with pytest.raises(IllegalAction, match="there is no nation 'AH'; nations are RU CN IN BR"):
        g.apply("Anna donates 1 to AH")
    imperial = new_game()
    with pytest.raises(IllegalAction, match="nations are AH IT FR GB GE RU"):
        imperial.apply("Anna donates 1 to CN")


def test_2030_option_east_africa_near_east_adds_the_doubtful_border():
    from rules.setup import board_for

    off = board_for(RuleSet.preset(game="2030"))
    on = board_for(RuleSet.preset(game="2030").with_options(east_africa_near_east=True))
    assert not off.borders("east_africa", "near_east")
    assert on.borders("east_africa", "near_east")
    g = game(east_africa_near_east=True)
    set_units(g, "IN", "east_africa", armies=1)
    give_turn(g, "IN", "investor")
    g.apply("IN rondel maneuver2")
    assert "IN move army east_africa -> near_east" in {str(a) for a in g.legal_actions()}
