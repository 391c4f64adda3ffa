"""Investor, step 1: the interest a nation pays its bondholders when it lands on Investor
(RULES.md §5.5.1), computed once (``interest_payments``) for the payment and the previews."""

from __future__ import annotations

from dataclasses import dataclass

from rules.common import Events, clockwise_after, nname, say
from rules.state import NO, GameState


@dataclass(frozen=True, slots=True)
class InterestPlan:
    """What landing on Investor pays, per player in seating order: ``owed`` by the bonds,
    ``paid`` in fact. The treasury pays the other holders first, clockwise from the
    government's left, then the government's own interest as far as it still can; when it
    cannot pay the others, the government gives up its own interest and adds ``from_cash``
    from its cash (all of ``short``, or as much as it has with the pay_what_possible option).
    """

    owed: tuple[int, ...]
    paid: tuple[int, ...]
    government: int
    from_treasury: int
    from_cash: int
    short: int


def interest_short(s: GameState, n: int) -> int:
    """How much the treasury of ``n`` lacks to pay the other holders their interest now
    (``interest_payments(s, n).short``, without the plan: the rondel asks it for every
    move list, where Investor is forbidden to a nation that cannot pay)."""
    gov = s.government[n]
    if gov == NO:
        return 0
    owed = s.interest_owed(n)
    return max(0, sum(owed) - owed[gov] - s.treasury[n])


def interest_payments(s: GameState, n: int) -> InterestPlan:
    """The interest nation ``n`` pays now: the one computation behind both the payment
    (``pay_interest``) and the rondel preview."""
    owed = s.interest_owed(n)
    gov = s.government[n]
    paid = [0] * len(s.players)
    others = [p for p in clockwise_after(s, gov) if owed[p]] if gov != NO else []
    due = sum(owed[p] for p in others)
    treasury = s.treasury[n]
    if gov == NO or treasury >= due:
        for p in others:
            paid[p] = owed[p]
        own = min(owed[gov], treasury - due) if gov != NO else 0
        if gov != NO:
            paid[gov] = own
        return InterestPlan(tuple(owed), tuple(paid), gov, due + own, 0, 0)
    short = due - treasury
    from_cash = min(short, max(0, s.cash[gov]))
    pot = treasury + from_cash
    for p in others:
        part = min(owed[p], pot)
        pot -= part
        paid[p] = part
    return InterestPlan(tuple(owed), tuple(paid), gov, treasury, from_cash, short)


def pay_interest(s: GameState, n: int, ev: Events) -> None:
    plan = interest_payments(s, n)
    owed, gov = plan.owed, plan.government
    name = nname(s, n)
    if not any(owed):
        say(ev, s, n, f"{name} owes no interest")
        return
    for p, amount in enumerate(plan.paid):
        s.cash[p] += amount
    s.cash[gov] -= plan.from_cash
    s.treasury[n] -= plan.from_treasury
    others = [p for p in clockwise_after(s, gov) if owed[p]]
    if not plan.short:
        paid = [f"{s.players[p]} {owed[p]}M" for p in others]
        if owed[gov]:
            paid.append(f"{s.players[gov]} {plan.paid[gov]}M")
            if plan.paid[gov] < owed[gov]:
                paid[-1] += f" (gives up {owed[gov] - plan.paid[gov]}M)"
        say(ev, s, n, f"{name} pays interest: {', '.join(paid)}")
        return
    paid = [
        f"{s.players[p]} {plan.paid[p]}M" + (f" of {owed[p]}M" if plan.paid[p] < owed[p] else "")
        for p in others
    ]
    gives_up = f"gives up their own {owed[gov]}M and " if owed[gov] else ""
    say(
        ev,
        s,
        n,
        f"{name} pays interest: {', '.join(paid)}; its treasury is {plan.short}M short, so "
        f"{s.players[gov]} {gives_up}pays {plan.from_cash}M from their cash",
    )
