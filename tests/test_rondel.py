"""The rondel (RULES.md §3): placement, movement costs, passing Investor, Swiss bank forcing."""

from __future__ import annotations

import random

import pytest
from helpers import (
    cash,
    give_turn,
    governor,
    investor_holder,
    money_total,
    nat,
    new_game,
    player,
    set_cash,
    set_factories,
    set_treasury,
    texts,
)

from rules import Game, IllegalAction, RuleSet
from rules.actions import RONDEL_SPACES, ChooseRondel
from rules.decisions import Decision
from rules.rondel import cost_of, distance, legal_rondel, passes_investor, rondel_blocks
from rules.state import NO


@pytest.mark.parametrize("space", RONDEL_SPACES)
def test_rondel_first_placement_on_any_space_is_free(space):
    g = new_game()
    set_cash(g, "Anna", 0)
    g.apply(f"AH rondel {space}")
    assert g.state.rondel[nat("AH")] == RONDEL_SPACES.index(space)
    # nothing paid for the move; on Investor Anna receives her 4M interest on AH 9M
    assert cash(g, "Anna") == (4 if space == "investor" else 0)


def test_rondel_moves_of_one_to_three_spaces_are_free():
    for d in (1, 2, 3):
        g = new_game()
        give_turn(g, "GE", "taxation")
        set_cash(g, "Eve", 0)
        g.apply(f"GE rondel {RONDEL_SPACES[d - 1]}")
        assert cash(g, "Eve") == 0


@pytest.mark.parametrize(("origin", "target", "cost"), [
    ("taxation", "import", 4),  # 7 -> 4 wraps round the rondel: 5 spaces
    ("factory", "import", 2),  # 4 spaces
    ("factory", "production2", 4),  # 5 spaces
    ("factory", "maneuver2", 6),  # 6 spaces
])  # fmt: skip
def test_rondel_moves_beyond_three_spaces_cost_2m_each(origin, target, cost):
    o, t = RONDEL_SPACES.index(origin), RONDEL_SPACES.index(target)
    expected = 2 * max(0, distance(o, t) - 3)
    assert cost_of(o, t) == expected
    assert expected == cost
    g = new_game()
    give_turn(g, "GB", origin)
    set_cash(g, "Dan", 10)
    total = money_total(g.state)
    treasury_before = g.state.treasury[nat("GB")]
    bank_before = g.state.bank
    g.apply(f"GB rondel {target}")
    assert cash(g, "Dan") == 10 - expected
    # paid from the government's cash into the bank, not from the treasury
    assert g.state.treasury[nat("GB")] >= treasury_before - 5  # only an action may spend it
    assert money_total(g.state) == total
    if target == "import":  # waits for the import decision before the Investor card pays
        assert g.state.bank == bank_before + expected
        assert g.state.treasury[nat("GB")] == treasury_before


def test_rondel_move_cost_is_paid_by_government_cash_not_treasury():
    g = new_game()
    give_turn(g, "FR", "factory")
    set_cash(g, "Cleo", 7)
    g.apply("FR rondel maneuver2")  # 6 spaces: 6M
    assert cash(g, "Cleo") == 1
    assert g.state.treasury[nat("FR")] == 13


def test_rondel_italian_example_investor_to_taxation_costs_2m():
    g = new_game()
    give_turn(g, "IT", "investor")
    set_cash(g, "Ben", 10)
    g.apply("IT rondel taxation")
    assert cash(g, "Ben") == 8  # IT's tax of 4M gives no bonus


def test_rondel_italian_example_investor_to_factory_costs_4m():
    g = new_game()
    give_turn(g, "IT", "investor")
    set_cash(g, "Ben", 10)
    g.apply("IT rondel factory")
    assert cash(g, "Ben") == 6
    assert g.awaiting.kind == "build_factory"


def test_rondel_marker_must_move_it_cannot_stay():
    g = new_game()
    give_turn(g, "AH", "import")
    with pytest.raises(IllegalAction, match="must move"):
        g.apply("AH rondel import")
    assert "AH rondel import" not in {a.notation() for a in g.legal_actions()}


def test_rondel_marker_moves_at_most_six_spaces():
    g = new_game()
    give_turn(g, "AH", "import")
    set_cash(g, "Anna", 100)
    with pytest.raises(IllegalAction, match="at most 6"):
        g.apply("AH rondel investor")  # 7 spaces
    assert len(g.legal_actions()) == 6


def test_rondel_space_the_government_cannot_afford_is_illegal():
    g = new_game()
    give_turn(g, "AH", "factory")
    set_cash(g, "Anna", 3)
    before = g.summary()
    with pytest.raises(IllegalAction, match="cannot pay 4M"):
        g.apply("AH rondel production2")
    assert g.summary() == before
    legal = {a.notation() for a in g.legal_actions()}
    assert "AH rondel import" in legal and "AH rondel production2" not in legal


def test_rondel_unknown_space_is_illegal():
    g = new_game()
    with pytest.raises(IllegalAction):
        g.apply("AH rondel casino")


def test_rondel_another_nations_move_is_illegal():
    g = new_game()
    with pytest.raises(IllegalAction):
        g.apply("IT rondel factory")


def test_rondel_passes_investor_only_strictly_between_old_and_new_position():
    inv = RONDEL_SPACES.index("investor")
    assert passes_investor(2, 4)
    assert passes_investor(7, 5)
    assert not passes_investor(inv, 7)  # leaving Investor
    assert not passes_investor(2, inv)  # landing on it
    assert not passes_investor(NO, 5)  # first placement from the centre
    assert not passes_investor(4, 7)


def test_rondel_passing_investor_pays_the_card_but_no_interest():
    g = new_game()
    give_turn(g, "AH", "maneuver1")
    holder = investor_holder(g)
    assert holder == "Ben"
    g.apply("AH rondel import")  # passes Investor
    assert g.awaiting.kind == "import"
    g.apply("AH import done")
    # first the landing action, then steps 2 and 3 of Investor: the card pays 2M
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Ben"
    assert cash(g, "Ben") == 2
    assert cash(g, "Cleo") == 0  # Cleo's AH 4M bond earns no interest when passing
    assert g.state.treasury[nat("AH")] == 13
    g.apply("Ben passes")
    assert investor_holder(g) == "Cleo"  # the card passes clockwise
    assert g.awaiting.nation == "IT"


def test_rondel_first_placement_on_taxation_never_passes_investor():
    g = new_game()
    ev = g.apply("AH rondel taxation")
    assert "passed Investor" not in texts(ev)
    assert investor_holder(g) == "Ben"
    assert g.awaiting.nation == "IT"


def test_rondel_factory_without_site_allowed_with_no_effect():
    g = new_game()
    give_turn(g, "GE", "taxation")
    set_factories(g, "GE", "berlin", "munich", "cologne", "hamburg", "danzig")
    g.apply("GE rondel factory")
    assert g.awaiting.nation == "RU"  # nothing to decide; the turn is over
    assert g.state.rondel[nat("GE")] == 0


def test_rondel_factory_without_site_forbidden_option():
    g = new_game(factory_without_site="forbidden")
    give_turn(g, "GE", "taxation")
    set_factories(g, "GE", "berlin", "munich", "cologne", "hamburg", "danzig")
    with pytest.raises(IllegalAction, match="cannot build a factory"):
        g.apply("GE rondel factory")
    # also forbidden when treasury plus spare cash cannot pay 5M
    g = new_game(factory_without_site="forbidden")
    give_turn(g, "GE", "taxation")
    set_treasury(g, "GE", 2)
    set_cash(g, "Eve", 2)
    assert "GE rondel factory" not in {a.notation() for a in g.legal_actions()}
    set_cash(g, "Eve", 3)  # a donation could make up the 5M
    assert "GE rondel factory" in {a.notation() for a in g.legal_actions()}


# ------------------------------------------------------------------ Swiss banks (2010 only)


def _swiss_game(**options):
    """2010, 6 players; Anna and Cleo govern nothing (Ben governs AH, Dan governs FR)."""
    g = new_game(rules=RuleSet.preset("2010").with_options(**options))
    s = g.state
    s.government[nat("AH")] = player(g, "Ben")
    s.government[nat("FR")] = player(g, "Dan")
    s.investor_card = player(g, "Dan")
    return g


def test_rondel_swiss_bank_holder_may_force_a_nation_passing_investor_to_stop():
    g = _swiss_game()
    give_turn(g, "AH", "maneuver1")
    g.apply("AH rondel import")
    assert g.awaiting.kind == "swiss_bank"
    assert g.awaiting.player == "Anna"  # clockwise from the card holder Dan: Anna, then Cleo
    g.apply("Anna forces AH to investor")
    assert g.state.rondel[nat("AH")] == RONDEL_SPACES.index("investor")
    # the full Investor action, interest included: Cleo holds AH 2M (2010 FR card)
    assert cash(g, "Cleo") == 2 + 1
    assert g.awaiting.kind == "invest" and g.awaiting.player == "Dan"


def test_rondel_swiss_bank_holders_asked_in_turn_and_may_let_it_pass():
    g = _swiss_game()
    give_turn(g, "AH", "maneuver1")
    g.apply("AH rondel import")
    g.apply("Anna lets AH pass")
    assert g.awaiting.player == "Cleo"
    g.apply("Cleo lets AH pass")
    assert g.awaiting.kind == "import"
    assert g.state.rondel[nat("AH")] == RONDEL_SPACES.index("import")


def test_rondel_swiss_bank_ask_order_from_the_governments_left():
    g = _swiss_game(swiss_bank_ask_order="government")
    give_turn(g, "AH", "maneuver1")  # governed by Ben: Cleo sits on his left
    g.apply("AH rondel import")
    assert g.awaiting.player == "Cleo"


def test_rondel_swiss_bank_cannot_force_when_treasury_cannot_pay_all_interest():
    g = _swiss_game()
    give_turn(g, "AH", "maneuver1")
    set_treasury(g, "AH", 4)  # owes 4 (Ben's 9M) + 1 (Cleo's 2M)
    g.apply("AH rondel import")
    assert g.awaiting.kind == "import"


def test_rondel_swiss_bank_forced_stop_costs_the_distance_actually_moved():
    g = _swiss_game()
    give_turn(g, "AH", "taxation")
    set_cash(g, "Ben", 6)
    g.apply("AH rondel production2")  # 6 spaces, 6M, passing Investor
    g.apply("Anna forces AH to investor")  # taxation -> investor is 4 spaces: 2M
    assert cash(g, "Ben") == 6 - 2  # (Anna still owns AH 9M and receives its interest)


def test_rondel_swiss_bank_forced_stop_free_option():
    g = _swiss_game(swiss_bank_forced_cost="free")
    give_turn(g, "AH", "taxation")
    set_cash(g, "Ben", 6)
    g.apply("AH rondel production2")
    g.apply("Anna forces AH to investor")
    assert cash(g, "Ben") == 6


def test_rondel_no_swiss_banks_in_the_first_edition():
    g = new_game()
    s = g.state
    s.government[nat("AH")] = player(g, "Ben")
    give_turn(g, "AH", "maneuver1")
    g.apply("AH rondel import")
    assert g.awaiting.kind == "import"
    assert governor(g, "AH") == "Ben"


def test_rondel_swiss_bank_asked_only_when_the_move_passes_investor():
    # landing on Investor, a move that does not pass it, and a first placement ask nobody
    for origin, target, kind in (
        ("maneuver1", "investor", "invest"),  # lands on it: the Investor action itself
        ("investor", "import", "import"),  # starts on it: does not pass
        ("taxation", "production1", "produce"),
        (None, "import", "import"),  # the first placement never passes
    ):
        g = _swiss_game()
        give_turn(g, "AH", origin)
        g.apply(f"AH rondel {target}")
        assert g.awaiting.kind == kind, (origin, target)


def test_rondel_swiss_bank_forced_stop_replaces_the_chosen_action_with_the_full_investor():
    g = _swiss_game()  # AH: Ben governs; Anna holds AH 9M, Cleo AH 2M; Dan holds the card
    total = money_total(g.state)
    give_turn(g, "AH", "maneuver1")
    g.apply("AH rondel import")
    g.apply("Anna lets AH pass")
    g.apply("Cleo forces AH to investor")  # the second holder asked may still force
    assert g.state.rondel[nat("AH")] == RONDEL_SPACES.index("investor")
    assert cash(g, "Anna") == 2 + 4 and cash(g, "Cleo") == 2 + 1  # step 1: interest
    assert g.state.treasury[nat("AH")] == 11 - 5
    assert g.awaiting.player == "Dan" and cash(g, "Dan") == 2 + 2  # step 2: the card
    g.apply("Dan passes")
    order = []
    while g.awaiting.kind == "invest":  # step 3: the Swiss banks, clockwise from Dan
        order.append(g.awaiting.player)
        g.apply(f"{g.awaiting.player} passes")
    assert order == ["Anna", "Cleo"]
    assert investor_holder(g) == "Eve"  # the card moves on
    assert g.awaiting.kind == "rondel" and g.awaiting.nation == "IT"  # no import happened
    assert money_total(g.state) == total


def test_rondel_swiss_bank_counts_the_governments_own_interest_for_forcing():
    # the treasury must cover ALL interest (here 6M incl. the government's own 4M), not just
    # the other holders' share
    g = new_game(rules=RuleSet.preset("2010"))  # Anna governs AH with AH 9M, Cleo AH 2M
    g.state.government[nat("RU")] = player(g, "Eve")  # Finn governs nothing: a Swiss bank
    give_turn(g, "AH", "maneuver1")
    set_treasury(g, "AH", 4)  # covers Cleo's 1M but not all 5M
    g.apply("AH rondel import")
    assert g.awaiting.kind == "import"
    g = new_game(rules=RuleSet.preset("2010"))
    g.state.government[nat("RU")] = player(g, "Eve")
    give_turn(g, "AH", "maneuver1")
    set_treasury(g, "AH", 5)
    g.apply("AH rondel import")
    assert g.awaiting.kind == "swiss_bank" and g.awaiting.player == "Finn"


def test_the_rondel_list_kept_by_what_it_depends_on_is_the_list_of_the_blocks() -> None:
    """``legal_rondel`` keeps its lists by nation, space, the farthest space paid for and
    Investor refused (issue 26): in every rondel decision of seeded random games they are the
    spaces ``rondel_blocks`` leaves open, in space order."""
    for preset in (("first", "standard", "imperial"), ("2010", "experienced", "2030")):
        for seed in range(3):
            game = Game.new(["Anna", "Ben", "Cleo"], RuleSet.preset(*preset), seed=seed)
            rng = random.Random(seed)
            while not game.is_over:
                s = game._state
                if s.awaiting_kind is Decision.RONDEL:
                    n = s.turn
                    want = [
                        ChooseRondel(s.board.codes[n], RONDEL_SPACES[target])
                        for target, block in enumerate(rondel_blocks(s, n))
                        if block is None
                    ]
                    assert legal_rondel(s, n) == want
                game.apply(rng.choice(game.legal_actions()))
