"""End of the game and scoring (RULES.md §7): power factor, victory points, tie-breaks and
``result().decided_by``."""

from __future__ import annotations

import pytest
from helpers import give_bond, nat, new_game, set_cash, set_treasury

from rules.scoring import power_factor
from rules.state import NO


@pytest.mark.parametrize(
    ("points", "factor"),
    [(0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (14, 2), (15, 3), (19, 3), (20, 4), (24, 4),
     (25, 5)],
)  # fmt: skip
def test_scoring_power_factor_table(points, factor):
    assert power_factor(points) == factor


def _blank(players=4, **options):
    """A finished-looking position: no bonds owned, no cash, all nations at 0 power."""
    g = new_game(players, **options)
    s = g.state
    s.bond_owner = [[NO] * len(s.rules.bond_costs) for _ in range(6)]
    for p in g.players:
        set_cash(g, p, 0)
    return g


def _power(g, **points):
    for c, v in points.items():
        g.state.power[nat(c)] = v


def test_scoring_french_example_12m_bond_at_17_points_is_worth_15():
    g = _blank()
    _power(g, FR=17)
    give_bond(g, "Anna", "FR", 12)
    assert g.provisional_result().scores["Anna"] == 15


def test_scoring_bsw_example_it_4_and_16_at_17_points_give_24():
    g = _blank()
    _power(g, IT=17)
    give_bond(g, "Ben", "IT", 4)
    give_bond(g, "Ben", "IT", 16)
    assert g.provisional_result().scores["Ben"] == (2 + 6) * 3


def test_scoring_personal_cash_counts_one_point_per_million():
    g = _blank()
    set_cash(g, "Cleo", 17)
    _power(g, GE=25)
    give_bond(g, "Cleo", "GE", 2)
    assert g.provisional_result().scores["Cleo"] == 17 + 5


def test_scoring_treasury_money_and_governments_are_worthless():
    g = _blank()
    set_treasury(g, "AH", 50)
    assert g.provisional_result().scores == {p: 0 for p in g.players}


def test_scoring_bonds_of_a_nation_below_5_points_are_worth_nothing():
    g = _blank()
    _power(g, RU=4)
    give_bond(g, "Dan", "RU", 25)
    assert g.provisional_result().scores["Dan"] == 0


def test_scoring_most_victory_points_wins():
    g = _blank()
    _power(g, AH=10)
    give_bond(g, "Anna", "AH", 9)
    set_cash(g, "Ben", 7)
    res = g.provisional_result()
    assert res.winner == "Anna" and res.winners == ("Anna",)
    assert res.decided_by == "most victory points"


def test_scoring_tie_broken_by_credit_in_the_nation_with_most_power():
    g = _blank()
    _power(g, GE=20, FR=10)
    give_bond(g, "Anna", "GE", 9)  # 4 x 4 = 16
    give_bond(g, "Ben", "FR", 25)  # 8 x 2 = 16
    res = g.provisional_result()
    assert res.scores["Anna"] == res.scores["Ben"] == 16
    assert res.winner == "Anna"
    assert res.decided_by == "tie on points broken by credit in GE"


def test_scoring_tie_broken_by_the_second_strongest_nation_if_still_tied():
    g = _blank()
    _power(g, GE=20, FR=10, AH=5)
    give_bond(g, "Anna", "GE", 9)  # 16
    give_bond(g, "Anna", "AH", 2)  # 1
    give_bond(g, "Ben", "GE", 4)  # 8
    give_bond(g, "Ben", "FR", 12)  # 10 -> Anna 17, Ben 18: make them equal with cash
    set_cash(g, "Anna", 1)
    take = g.provisional_result()
    assert take.scores["Anna"] == take.scores["Ben"] == 18
    # credit in GE: Anna 9 > Ben 4 -> decided in GE
    assert take.decided_by == "tie on points broken by credit in GE"
    assert take.winner == "Anna"
    # now equal credit in GE: decided in FR (second strongest)
    g.state.bond_owner[nat("GE")] = [NO] * 8
    give_bond(g, "Anna", "GE", 6)
    give_bond(g, "Ben", "GE", 2)
    give_bond(g, "Ben", "GE", 4)
    set_cash(g, "Anna", 0)
    set_cash(g, "Ben", 0)
    # Anna: GE 6 (3 x 4 = 12) + AH 2 (1) = 13; Ben: GE 2+4 (3 x 4 = 12) + FR 12 (5 x 2 = 10) = 22
    set_cash(g, "Anna", 9)
    res = g.provisional_result()
    assert res.scores["Anna"] == res.scores["Ben"] == 22
    assert res.decided_by == "tie on points broken by credit in FR"
    assert res.winner == "Ben"


def _equal_power_tie(**options):
    """GE and FR both at 10 points; Anna's credit is in FR, Ben's in GE and AH (5 points)."""
    g = _blank(**options)
    _power(g, GE=10, FR=10, AH=5)
    give_bond(g, "Anna", "FR", 9)  # 4 x 2 = 8
    give_bond(g, "Ben", "GE", 4)  # 2 x 2 = 4
    give_bond(g, "Ben", "AH", 20)  # 7 x 1 = 7
    set_cash(g, "Ben", 0)
    set_cash(g, "Anna", 3)  # 11 each
    return g


def test_scoring_tie_between_equally_strong_nations_compared_in_turn_order():
    g = _equal_power_tie()
    res = g.provisional_result()
    assert res.scores["Anna"] == res.scores["Ben"] == 11
    assert res.decided_by == "tie on points broken by credit in FR"  # FR comes before GE
    assert res.winner == "Anna"


def test_scoring_tie_between_equally_strong_nations_together_option():
    for option, winner, decided in (
        ("turn_order", "Anna", "FR"),  # FR alone: Anna 9 against Ben 0
        ("together", "Ben", "FR+GE"),  # FR + GE: Anna 9 against Ben 10
    ):
        g = _equal_power_tie(tie_break_equal_power=option)
        give_bond(g, "Ben", "GE", 6)  # Ben: GE (2 + 3) x 2 + AH 7 = 17
        set_cash(g, "Anna", 9)  # Anna: FR 8 + 9 = 17
        res = g.provisional_result()
        assert res.scores["Anna"] == res.scores["Ben"] == 17
        assert res.decided_by == f"tie on points broken by credit in {decided}"
        assert res.winner == winner


def test_scoring_highest_bond_tie_break_option():
    g = _blank(tie_break="highest_bond")
    _power(g, GE=20)
    give_bond(g, "Anna", "GE", 2)
    give_bond(g, "Anna", "GE", 4)
    give_bond(g, "Anna", "GE", 6)  # credit 12, highest bond 6, interest 6 x 4 = 24
    give_bond(g, "Ben", "GE", 9)  # credit 9, highest bond 9, 4 x 4 = 16
    set_cash(g, "Ben", 8)
    res = g.provisional_result()
    assert res.scores["Anna"] == res.scores["Ben"] == 24
    assert res.winner == "Ben"
    assert res.decided_by == "tie on points broken by highest bond in GE"
    # the one line lists the winner first among the tied (it read "Anna 24, Ben 24")
    assert "; Ben 24, Anna 24, " in res.describe()
    g.state.rules = g.state.rules.with_options(tie_break="credit_sum")
    assert g.provisional_result().winner == "Anna"


def test_scoring_full_tie_is_a_shared_victory():
    g = _blank()
    set_cash(g, "Anna", 5)
    set_cash(g, "Ben", 5)
    res = g.provisional_result()
    assert res.winners == ("Anna", "Ben")
    assert res.winner is None
    assert res.decided_by == "full tie: shared victory"
    # said once (it read "shared victory of Anna and Ben (full tie: shared victory)")
    assert res.describe().startswith("shared victory of Anna and Ben (a full tie); Anna 5, Ben 5")


def test_scoring_result_only_when_the_game_is_over():
    g = new_game()
    assert g.result() is None
    assert g.summary()["scores"] is None
    g.state.power[nat("GE")] = 24
    for c in ("berlin", "hamburg", "munich", "cologne", "danzig"):
        g.state.factory[g.state.board.index[c]] = True
    from helpers import give_turn

    give_turn(g, "GE", None)
    g.apply("GE rondel taxation")
    res = g.result()
    assert res is not None
    summary = g.summary()
    assert summary["scores"] == res.scores
    assert summary["winners"] == list(res.winners)
    assert summary["decided_by"] == res.decided_by
    # Eve owns GE 9 (factor 5: 4 x 5 = 20) and cash: she wins
    assert res.winner == "Eve"
