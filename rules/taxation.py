"""Taxation of either game: what a Taxation would bring a nation (``tax_plan``, the one
computation behind the step, the rondel preview and the computer players' estimates) and the
Imperial 2030 step (RULES_2030.md §4); Imperial's own step is ``rules.economy``.

Imperial 2030 (rule option ``taxation=2030``), in this order:

1. revenue R = 2M per own factory without hostile armies + 1M per own flag, at most 23M;
2. the treasury receives R, then pays 1M per own army and fleet; what it cannot pay stays
   unpaid and it ends at 0 (it never goes below);
3. the government's success bonus, a fixed amount by R from the table below, is paid out of
   the treasury after the soldiers, cut to what the treasury still holds (``success_bonus=
   table``); the official variant pays Imperial's bonus from the bank instead (``imperial``);
4. power points by R from the table below, the track capped at 25 (the game then ends).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.common import Events, bank_pays, counted, nname, possessive, power_gain, say
from rules.economy import WIN_POWER, tax_of
from rules.economy import step_taxation as imperial_taxation
from rules.state import NO, TRACKS, GameState

MAX_REVENUE_2030 = 23  # 4 factories x 2M + 15 flags (RULES_2030.md §4 step 1)
# (lowest revenue of the row, power points, success bonus): RULES_2030.md §4 and §11
TABLE_2030: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0),
    (6, 1, 1),
    (8, 2, 1),
    (10, 3, 2),
    (11, 4, 2),
    (12, 5, 3),
    (13, 6, 3),
    (14, 7, 4),
    (15, 8, 4),
    (16, 9, 5),
    (18, 10, 5),
)
CHART_LOW, CHART_HIGH = 5, 15  # Imperial's tax chart: "2-5" up to "15+"


def table_2030(revenue: int) -> tuple[int, int]:
    """(power points, success bonus) the 2030 tax track gives for ``revenue``."""
    points = bonus = 0
    for low, row_points, row_bonus in TABLE_2030:
        if revenue >= low:
            points, bonus = row_points, row_bonus
    return points, bonus


def chart_level(revenue: int) -> int:
    """Imperial's tax chart space for ``revenue`` (5 for 0-5M, up to 15 for 15M or more)."""
    return min(CHART_HIGH, max(CHART_LOW, revenue))


@dataclass(frozen=True, slots=True)
class TaxPlan:
    """What a Taxation would do for a nation now (nominal amounts; a limited bank may pay
    less). ``treasury_gain`` may be negative in 2030 (soldiers paid out of the treasury)."""

    revenue: int
    factories: int
    flags: int
    units: int
    pay: int  # soldiers' pay actually paid (2030: out of the treasury, which stops at 0)
    bonus: int  # the government's success bonus, after any cut
    table_bonus: int  # 2030: the bonus the table gives before the cut (else = bonus)
    bonus_from_treasury: bool
    treasury_gain: int
    level: int  # the tax chart afterwards (2030 with the fixed bonus: unchanged)
    points: int  # power points gained (after the cap at 25)


def tax_plan(s: GameState, n: int) -> TaxPlan:
    """What Taxation would bring nation ``n`` now, by the game's rule options."""
    tax, fac, flags = tax_of(s, n)
    units = s.units_of(n)
    governed = s.government[n] != NO
    if s.rules.taxation != "2030":
        level = chart_level(tax)
        bonus = max(0, level - s.tax_level[n]) if governed else 0
        points = min(WIN_POWER, s.power[n] + level - CHART_LOW) - s.power[n]
        return TaxPlan(
            revenue=tax,
            factories=fac,
            flags=flags,
            units=units,
            pay=min(units, tax),
            bonus=bonus,
            table_bonus=bonus,
            bonus_from_treasury=False,
            treasury_gain=max(0, tax - units),
            level=level,
            points=points,
        )
    revenue = min(MAX_REVENUE_2030, tax)
    table_points, table_bonus = table_2030(revenue)
    treasury = s.treasury[n] + revenue
    pay = min(units, treasury)
    treasury -= pay
    level = s.tax_level[n]
    if s.rules.success_bonus == "table":
        bonus = min(table_bonus, treasury) if governed else 0
        treasury -= bonus
        from_treasury = True
    else:
        level = chart_level(revenue)
        bonus = table_bonus = max(0, level - s.tax_level[n]) if governed else 0
        from_treasury = False
    points = min(WIN_POWER, s.power[n] + table_points) - s.power[n]
    return TaxPlan(
        revenue=revenue,
        factories=fac,
        flags=flags,
        units=units,
        pay=pay,
        bonus=bonus,
        table_bonus=table_bonus,
        bonus_from_treasury=from_treasury,
        treasury_gain=treasury - s.treasury[n],
        level=level,
        points=points,
    )


def step_taxation(s: GameState, ev: Events) -> None:
    """The Taxation space: Imperial's (``rules.economy``) or Imperial 2030's, by option."""
    if s.rules.taxation != "2030":
        imperial_taxation(s, ev)
        return
    _taxation_2030(s, ev)


def _taxation_2030(s: GameState, ev: Events) -> None:
    n = s.turn
    gov = s.government[n]
    name = nname(s, n)
    whose = possessive(name)
    plan = tax_plan(s, n)
    capped = (
        f", at most {MAX_REVENUE_2030}M" if plan.revenue < 2 * plan.factories + plan.flags else ""
    )
    say(
        ev,
        s,
        n,
        f"{name} taxes {plan.revenue}M ({counted(plan.factories, 'factory', 'factories')} × 2M"
        f" + {counted(plan.flags, 'flag', 'flags')}{capped})",
    )
    received = bank_pays(s, plan.revenue)
    s.treasury[n] += received
    pay = min(plan.units, s.treasury[n])
    s.treasury[n] -= pay
    s.bank += pay
    upkeep = f"{plan.units} unit{'s' if plan.units != 1 else ''}"
    if pay < plan.units:
        say(
            ev,
            s,
            n,
            f"{whose} treasury receives {received}M and pays {pay}M of the {plan.units}M its "
            f"{upkeep} cost: it is empty, the rest stays unpaid",
        )
    elif plan.units:
        say(
            ev,
            s,
            n,
            f"{whose} treasury receives {received}M and pays {pay}M for its {upkeep}",
        )
    else:
        say(ev, s, n, f"{whose} treasury receives {received}M; it has no units to pay")
    if s.rules.success_bonus == "table":
        _table_bonus(s, n, gov, ev)
    else:
        _chart_bonus(s, n, gov, plan.revenue, ev)
    table_points, _ = table_2030(plan.revenue)
    s.own(TRACKS)
    before = s.power[n]
    s.power[n] = min(WIN_POWER, before + table_points)
    say(ev, s, n, power_gain(name, table_points, before, s.power[n]))
    if s.power[n] >= WIN_POWER:
        s.ending = True
        say(ev, s, n, f"{name} reaches {WIN_POWER} power points: the game ends")


def _table_bonus(s: GameState, n: int, gov: int, ev: Events) -> None:
    """Step 3: the fixed bonus by revenue, out of the treasury after the soldiers' pay."""
    _, due = table_2030(min(MAX_REVENUE_2030, tax_of(s, n)[0]))
    if not due or gov == NO:
        return
    bonus = min(due, s.treasury[n])
    s.treasury[n] -= bonus
    s.cash[gov] += bonus
    who, name = s.players[gov], nname(s, n)
    whose = possessive(name)
    if bonus == due:
        say(ev, s, n, f"{who} receives a {bonus}M success bonus from {whose} treasury")
    elif bonus:
        say(
            ev,
            s,
            n,
            f"{who} receives a {bonus}M success bonus from {whose} treasury (the table gives "
            f"{due}M; the treasury holds no more)",
        )
    else:
        say(
            ev,
            s,
            n,
            f"no success bonus: {whose} treasury is empty (the table gives {due}M)",
        )


def _chart_bonus(s: GameState, n: int, gov: int, revenue: int, ev: Events) -> None:
    """The official variant: Imperial's bonus, 1M per tax-chart space gained, from the bank."""
    level = chart_level(revenue)
    gained = max(0, level - s.tax_level[n])
    if gained and gov != NO:
        bonus = bank_pays(s, gained)
        s.cash[gov] += bonus
        say(
            ev,
            s,
            n,
            f"tax chart {s.tax_level[n]} → {level}: {s.players[gov]} receives a "
            f"{bonus}M success bonus",
        )
    elif level != s.tax_level[n]:
        say(ev, s, n, f"tax chart {s.tax_level[n]} → {level}")
    s.own(TRACKS)
    s.tax_level[n] = level
