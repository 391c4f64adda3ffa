"""The figures of a position that the evaluation weighs, computed in one pass.

Everything here is something a player at the table can see (with hidden cash, the bot's view
holds the tally of public payments instead of the other players' cash). ``nation_figures``
gathers per nation what taxing, interest and governments depend on; ``player_features`` turns
them into one row per player, the columns named by ``FEATURES``.
"""

from __future__ import annotations

from dataclasses import dataclass

from maps.board import Board
from rules.actions import RONDEL_SPACES
from rules.state import NO, GameState
from rules.taxation import MAX_REVENUE_2030, table_2030

FEATURES = (
    "cash",
    "bonds now",  # interest x power / 5: the score the bonds would make if the game ended now
    "bonds growth",  # interest x the nation's power per taxation (what it taxes beyond 5)
    "interest due",  # interest x the Investor payments the treasury can still make
    "treasury share",  # each treasury shared among its nation's bondholders by interest
    "interest",  # interest of all bonds
    "governments",
    "governed tax",  # what the governed nations tax
    "governed units",
    "governed treasury",
    "shortfall",  # interest a governed nation owes others beyond its treasury
    "free investor",  # cash of a player who governs nothing (he invests every Investor turn)
)
# The strong level's evaluation (table 5) adds what a player sees coming (``extended_features``):
EXTRA_FEATURES = (
    "tempo",  # interest x the power the nation gains at its next taxation, sooner counts more
    "payout soon",  # interest the nation will pay at its next Investor, sooner counts more
    "card soon",  # 1 for the investor card's holder (he invests next), 0.5 for the next one
    "governments at risk",  # governed nations another player could take with one bond now
    "governments in reach",  # nations this player could take with one bond now
    "threatened",  # interest x the nation's factories foreign armies could occupy next turn
    "threatening",  # interest x the rivals' factories the nation's armies could occupy next
    "idle units",  # units of governed nations at home with no foreign army near
)
TAXATION = RONDEL_SPACES.index("taxation")
INVESTOR = RONDEL_SPACES.index("investor")


@dataclass(slots=True)
class NationFigures:
    """One nation as the evaluation sees it."""

    tax: int  # what it would tax now: 2 per unoccupied factory, 1 per flag
    units: int
    owed: int  # interest of all its bonds
    shares: list[int]  # interest per player
    credits: list[int]  # bond money per player
    governor: int  # after the pending government check


def occupied_provinces(s: GameState) -> set[int]:
    """Home provinces holding a hostile foreign army (one pass over the armies)."""
    owner = s.board.owner
    provinces = _provinces(s)
    out: set[int] = set()
    for m, (arm, fr) in enumerate(zip(s.armies, s.friendly, strict=True)):
        if arm.count(0) == len(arm):
            continue
        for r in provinces:
            if arm[r] > fr[r] and owner[r] != m:
                out.add(r)
    return out


_PROVINCES: dict[int, tuple[Board, tuple[int, ...]]] = {}


def _provinces(s: GameState) -> tuple[int, ...]:
    board = s.board
    found = _PROVINCES.get(id(board))
    if found is None or found[0] is not board:
        found = _PROVINCES[id(board)] = (
            board,
            tuple(r for r, o in enumerate(board.owner) if o != NO),
        )
    return found[1]


def tax_potential(s: GameState, n: int, occupied: set[int] | None = None) -> int:
    """What nation ``n`` would tax now: 2 per unoccupied factory, 1 per flag."""
    fac = 0
    for r in s.board.home[n]:
        if s.factory[r] and not (r in occupied if occupied is not None else s.occupied(r)):
            fac += 1
    return 2 * fac + s.flag.count(n)


def nation_figures(s: GameState) -> list[NationFigures]:
    costs = s.rules.bond_costs
    players = len(s.players)
    occupied = occupied_provinces(s)
    start = s.investor_card if s.investor_card != NO else 0
    order = [(start + i) % players for i in range(players)]
    out = []
    for n, owners in enumerate(s.bond_owner):
        shares = [0] * players
        credits = [0] * players
        owed = 0
        for k, o in enumerate(owners):
            if o != NO:
                shares[o] += k + 1
                credits[o] += costs[k]
                owed += k + 1
        gov = s.government[n]
        best = max(credits)
        if best > 0 and (gov == NO or best > credits[gov]):
            gov = next(p for p in order if credits[p] == best)
        out.append(
            NationFigures(
                tax_potential(s, n, occupied),
                sum(s.armies[n]) + sum(s.fleets[n]),
                owed,
                shares,
                credits,
                gov,
            )
        )
    return out


def player_features(
    s: GameState, figures: list[NationFigures] | None = None, extended: bool = False
) -> list[list[float]]:
    """The features of every player (rows in seating order, columns as ``FEATURES``, then
    ``EXTRA_FEATURES`` when ``extended``)."""
    figures = figures or nation_figures(s)
    players = len(s.players)
    rows = [[0.0] * len(FEATURES) for _ in range(players)]
    for p in range(players):
        rows[p][0] = float(s.cash[p])
    governing = set()
    for n, f in enumerate(figures):
        growth = min(15, max(5, f.tax)) - 5
        if f.owed:
            income = max(0, f.tax - f.units)
            payable = min(4.0, (s.treasury[n] + 2 * income) / f.owed)
            power = s.power[n] / 5.0
            per_treasury = s.treasury[n] / f.owed
            for p, i in enumerate(f.shares):
                if i:
                    row = rows[p]
                    row[1] += i * power
                    row[2] += i * growth
                    row[3] += i * payable
                    row[4] += i * per_treasury
                    row[5] += i
        gov = f.governor
        if gov != NO:
            governing.add(gov)
            row = rows[gov]
            row[6] += 1.0
            row[7] += f.tax
            row[8] += min(10, f.units)
            row[9] += s.treasury[n]
            row[10] += max(0, f.owed - f.shares[gov] - s.treasury[n])
    for p in range(players):
        if p not in governing:
            rows[p][11] = float(s.cash[p])
    if extended:
        for row, extra in zip(rows, extended_features(s, figures), strict=True):
            row += extra
    return rows


def turns_to(position: int, space: int) -> int:
    """Nation turns until a rondel marker at ``position`` can stand on ``space`` for free
    (three spaces a turn; a marker not yet placed reaches any space at once)."""
    if position == NO:
        return 1
    steps = (space - position) % 8 or 8
    return (steps + 2) // 3


def power_per_taxation(s: GameState, tax: int) -> int:
    """Power points a taxation of ``tax`` brings: Imperial's chart, or the 2030 table."""
    if s.rules.taxation == "2030":
        return table_2030(min(MAX_REVENUE_2030, tax))[0]
    return min(15, max(5, tax)) - 5


def power_gain(s: GameState, n: int, tax: int) -> int:
    """Power points a taxation of ``tax`` would bring ``n`` now (by the game's tax rule)."""
    return min(25 - s.power[n], power_per_taxation(s, tax))


def extended_features(s: GameState, figures: list[NationFigures]) -> list[list[float]]:
    """The columns of ``EXTRA_FEATURES`` for every player: timing (the rondel, the investor
    card), governments one bond could take, armies next to factories, idle units."""
    players = len(s.players)
    rows = [[0.0] * len(EXTRA_FEATURES) for _ in range(players)]
    nations = len(figures)
    threatened, threatening, idle = _armies_near_factories(s, nations)
    if s.rules.uses_investor_card and s.investor_card != NO:
        rows[s.investor_card][2] = 1.0
        rows[(s.investor_card + 1) % players][2] = 0.5
    costs = s.rules.bond_costs
    cash = s.cash
    for n, f in enumerate(figures):
        if not f.owed:
            continue
        pos = s.rondel[n]
        soon_tax = 1.0 / turns_to(pos, TAXATION)
        gain = power_gain(s, n, f.tax) / 5.0
        payable = min(1.0, s.treasury[n] / f.owed)
        soon_pay = 1.0 / turns_to(pos, INVESTOR)
        for p, i in enumerate(f.shares):
            if i:
                row = rows[p]
                row[0] += i * gain * soon_tax
                row[1] += i * payable * soon_pay
                row[5] += i * threatened[n]
                row[6] += i * threatening[n]
        # governments one bond could take: each player's credit with the largest free bond
        # he can pay for, against the best other credit
        owners = s.bond_owner[n]
        free = [c for k, c in enumerate(costs) if owners[k] == NO]
        credits = f.credits
        gov = f.governor
        reach = [max((c for c in free if c <= cash[p]), default=0) for p in range(players)]
        if gov != NO:
            rows[gov][7] += idle[n]
            held = credits[gov]
            if any(q != gov and reach[q] and credits[q] + reach[q] > held for q in range(players)):
                rows[gov][3] += 1.0
        best = max(credits)
        for p in range(players):
            if p != gov and reach[p] and credits[p] + reach[p] > best:
                rows[p][4] += 1.0
    return rows


def _armies_near_factories(s: GameState, nations: int) -> tuple[list[int], list[int], list[int]]:
    """Per nation: its unguarded factories with a foreign army next to them (or in them),
    the rivals' unoccupied factories next to its armies, its units at home with no foreign
    army near."""
    board = s.board
    owner = board.owner
    near = board.land_neighbours
    armies = s.armies
    total = [sum(col) for col in zip(*armies, strict=True)]
    hostile = [a - f for a, f in zip(total, map(sum, zip(*s.friendly, strict=True)), strict=True)]
    threatened = [0] * nations
    threatening = [0] * nations
    idle = [0] * nations
    factories = [r for r in _provinces(s) if s.factory[r]]
    for n in range(nations):
        mine = armies[n]
        for r in board.home[n]:
            foreign = hostile[r] - (mine[r] - s.friendly[n][r]) > 0 or any(
                total[d] > mine[d] for d in near[r]
            )
            if foreign:
                if s.factory[r] and not mine[r]:
                    threatened[n] += 1
            else:
                idle[n] += mine[r] + s.fleets[n][r]
        gov = s.government[n]
        reach: set[int] = set()
        for r, count in enumerate(mine):
            if count:
                reach.add(r)
                reach |= near[r]
        for r in factories:
            m = owner[r]
            if r in reach and m != n and (gov == NO or s.government[m] != gov):
                threatening[n] += 1
    return threatened, threatening, idle
