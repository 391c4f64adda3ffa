"""Investor: the investor card, investing, governments, and the bond rounds of the experienced
set-up and of the variant without investor card (its interest, step 1: ``rules.interest``)."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache

from rules.actions import Buy, Pass, made
from rules.common import (
    Events,
    await_decision,
    bank_pays,
    clear_await,
    clockwise_after,
    code,
    nation_index,
    nname,
    possessive,
    push,
    say,
    seats_from,
)
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.interest import pay_interest
from rules.setup import place_investor_card
from rules.state import BONDS, NO, GameState

CARD_BONUS = 2


@dataclass(frozen=True, slots=True)
class InvestContext:
    """An investment decision: who still invests after the current player, and where.

    ``nations`` are the nations the current player may invest in; ``auction`` marks the
    experienced set-up (one bond per player and nation, no upgrades, government at once).
    """

    nations: tuple[int, ...]
    queue: tuple[int, ...] = ()
    auction: bool = False
    free_round: bool = False  # no-card variant: investors without a government


ALL = tuple(range(6))  # every nation: both games have six


# ------------------------------------------------------------------------------- interest


def step_investor(s: GameState, ev: Events) -> None:
    """Landing on Investor: step 1 (interest), then the card and investing (steps 2, 3)."""
    pay_interest(s, s.turn, ev)
    if s.rules.uses_investor_card:
        push(s, ("investor_card",), ("free_investors",), ("government_check", NO), ("pass_card",))


def step_passed_investor(s: GameState, ev: Events) -> None:
    """Passing Investor: steps 2 and 3 after the landing action (not after a game-ending
    Taxation unless the rule option says so)."""
    if s.ending and not s.rules.invest_after_game_end:
        say(ev, s, s.turn, "Investor was passed, but the game is over: nobody invests")
        return
    say(ev, s, s.turn, f"{nname(s, s.turn)} passed Investor: the investor card pays out")
    push(s, ("investor_card",), ("free_investors",), ("government_check", NO), ("pass_card",))


# ------------------------------------------------------------------------------- investing


def step_investor_card(s: GameState, ev: Events) -> None:
    holder = s.investor_card
    paid = bank_pays(s, CARD_BONUS)
    s.cash[holder] += paid
    say(
        ev, s, None, f"{s.players[holder]} holds the investor card: receives {paid}M and may invest"
    )
    await_decision(s, Decision.INVEST, holder, NO, InvestContext(ALL))


def step_free_investors(s: GameState, ev: Events) -> None:
    holder = s.investor_card
    queue = tuple(p for p in clockwise_after(s, holder) if s.governs_nothing(p))
    if queue:
        what = "Swiss bank holders" if s.rules.swiss_banks else "Players without a government"
        say(ev, s, None, f"{what} invest: {', '.join(s.players[p] for p in queue)}")
        await_decision(s, Decision.INVEST, queue[0], NO, InvestContext(ALL, queue[1:]))


def step_pass_card(s: GameState, ev: Events) -> None:
    old = s.investor_card
    s.investor_card = (old + 1) % len(s.players)
    say(
        ev,
        s,
        None,
        f"the investor card passes from {s.players[old]} to {s.players[s.investor_card]}",
    )


def _available(s: GameState, n: int) -> list[int]:
    return [k for k, o in enumerate(s.bond_owner[n]) if o == NO]


@lru_cache(maxsize=512)
def _bond_actions(
    player: str, nation: str, costs: tuple[int, ...]
) -> tuple[tuple[Buy, ...], tuple[tuple[Buy, ...], ...]]:
    """Every purchase ``player`` could ever make of ``nation``'s bonds: by bond index, and by
    (bond taken, lower bond returned) for upgrades. The bond list picks from these (a list of up to
    fifty purchases is built for every investor's turn)."""
    buys = tuple(made(Buy, player, nation, cost) for cost in costs)
    upgrades = tuple(
        tuple(made(Buy, player, nation, cost, back) for back in costs[:k])
        for k, cost in enumerate(costs)
    )
    return buys, upgrades


def legal_invest(s: GameState) -> list[Buy | Pass]:
    ctx: InvestContext = s.ctx
    p = s.awaiting_player
    name = s.players[p]
    costs = s.rules.bond_costs
    cash = s.cash[p]
    # the strict payment rule can refuse a bond only of a nation at 0 power points
    strict = s.rules.last_government_payment == "strict"
    power = s.power
    affordable = range(bisect_right(costs, cash))  # the bonds cash pays for (costs ascend)
    next_only = s.rules.bond_upgrade == "next_higher"
    out: list[Buy | Pass] = []
    for n in ctx.nations:
        owners = s.bond_owner[n]
        owned = [k for k, o in enumerate(owners) if o == p] if p in owners else []
        if ctx.auction and owned:
            continue
        if not (affordable or owned):
            continue
        buys, upgrades = _bond_actions(name, code(s, n), costs)
        check = strict and power[n] == 0
        if check:
            out += [
                buys[k] for k in affordable if owners[k] == NO and _payment_ok(s, p, n, k, None)
            ]
        else:
            out += [buys[k] for k in affordable if owners[k] == NO]
        if ctx.auction or not owned:
            continue
        avail = [k for k, o in enumerate(owners) if o == NO]
        for j in owned:
            # (``_upgrade_targets``, inline: the higher bonds in the pile, or the next only)
            limit = cash + costs[j]
            for k in avail:
                if k <= j:
                    continue
                if costs[k] > limit:
                    break  # (costs ascend: no higher bond is affordable either)
                if not check or _payment_ok(s, p, n, k, j):
                    out.append(upgrades[k][j])
                if next_only:
                    break
    out.append(made(Pass, name))
    return out


def _upgrade_targets(s: GameState, n: int, j: int, avail: list[int]) -> list[int]:
    higher = [k for k in avail if k > j]
    if s.rules.bond_upgrade == "next_higher":
        return higher[:1]
    return higher


def _payment_ok(s: GameState, p: int, n: int, k: int, returning: int | None) -> bool:
    """Strict second-edition rule: a purchase that takes over someone's last government of a
    nation with 0 power points needs 1M left to pay him."""
    if s.rules.last_government_payment != "strict" or s.power[n] != 0:
        return True
    if s.awaiting_kind == Decision.BOND_CHOICE:
        return True
    gov = s.government[n]
    if gov in (NO, p) or len(s.governs(gov)) != 1:
        return True
    costs = s.rules.bond_costs
    new_credit = s.credit(p, n) + costs[k] - (costs[returning] if returning is not None else 0)
    if new_credit <= s.credit(gov, n):
        return True
    price = costs[k] - (costs[returning] if returning is not None else 0)
    return s.cash[p] - price >= 1


def apply_buy(s: GameState, a: Buy, ev: Events) -> None:
    ctx: InvestContext = s.ctx
    p = s.awaiting_player
    n = nation_index(s, a.nation)
    costs = s.rules.bond_costs
    name = nname(s, n)
    if n not in ctx.nations:
        only = ", ".join(code(s, x) for x in ctx.nations)
        raise IllegalAction(f"{a.player} may only invest in {only} now")
    if a.value not in costs:
        values = ", ".join(str(c) for c in costs)
        raise IllegalAction(f"there is no {a.value}M bond; bonds are {values}")
    k = costs.index(a.value)
    owner = s.bond_owner[n][k]
    if owner != NO:
        already = " already" if owner == p else ""
        raise IllegalAction(
            f"the {a.nation} {a.value}M bond is not in the pile; {s.players[owner]}{already} "
            "owns it"
        )
    j = None
    price = a.value
    if a.returning is not None:
        if ctx.auction:
            raise IllegalAction("no bond can be returned during the set-up bond rounds")
        if a.returning not in costs or s.bond_owner[n][costs.index(a.returning)] != p:
            raise IllegalAction(f"{a.player} does not own the {a.nation} {a.returning}M bond")
        j = costs.index(a.returning)
        if j >= k:
            raise IllegalAction(
                f"an upgrade must take a higher bond than the {a.returning}M one returned"
            )
        if k not in _upgrade_targets(s, n, j, _available(s, n)):
            raise IllegalAction(
                "only the next higher bond may be taken in an upgrade (rule "
                "option bond_upgrade=next_higher)"
            )
        price = a.value - a.returning
    elif ctx.auction and any(o == p for o in s.bond_owner[n]):
        raise IllegalAction(f"{a.player} already bought a bond of {a.nation} in this round")
    if price > s.cash[p]:
        raise IllegalAction(
            f"{a.player} cannot pay {price}M for the {a.nation} {a.value}M bond with only "
            f"{s.cash[p]}M in cash"
        )
    if not _payment_ok(s, p, n, k, j):
        raise IllegalAction(
            f"{a.player} would take over {possessive(name)} government from its last "
            "governor at 0 power points and could not pay the old governor 1M (rule option "
            "last_government_payment=strict)"
        )
    s.cash[p] -= price
    s.treasury[n] += price
    take_bond(s, p, n, k, j)
    if j is not None:
        say(
            ev,
            s,
            n,
            f"{a.player} returns the {a.nation} {a.returning}M bond and takes the "
            f"{a.value}M bond, paying {price}M into {possessive(name)} treasury",
        )
    else:
        say(
            ev,
            s,
            n,
            f"{a.player} buys the {a.nation} {a.value}M bond, paying {price}M into "
            f"{possessive(name)} treasury",
        )
    if ctx.auction:
        _auction_government(s, n, p, ev)
    if ctx.free_round:
        s.free_invested = s.free_invested | {p}
    _next_investor(s, ctx)


def apply_pass(s: GameState, a: Pass, ev: Events) -> None:
    ctx: InvestContext = s.ctx
    say(ev, s, None, f"{a.player} does not invest")
    _next_investor(s, ctx)


def _next_investor(s: GameState, ctx: InvestContext) -> None:
    if ctx.queue:
        await_decision(
            s,
            s.awaiting_kind or Decision.INVEST,
            ctx.queue[0],
            s.awaiting_nation,
            InvestContext(ctx.nations, ctx.queue[1:], ctx.auction, ctx.free_round),
        )
    else:
        clear_await(s)


# ------------------------------------------------------------------------------- governments


def take_bond(s: GameState, p: int, n: int, k: int, j: int | None = None) -> None:
    """Player ``p`` takes bond ``k`` of nation ``n`` (returning bond ``j``): the bonds change
    hands, and the first grant of a large enough bond to a nation without a government claims
    its flag. The money is settled by the caller; ``government_after_buy`` uses this too."""
    s.own(BONDS)
    s.bond_owner[n][k] = p
    if j is not None:
        s.bond_owner[n][j] = NO
    if claim_shortfall(s, n, s.rules.bond_costs[k]) == 0:
        s.flag_claim[n] = p


def claim_shortfall(s: GameState, n: int, value: int) -> int | None:
    """Whether a bond worth ``value`` would claim the flag of nation ``n``: None when nobody
    can claim it now (it has a government, or a claim this round), 0 when this bond claims it,
    else the smallest bond value that would (first edition: an ungoverned nation is formed
    only from a 4M bond, ``flag_min_bond``). ``take_bond`` decides by it; the app's bond
    hint says it."""
    if s.government[n] != NO or s.flag_claim[n] != NO:
        return None
    return 0 if value >= s.flag_min_bond[n] else s.flag_min_bond[n]


def check_order(s: GameState, ref: int = NO) -> list[int]:
    """The order in which a government check breaks ties between equal challengers: clockwise
    from the investor card holder (or ``ref``), who counts first or, by option, last."""
    if ref == NO:
        ref = s.investor_card if s.investor_card != NO else 0
    order = seats_from(s, ref)
    if not s.rules.government_tie_holder_first:
        order = order[1:] + order[:1]
    return order


def successor(s: GameState, n: int, gov: int, order: list[int]) -> int:
    """Who governs ``n`` after a check when ``gov`` governs it now: a player with strictly more
    credit takes over (the first of ``order`` among equal challengers); ties keep ``gov``."""
    key = (s.rules.bond_costs, tuple(s.bond_owner[n]), gov, tuple(order))
    found = _SUCCESSORS.get(key)
    if found is None:
        credits = s.credits(n)
        best = max(credits)
        found = next(p for p in order if credits[p] == best) if best > credits[gov] else gov
        if len(_SUCCESSORS) >= SUCCESSORS_SIZE:
            _SUCCESSORS.clear()
        _SUCCESSORS[key] = found
    return found


# ``successor`` by what it depends on (the bond costs, who holds each bond of the nation, its
# government, the order of the challengers): a check asks for every nation after every
# investor turn, and most nations' bonds have not changed since the last one. Bounded.
_SUCCESSORS: dict[tuple[tuple[int, ...], tuple[int, ...], int, tuple[int, ...]], int] = {}
SUCCESSORS_SIZE = 20000


def step_government_check(s: GameState, ev: Events, ref: int = NO) -> None:
    """Each nation goes to a player with strictly more credit than its government; among equal
    challengers the one first clockwise from the investor card holder (or ``ref``)."""
    order = check_order(s, ref)
    changes: list[tuple[int, int, int]] = []
    for n in ALL:
        gov = s.government[n]
        if gov == NO:
            claim = s.flag_claim[n]
            if claim == NO:
                continue
            s.own(BONDS)
            s.government[n] = gov = claim
            say(
                ev,
                s,
                n,
                f"{s.players[claim]} takes the flag of {nname(s, n)} and forms its government",
            )
        new = successor(s, n, gov, order)
        if new != gov:
            s.own(BONDS)
            s.government[n] = new
            changes.append((n, gov, new))
            say(
                ev,
                s,
                n,
                f"{s.players[new]} ({s.credit(new, n)}M) takes over the government of "
                f"{nname(s, n)} from {s.players[gov]} ({s.credit(gov, n)}M)",
            )
    s.flag_claim = [NO] * len(s.flag_claim)
    if s.rules.last_government_payment != "off":
        for n, old, new in changes:
            if s.power[n] == 0 and s.governs_nothing(old) and s.cash[new] >= 1:
                s.cash[new] -= 1
                s.cash[old] += 1
                say(
                    ev,
                    s,
                    n,
                    f"{s.players[new]} pays {s.players[old]} 1M for taking their last "
                    "government before it scored",
                )


def government_after_buy(
    s: GameState, player: int, nation: int, value: int, returning: int | None = None
) -> int:
    """Who will govern ``nation`` once ``player``'s purchase (``value``, returning a bond worth
    ``returning``) is settled, as if nobody else bought meanwhile: at once in the experienced
    set-up's bond rounds, else at the next government check, by the very functions the engine
    runs (the flag claim of ``take_bond``, ``check_order`` from the check's own start,
    ``successor``). NO when nobody will."""
    view = s.copy()
    costs = s.rules.bond_costs
    j = costs.index(returning) if returning is not None else None
    take_bond(view, player, nation, costs.index(value), j)
    ctx = s.ctx
    if isinstance(ctx, InvestContext) and ctx.auction:
        return _auction_winner(view, nation, player)
    gov = view.government[nation]
    if gov == NO:
        gov = view.flag_claim[nation]
        if gov == NO:
            return NO
    return successor(view, nation, gov, check_order(view, _next_check_ref(view)))


def _next_check_ref(s: GameState) -> int:
    """Where the next government check starts counting (its step's argument)."""
    for step in s.todo:
        if step[0] == "government_check":
            ref: int = step[1]  # ("government_check", the player the count starts from)
            return ref
    return NO


def _auction_winner(s: GameState, n: int, buyer: int) -> int:
    """Experienced set-up: who governs ``n`` after ``buyer``'s purchase. The flag goes to the
    highest credit at once; on a tie the earlier buyer keeps it (or, by option, the later
    buyer takes it)."""
    gov = s.government[n]
    mine = s.credit(buyer, n)
    if gov == NO:
        better = True
    elif s.rules.auction_tie == "earlier_buyer":
        better = mine > s.credit(gov, n)
    else:
        better = mine >= s.credit(gov, n)
    return buyer if better else gov


def _auction_government(s: GameState, n: int, buyer: int, ev: Events) -> None:
    new = _auction_winner(s, n, buyer)
    if new != s.government[n]:
        s.own(BONDS)
        s.government[n] = new
        say(ev, s, n, f"{s.players[buyer]} now governs {nname(s, n)}")


# ------------------------------------------------------------------------------- set-up rounds


def step_auction(s: GameState, ev: Events, n: int, first: int) -> None:
    queue = seats_from(s, first)
    say(ev, s, n, f"bond round for {nname(s, n)}: {s.players[first]} chooses first")
    await_decision(
        s, Decision.BOND_CHOICE, queue[0], n, InvestContext((n,), tuple(queue[1:]), True)
    )


def step_setup_done(s: GameState, ev: Events) -> None:
    place_investor_card(s)
    if s.investor_card != NO:
        say(ev, s, None, f"{s.players[s.investor_card]} receives the investor card")
    for n in ALL:
        if s.government[n] == NO:
            say(ev, s, n, f"nobody bought a bond of {nname(s, n)}: it has no government")


# ------------------------------------------------------------------------------- no investor card


def step_end_turn(s: GameState, ev: Events) -> None:
    """Variant without investor card: after each nation's turn its government and then the
    others invest in it, then the players without a government may invest anywhere."""
    if s.rules.uses_investor_card or s.ending:
        return
    n = s.turn
    gov = s.government[n]
    steps: list[tuple[object, ...]] = [("nation_round", n, gov)]
    if s.rules.no_card_unbonded_nation:
        for m in _following_ungoverned(s, n):
            steps.append(("nation_round", m, gov))
    steps += [("free_round",), ("government_check", gov)]
    push(s, *steps)


def _following_ungoverned(s: GameState, n: int) -> list[int]:
    out = []
    for i in range(1, len(ALL)):
        m = (n + i) % len(ALL)
        if s.government[m] != NO:
            break
        if not any(o != NO for o in s.bond_owner[m]):
            out.append(m)
    return out


def step_nation_round(s: GameState, ev: Events, n: int, first: int) -> None:
    queue = seats_from(s, first)
    await_decision(s, Decision.INVEST, queue[0], n, InvestContext((n,), tuple(queue[1:])))


def step_free_round(s: GameState, ev: Events) -> None:
    once = s.rules.no_card_free_investing == "once_per_round"
    if once and s.turn == _first_governed(s):
        s.free_invested = frozenset()
    queue = tuple(
        p
        for p in seats_from(s, (s.government[s.turn] + 1) % len(s.players))
        if s.governs_nothing(p) and not (once and p in s.free_invested)
    )
    if queue:
        await_decision(
            s, Decision.INVEST, queue[0], NO, InvestContext(ALL, queue[1:], free_round=True)
        )


def _first_governed(s: GameState) -> int:
    return next((n for n in ALL if s.government[n] != NO), 0)
