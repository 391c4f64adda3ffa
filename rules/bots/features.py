"""The figures of a position that the evaluation weighs, computed in one pass.

Everything here is something a player at the table can see (with hidden cash, the bot's view
holds the tally of public payments instead of the other players' cash). ``nation_figures``
gathers per nation what taxing, interest and governments depend on; ``player_features`` turns
them into one row per player, the columns named by ``FEATURES``.
"""

from __future__ import annotations

from dataclasses import dataclass

from maps.board import Board
from rules.state import NO, GameState

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


# by board (its id): the board itself (an id is reused once a board is gone), its provinces
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


def player_features(s: GameState, figures: list[NationFigures] | None = None) -> list[list[float]]:
    """The features of every player (rows in seating order, columns as ``FEATURES``)."""
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
    return rows
