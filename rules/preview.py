"""What each rondel space would do for the nation to move: the rondel panel's figures.

Pure functions over a position, built from the engine's own rule functions (cost, tax, factory
sites, producible factories, import sites, interest owed), so the app shows numbers the engine
will actually apply and never re-implements a rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import INVESTOR_SPACE, RONDEL_SPACES
from rules.common import counted, seats_from
from rules.economy import (
    FACTORY_COST,
    IMPORT_LIMIT,
    WIN_POWER,
    _producible,
    factory_sites,
    import_sites,
    is_port,
)
from rules.errors import IllegalAction
from rules.interest import interest_payments
from rules.investing import CARD_BONUS, claim_shortfall, government_after_buy
from rules.rondel import (
    SPACE_NAMES,
    PendingMove,
    check_rondel,
    distance,
    move_cost,
    passes_investor,
)
from rules.state import NO, GameState
from rules.taxation import tax_plan

UNKNOWN_CASH = 10**6  # the cash of a government whose cash the viewer may not see


@dataclass(frozen=True, slots=True)
class SpacePreview:
    """One rondel space seen from the nation to move."""

    space: str  # engine id, e.g. "production2"
    label: str  # "Production"
    distance: int  # 0 = where the nation stands (or first placement)
    cost: int | None  # None: out of reach or not allowed
    reason: str  # why not, when cost is None
    text: str  # one-line preview of the effect
    investor_passed: bool = False


def units(count: int, one: str, many: str) -> str:
    """'1 army', '2 armies', '' for none."""
    return f"{count} {one if count == 1 else many}" if count else ""


def interest_text(s: GameState, n: int) -> str:
    """Who receives how much interest if the nation lands on Investor now, as
    ``interest_payments`` (the engine's own payment) will pay it: 'interest Cleo 2, Tom 0 of
    6; Tom adds 3M from cash'."""
    plan = interest_payments(s, n)
    if not any(plan.owed):
        return "no interest due"
    gov = plan.government
    order = [p for p in seats_from(s, (gov + 1) % len(s.players)) if plan.owed[p]]
    parts = [
        f"{s.players[p]} {plan.paid[p]}"
        + (f" of {plan.owed[p]}" if plan.paid[p] < plan.owed[p] else "")
        for p in order
    ]
    text = "interest " + ", ".join(parts)
    if plan.from_cash:
        text += f"; {s.players[gov]} adds {plan.from_cash}M from cash"
    if plan.from_cash < plan.short:
        text += f"; {plan.short - plan.from_cash}M stays unpaid"
    return text


def ends_the_game(s: GameState, n: int) -> bool:
    """Whether nation ``n``'s Taxation now would bring it to 25 power points, which ends the
    game at once (RULES.md §7)."""
    return s.power[n] + tax_plan(s, n).points >= WIN_POWER


def effect_text(s: GameState, n: int, space: str, cost: int = 0) -> str:
    """A one-line description of what landing on ``space`` would do now (after paying
    ``cost`` for the move)."""
    step = space.rstrip("12")
    if step == "factory":
        sites = factory_sites(s, n)
        if not sites:
            return "no free city"
        if s.treasury[n] < FACTORY_COST:
            return (
                f"{units(len(sites), 'site', 'sites')}, needs {FACTORY_COST}M, has {s.treasury[n]}M"
            )
        return f"{units(len(sites), 'site', 'sites')}, pays {FACTORY_COST}M"
    if step == "production":
        pending = tuple(r for r in s.factories_of(n) if not s.occupied(r))
        ready = _producible(s, n, pending)
        if not ready:
            return "produces nothing"
        fleets = sum(1 for r in ready if is_port(s, r))
        armies = len(ready) - fleets
        bits = [units(armies, "army", "armies"), units(fleets, "fleet", "fleets")]
        return "produces " + " + ".join(b for b in bits if b)
    if step == "import":
        if s.treasury[n] < 1:
            return "treasury empty"
        can = min(IMPORT_LIMIT, s.treasury[n])
        if not import_sites(s, n, "army") and not import_sites(s, n, "fleet"):
            return "nothing to import"
        return f"up to {counted(can, 'unit', 'units')} at 1M"
    if step == "taxation":
        plan = tax_plan(s, n)
        text = f"tax {plan.revenue}M: treasury {plan.treasury_gain:+d}M, power +{plan.points}"
        gov = s.government[n]
        if plan.bonus and gov != NO:
            text += f", {s.players[gov]} +{plan.bonus}M bonus"
        if ends_the_game(s, n):
            text += f"; reaches {WIN_POWER}: the game ends"
        return text
    if step == "investor":
        gov = s.government[n]
        if cost and gov != NO:  # the move is paid before the interest
            s = s.copy()
            s.cash[gov] -= cost
        return interest_text(s, n) + (
            f"; card +{CARD_BONUS}M" if s.rules.uses_investor_card else ""
        )
    if step == "maneuver":
        return f"{units(s.units_of(n), 'unit', 'units') or 'no unit'} to move"
    return ""


def swiss_bank_text(s: GameState) -> str:
    """What a Swiss bank's holder decides (RULES.md §3.5): the move that passes Investor, what
    a stop forced there would pay (the engine's interest plan), and whether letting the
    nation go on ends the game. '' when no such decision is awaited."""
    pending = s.turn_ctx
    if not isinstance(pending, PendingMove) or s.turn == NO:
        return ""
    n = s.turn
    nation = s.board.nations[n].name
    origin = SPACE_NAMES[RONDEL_SPACES[pending.origin]] if pending.origin != NO else "the centre"
    target = RONDEL_SPACES[pending.target]
    text = f"{nation} moves from {origin} to {SPACE_NAMES[target]}, passing Investor. "
    text += f"Forced to stop there: {interest_text(s, n)}."
    if target == "taxation" and ends_the_game(s, n):
        text += f" Let go on, its Taxation reaches {WIN_POWER}: the game ends."
    return text


def rondel_preview(
    s: GameState, n: int | None = None, cash_visible: bool = True
) -> list[SpacePreview]:
    """Every space clockwise, for nation ``n`` (default: the nation whose turn it is).

    ``cash_visible=False`` is the view of someone who may not see the government's cash
    (hidden cash): every space is judged as if he could pay for it, so neither a figure nor
    a space refused for want of cash gives his cash away; the engine still decides."""
    if n is None:
        n = s.turn
    out: list[SpacePreview] = []
    if n == NO:
        return out
    view = s
    if not cash_visible and s.government[n] != NO:
        view = s.copy()
        view.cash[s.government[n]] = UNKNOWN_CASH
    origin = s.rondel[n]
    for target, space in enumerate(RONDEL_SPACES):
        d = distance(origin, target)
        cost: int | None
        try:
            cost = check_rondel(view, n, target)
            reason = ""
        except IllegalAction as exc:
            cost = None
            reason = "here now" if origin == target else exc.reason
            if origin != NO and d > 6:
                reason = "out of reach"
            elif origin != NO and d > 0 and s.government[n] != NO and cash_visible:
                gov, price = s.government[n], move_cost(s, n, target)
                if price > s.cash[gov]:
                    reason = f"costs {price}M, {s.players[gov]} has {s.cash[gov]}M"
        passed = passes_investor(origin, target) and target != INVESTOR_SPACE
        text = effect_text(view, n, space, cost or 0)
        # (a Taxation that ends the game ends it before anyone invests: RULES.md §7)
        ending = space == "taxation" and ends_the_game(view, n)
        if passed and s.rules.uses_investor_card and not ending:
            text += "; passes Investor"
        out.append(SpacePreview(space, SPACE_NAMES[space], d, cost, reason, text, passed))
    return out


__all__ = [
    "SpacePreview",
    "claim_shortfall",
    "effect_text",
    "ends_the_game",
    "government_after_buy",
    "interest_text",
    "rondel_preview",
    "swiss_bank_text",
]
