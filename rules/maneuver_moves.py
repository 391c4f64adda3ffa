"""Maneuver move generation: every legal fleet move, army move (with its convoys and its
hostile/friendly status), status change, battle and factory destruction in the current position.

Applying a move lives in ``rules.maneuver``; both read the same geometry (``rules.geometry``),
so ``legal_actions()`` lists exactly what ``apply`` accepts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.actions import (
    NATION_CODES,
    ChangeStatus,
    DestroyFactory,
    EndManeuver,
    Fight,
    MoveArmy,
    MoveFleet,
    NoFight,
)
from rules.common import code
from rules.geometry import Rail, army_destinations, is_foreign_home, protected_province
from rules.state import NO, GameState

ARMY, FLEET = "army", "fleet"
HOSTILE, FRIENDLY = "hostile", "friendly"


@dataclass(frozen=True, slots=True)
class ManeuverContext:
    """The active nation's Maneuver so far. Dicts are never changed in place (copies share
    them): ``moved_armies`` counts by (region, friendly?) the armies that already acted,
    ``moved_fleets`` by region, ``convoy_used`` fleets per sea that carried an army."""

    moved_armies: dict[tuple[int, bool], int] = field(default_factory=dict)
    moved_fleets: dict[int, int] = field(default_factory=dict)
    convoy_used: dict[int, int] = field(default_factory=dict)
    armies_phase: bool = False


@dataclass(frozen=True, slots=True)
class BattleContext:
    """A battle chance after a unit of the active nation entered ``region`` (or switched
    status there). ``asking`` are the nations still to be asked, the current one first.
    ``unit``/``friendly`` describe the entering army or fleet; ``any_unit`` allows any units
    of both sides to fight (the until_declined option, after a first battle)."""

    region: int
    unit: str
    friendly: bool
    asking: tuple[int, ...]
    any_unit: bool = False
    fought: bool = False


def unmoved_armies(s: GameState, n: int, ctx: ManeuverContext, r: int) -> tuple[int, int]:
    """(hostile-or-statusless, friendly) armies at r that have not acted yet."""
    fr = s.friendly[n][r] - ctx.moved_armies.get((r, True), 0)
    other = s.armies[n][r] - s.friendly[n][r] - ctx.moved_armies.get((r, False), 0)
    return other, fr


def unmoved_fleets(s: GameState, n: int, ctx: ManeuverContext, r: int) -> int:
    return s.fleets[n][r] - ctx.moved_fleets.get(r, 0)


def legal_maneuver(s: GameState) -> list:
    n = s.turn
    c = code(n)
    ctx: ManeuverContext = s.turn_ctx
    board = s.board
    out: list = []
    rail = Rail(s, n)
    if not ctx.armies_phase:
        for r in range(len(board.regions)):
            if unmoved_fleets(s, n, ctx, r) > 0:
                if board.regions[r].kind == "sea":
                    targets = sorted(board.sea_neighbours[r])
                else:
                    targets = [board.harbour_sea[r]]
                out += [MoveFleet(c, board.id(r), board.id(t)) for t in targets]
    protected: dict[int, int] = {}

    def is_protected(owner: int, region: int) -> bool:
        if owner not in protected:
            protected[owner] = protected_province(s, owner)
        return protected[owner] == region

    my_armies = s.armies[n]
    for r in range(len(board.regions)):
        if not my_armies[r]:
            continue
        hostile, friendly = unmoved_armies(s, n, ctx, r)
        if hostile + friendly <= 0:
            continue
        rid = board.id(r)
        for d, routes in army_destinations(s, n, ctx, r, rail).items():
            did = board.id(d)
            statuses: tuple[str | None, ...] = (None,)
            owner = board.owner[d]
            if owner != NO and owner != n:
                statuses = (FRIENDLY,) if is_protected(owner, d) else (HOSTILE, FRIENDLY)
            for route in routes:
                convoy = tuple(board.id(x) for x in route)
                for st in statuses:
                    out.append(MoveArmy(c, rid, did, convoy, st))
        if s.rules.status_change_without_moving and is_foreign_home(s, n, r):
            if friendly > 0 and not is_protected(board.owner[r], r):
                out.append(ChangeStatus(c, rid, HOSTILE))
            if hostile > 0:
                out.append(ChangeStatus(c, rid, FRIENDLY))
    out += initiated_fights(s, n)
    out += [DestroyFactory(c, board.id(r)) for r in destroyable(s, n)]
    out.append(EndManeuver(c))
    return out


# ------------------------------------------------------------------------------- battles


def fight_kinds(s: GameState, r: int, attacker: int, target: int) -> list[tuple[str, str]]:
    """(attacker unit, target unit) pairs that may fight in region r."""
    sea = s.board.regions[r].kind == "sea"
    pairs = []
    a_army, a_fleet = s.armies[attacker][r] > 0, s.fleets[attacker][r] > 0
    t_army, t_fleet = s.armies[target][r] > 0, s.fleets[target][r] > 0
    if sea:
        if a_fleet and t_fleet:
            pairs.append((FLEET, FLEET))
        return pairs
    if a_army and t_army:
        pairs.append((ARMY, ARMY))
    if a_army and t_fleet:  # the target's fleet is in its port here
        pairs.append((ARMY, FLEET))
    if a_fleet and t_army:  # the attacker's fleet is in its own port
        pairs.append((FLEET, ARMY))
    return pairs


def initiated_fights(s: GameState, n: int) -> list[Fight]:
    """Battles the active nation may start at any time with units already in a region."""
    out = []
    board = s.board
    c = code(n)
    for r in range(len(board.regions)):
        if not (s.armies[n][r] or s.fleets[n][r]):
            continue
        for m in range(len(NATION_CODES)):
            if m == n or not (s.armies[m][r] or s.fleets[m][r]):
                continue
            for mine, theirs in fight_kinds(s, r, n, m):
                if mine != theirs and not s.rules.port_fleet_fights_present_army:
                    continue  # army against port fleet only when the army enters
                out.append(Fight(c, board.id(r), mine, NATION_CODES[m], theirs))
    return out


def turn_order_after(n: int) -> list[int]:
    k = len(NATION_CODES)
    return [(n + i) % k for i in range(1, k)]


def battle_options(s: GameState, ctx: BattleContext, m: int) -> list[Fight]:
    n = s.turn
    r = ctx.region
    rid = s.board.id(r)
    out = []
    if m == n:
        for t in turn_order_after(n):
            for mine, theirs in fight_kinds(s, r, n, t):
                if ctx.any_unit or mine == ctx.unit:
                    out.append(Fight(code(n), rid, mine, code(t), theirs))
        return out
    for mine, theirs in fight_kinds(s, r, m, n):
        if ctx.any_unit or theirs == ctx.unit:
            out.append(Fight(code(m), rid, mine, code(n), theirs))
    return out


def with_asking(ctx: BattleContext, asking: tuple[int, ...]) -> BattleContext:
    return BattleContext(ctx.region, ctx.unit, ctx.friendly, asking, ctx.any_unit, ctx.fought)


def legal_battle(s: GameState) -> list:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    return [*battle_options(s, ctx, m), NoFight(code(m))]


# ------------------------------------------------------------------------------- destruction


def destroyable(s: GameState, n: int) -> list[int]:
    out = []
    for r in range(len(s.board.regions)):
        if not s.factory[r] or not is_foreign_home(s, n, r):
            continue
        need = s.armies[n][r] - (s.friendly[n][r] if s.rules.destroy_requires_hostile else 0)
        if need < 3:
            continue
        owner = s.board.owner[r]
        if s.armies[owner][r] or s.fleets[owner][r]:
            continue
        if last_unoccupied_factory(s, owner) == r:
            continue
        out.append(r)
    return out


def last_unoccupied_factory(s: GameState, m: int) -> int:
    free = [r for r in s.factories_of(m) if not s.occupied(r)]
    return free[0] if len(free) == 1 else NO
