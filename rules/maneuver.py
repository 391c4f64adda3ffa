"""Maneuver: all fleets move, then all armies (rail, one step or a convoy), battles right after
the moves that trigger them, factory destruction, and finally flags (tax markers).

Every unit move is one small decision; moving the first army closes the fleet phase. When a
unit enters a region with foreign units, the mover decides first whether it fights; if not,
the other nations present are asked in turn (``awaiting`` moves to their governments and back).
Units of one nation in one region are interchangeable, so the engine tracks only counts: how
many of the active nation's units in a region already moved, and how many fleets per sea
already carried an army this turn.
"""

from __future__ import annotations

import itertools
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
from rules.common import (
    Events,
    await_decision,
    clear_await,
    code,
    nation_index,
    nname,
    region_index,
    rname,
    say,
)
from rules.errors import IllegalAction
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


def _bump(d: dict, key: object, by: int) -> dict:
    out = dict(d)
    val = out.get(key, 0) + by
    if val:
        out[key] = val
    else:
        out.pop(key, None)
    return out


# ------------------------------------------------------------------------------- geometry


def is_foreign_home(s: GameState, n: int, r: int) -> bool:
    owner = s.board.owner[r]
    return owner != NO and owner != n


def protected_province(s: GameState, m: int) -> int:
    """The province of ``m`` that foreign armies may only enter as friendly, or NO."""
    facs = s.factories_of(m)
    if s.rules.last_factory_entry == "any_factory":
        return facs[0] if len(facs) == 1 else NO
    free = [r for r in facs if not s.occupied(r)]
    return free[0] if len(free) == 1 else NO


def _last_factory_words(s: GameState, m: int) -> str:
    if s.rules.last_factory_entry == "any_factory":
        return f"{nname(s, m)}'s only factory"
    return f"{nname(s, m)}'s last unoccupied factory"


class Rail:
    """A nation's rail network as it stands now: the connected groups of its unoccupied
    provinces on the rail net. Rail runs only between the nation's own provinces, never into
    or through an occupied one, and not to Dublin. Built once per query, then plain lookups."""

    __slots__ = ("_links", "from_occupied", "group", "occupied")

    def __init__(self, s: GameState, n: int) -> None:
        board = s.board
        self.occupied = {r for r in board.home[n] if s.occupied(r)}
        self.from_occupied = s.rules.rail_from_occupied_province
        group: dict[int, frozenset[int]] = {}
        for r in board.home[n]:
            if r in group or r in self.occupied or not board.regions[r].rail:
                continue
            comp = {r}
            stack = [r]
            while stack:
                x = stack.pop()
                for y in board.rail_links[x]:
                    if y not in comp and y not in self.occupied:
                        comp.add(y)
                        stack.append(y)
            frozen = frozenset(comp)
            for x in comp:
                group[x] = frozen
        self.group = group
        self._links = board.rail_links

    def after(self, landing: int) -> frozenset[int]:
        """Where an army may end that stepped into ``landing`` (rail on if own, free)."""
        return self.group.get(landing) or frozenset((landing,))

    def start(self, origin: int) -> frozenset[int]:
        """Where an army at ``origin`` may be before its step."""
        found = self.group.get(origin)
        if found is not None:
            return found
        if origin in self.occupied and self.from_occupied:
            out = {origin}
            for y in self._links[origin]:
                out |= self.group.get(y, frozenset())
            return frozenset(out)
        return frozenset((origin,))


def rail_closure(s: GameState, n: int, start: int) -> frozenset[int]:
    """Own home provinces reachable by rail from ``start`` (included)."""
    return Rail(s, n).start(start)


def _army_may_stand(s: GameState, r: int) -> bool:
    """Armies stand on land; an island province off the rail net (Dublin) only by option."""
    reg = s.board.regions[r]
    if reg.kind == "sea":
        return False
    return s.rules.armies_may_enter_dublin or reg.kind != "province" or reg.rail


def _convoy_capacity(s: GameState, n: int, ctx: ManeuverContext, sea: int) -> int:
    free = s.fleets[n][sea] - ctx.convoy_used.get(sea, 0)
    if free <= 0:
        return 0
    if not s.rules.convoy_through_foreign_fleets and any(
        s.fleets[m][sea] for m in range(len(NATION_CODES)) if m != n
    ):
        return 0
    return free


def army_destinations(
    s: GameState, n: int, ctx: ManeuverContext, origin: int, rail: Rail | None = None
) -> dict[int, list[tuple[int, ...]]]:
    """Every region an army at ``origin`` can end in, each with its routes: ``[()]`` when it
    needs no fleet, else the minimal sets of convoy seas (as paths)."""
    board = s.board
    rail = rail or Rail(s, n)
    starts = rail.start(origin)
    dests: dict[int, list[tuple[int, ...]]] = {}
    for r in starts:
        if r != origin:
            dests[r] = [()]
    for e in starts:
        for d in board.land_neighbours[e]:
            if _army_may_stand(s, d):
                for f in rail.after(d):
                    if f != origin:
                        dests[f] = [()]
    # convoys: simple paths over seas holding a free own fleet
    usable = {sea for sea in board.sea_indices if _convoy_capacity(s, n, ctx, sea) > 0}
    if not usable:
        return dests
    convoy: dict[int, list[tuple[int, ...]]] = {}
    first = {sea for e in starts for sea in board.sea_neighbours[e] if sea in usable}

    def visit(path: tuple[int, ...]) -> None:
        last = path[-1]
        for land in board.land_neighbours[last]:
            if not _army_may_stand(s, land):
                continue
            for f in rail.after(land):
                if f == origin or f in dests:
                    continue
                _add_route(convoy.setdefault(f, []), path)
        for nxt in board.sea_neighbours[last]:
            if nxt in usable and nxt not in path:
                visit((*path, nxt))

    for sea in sorted(first):
        visit((sea,))
    for f, routes in convoy.items():
        dests[f] = routes
    return dests


def _add_route(routes: list[tuple[int, ...]], path: tuple[int, ...]) -> None:
    """Keep only minimal sets of seas (a superset would use fleets for nothing)."""
    ps = set(path)
    for other in routes:
        if set(other) <= ps:
            return
    routes[:] = [o for o in routes if not ps <= set(o)]
    routes.append(path)


def _check_convoy_path(
    s: GameState, n: int, ctx: ManeuverContext, origin: int, path: tuple[int, ...], dest: int
) -> None:
    board = s.board
    name = nname(s, n)
    if len(set(path)) != len(path):
        raise IllegalAction("a convoy uses each sea at most once")
    for sea in path:
        if board.regions[sea].kind != "sea":
            raise IllegalAction(f"{rname(s, sea)} is not a sea; a convoy crosses seas")
        if s.fleets[n][sea] == 0:
            raise IllegalAction(f"{name} has no fleet in the {rname(s, sea)} to carry this army")
        if _convoy_capacity(s, n, ctx, sea) == 0:
            if s.fleets[n][sea] <= ctx.convoy_used.get(sea, 0):
                raise IllegalAction(
                    f"the {name} fleet in the {rname(s, sea)} has already carried an army this turn"
                )
            raise IllegalAction(
                f"foreign fleets lie in the {rname(s, sea)}; convoys cannot pass "
                "them (rule option convoy_through_foreign_fleets)"
            )
    rail = Rail(s, n)
    starts = rail.start(origin)
    if not any(path[0] in board.sea_neighbours[e] for e in starts):
        raise IllegalAction(
            f"the army in {rname(s, origin)} cannot reach the "
            f"{rname(s, path[0])} (not on its coast, nor by rail)"
        )
    for a, b in itertools.pairwise(path):
        if b not in board.sea_neighbours[a]:
            raise IllegalAction(f"the {rname(s, a)} and the {rname(s, b)} are not adjacent")
    landings = [x for x in board.land_neighbours[path[-1]] if _army_may_stand(s, x)]
    if not any(dest in rail.after(x) for x in landings):
        raise IllegalAction(
            f"the army cannot land from the {rname(s, path[-1])} and reach {rname(s, dest)}"
        )


# ------------------------------------------------------------------------------- the step


def step_maneuver(s: GameState, ev: Events) -> None:
    n = s.turn
    if s.units_of(n) == 0:
        say(ev, s, n, f"{nname(s, n)} has no units to maneuver")
        _place_flags(s, n, ev)
        return
    s.turn_ctx = ManeuverContext()
    await_decision(s, "maneuver", s.government[n], n)


def _back_to_maneuver(s: GameState) -> None:
    n = s.turn
    await_decision(s, "maneuver", s.government[n], n)


def _unmoved_armies(s: GameState, n: int, ctx: ManeuverContext, r: int) -> tuple[int, int]:
    """(hostile-or-statusless, friendly) armies at r that have not acted yet."""
    fr = s.friendly[n][r] - ctx.moved_armies.get((r, True), 0)
    other = s.armies[n][r] - s.friendly[n][r] - ctx.moved_armies.get((r, False), 0)
    return other, fr


def _unmoved_fleets(s: GameState, n: int, ctx: ManeuverContext, r: int) -> int:
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
            if _unmoved_fleets(s, n, ctx, r) > 0:
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
        hostile, friendly = _unmoved_armies(s, n, ctx, r)
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
    out += _initiated_fights(s, n)
    out += [DestroyFactory(c, board.id(r)) for r in _destroyable(s, n)]
    out.append(EndManeuver(c))
    return out


# ------------------------------------------------------------------------------- fleets


def apply_move_fleet(s: GameState, a: MoveFleet, ev: Events) -> None:
    n = s.turn
    ctx: ManeuverContext = s.turn_ctx
    board = s.board
    name = nname(s, n)
    o = region_index(s, a.origin)
    d = region_index(s, a.dest)
    if ctx.armies_phase:
        raise IllegalAction(
            "all fleets move before the armies; an army has already moved this turn"
        )
    if s.fleets[n][o] == 0:
        raise IllegalAction(f"{name} has no fleet in {rname(s, o)}")
    if _unmoved_fleets(s, n, ctx, o) == 0:
        raise IllegalAction(f"every {name} fleet in {rname(s, o)} has already moved this turn")
    if board.regions[d].kind != "sea":
        raise IllegalAction(f"fleets never go on land; {rname(s, d)} is not a sea")
    if board.regions[o].kind != "sea":
        if board.harbour_sea[o] != d:
            raise IllegalAction(
                f"a fleet in the port of {rname(s, o)} can only sail into the "
                f"{rname(s, board.harbour_sea[o])}"
            )
    elif d not in board.sea_neighbours[o]:
        raise IllegalAction(f"the {rname(s, o)} and the {rname(s, d)} are not adjacent")
    s.fleets[n][o] -= 1
    s.fleets[n][d] += 1
    s.turn_ctx = ManeuverContext(
        ctx.moved_armies, _bump(ctx.moved_fleets, d, 1), ctx.convoy_used, False
    )
    say(ev, s, n, f"{name} moves a fleet from {rname(s, o)} to the {rname(s, d)}")
    _after_departure(s, o, ev)
    _entered(s, n, d, FLEET, False, ev)


# ------------------------------------------------------------------------------- armies


def apply_move_army(s: GameState, a: MoveArmy, ev: Events) -> None:
    n = s.turn
    ctx: ManeuverContext = s.turn_ctx
    board = s.board
    name = nname(s, n)
    o = region_index(s, a.origin)
    d = region_index(s, a.dest)
    if s.armies[n][o] == 0:
        raise IllegalAction(f"{name} has no army in {rname(s, o)}")
    hostile_left, friendly_left = _unmoved_armies(s, n, ctx, o)
    if hostile_left + friendly_left <= 0:
        raise IllegalAction(f"every {name} army in {rname(s, o)} has already moved this turn")
    if board.regions[d].kind == "sea":
        raise IllegalAction(f"armies never end at sea; {rname(s, d)} is a sea")
    if not _army_may_stand(s, d):
        raise IllegalAction(
            f"armies cannot enter {rname(s, d)} (rule option armies_may_enter_dublin)"
        )
    if d == o:
        raise IllegalAction(
            "the army must end in another region (to switch its status, use "
            f"'{code(n)} make army {a.origin} hostile|friendly')"
        )
    path = tuple(region_index(s, x) for x in a.convoy)
    dests = army_destinations(s, n, ctx, o)
    if path:
        _check_convoy_path(s, n, ctx, o, path, d)
        # Only fleets that are needed carry: a route that could do with fewer is refused, so
        # that apply accepts exactly what legal_actions lists.
        if dests.get(d) == [()]:
            raise IllegalAction(
                f"the army in {rname(s, o)} reaches {rname(s, d)} without a fleet; "
                "leave out the convoy"
            )
        if set(path) not in [set(route) for route in dests.get(d, [])]:
            shorter = ",".join(board.id(x) for x in dests[d][0])
            raise IllegalAction(f"fewer fleets can carry this army: 'convoy {shorter}'")
    else:
        if d not in dests or dests[d] != [()]:
            hint = ""
            if d in dests:
                seas = ",".join(board.id(x) for x in dests[d][0])
                hint = f"; it needs a convoy, e.g. 'convoy {seas}'"
            elif board.regions[d].kind != "sea" and d not in board.land_neighbours[o]:
                hint = f" ({rname(s, d)} does not border {rname(s, o)})"
            raise IllegalAction(
                f"the army in {rname(s, o)} cannot reach {rname(s, d)} by land or rail{hint}"
            )
    # hostile or friendly
    friendly = False
    if is_foreign_home(s, n, d):
        owner = board.owner[d]
        if a.status is None:
            raise IllegalAction(
                f"{rname(s, d)} is a home province of {nname(s, owner)}: say "
                "whether the army enters 'hostile' or 'friendly'"
            )
        if a.status == HOSTILE and protected_province(s, owner) == d:
            raise IllegalAction(
                f"{rname(s, d)} holds {_last_factory_words(s, owner)}: foreign armies may "
                "only enter it as friendly"
            )
        friendly = a.status == FRIENDLY
    elif a.status is not None:
        raise IllegalAction(
            f"only armies entering another nation's home province are hostile "
            f"or friendly; {rname(s, d)} is not one"
        )
    # leave: a friendly army leaves first, so hostile ones keep their occupation
    leave_friendly = friendly_left > 0 and is_foreign_home(s, n, o)
    s.armies[n][o] -= 1
    if leave_friendly:
        s.friendly[n][o] -= 1
    s.armies[n][d] += 1
    if friendly:
        s.friendly[n][d] += 1
    used = ctx.convoy_used
    for sea in path:
        used = _bump(used, sea, 1)
    s.turn_ctx = ManeuverContext(
        _bump(ctx.moved_armies, (d, friendly), 1), ctx.moved_fleets, used, True
    )
    route = ""
    if path:
        route = " by convoy across the " + ", the ".join(rname(s, x) for x in path)
    status = f" ({a.status})" if a.status else ""
    say(ev, s, n, f"{name} moves an army from {rname(s, o)} to {rname(s, d)}{route}{status}")
    _after_departure(s, o, ev)
    _entered(s, n, d, ARMY, friendly, ev)


def apply_change_status(s: GameState, a: ChangeStatus, ev: Events) -> None:
    n = s.turn
    ctx: ManeuverContext = s.turn_ctx
    name = nname(s, n)
    r = region_index(s, a.region)
    if not s.rules.status_change_without_moving:
        raise IllegalAction(
            "armies cannot change status without moving (rule option status_change_without_moving)"
        )
    if not is_foreign_home(s, n, r):
        raise IllegalAction(
            f"{rname(s, r)} is not another nation's home province; armies there have no status"
        )
    hostile, friendly = _unmoved_armies(s, n, ctx, r)
    to_friendly = a.status == FRIENDLY
    if (friendly if not to_friendly else hostile) <= 0:
        other = HOSTILE if to_friendly else FRIENDLY
        raise IllegalAction(
            f"{name} has no {other} army in {rname(s, r)} that has not acted this turn"
        )
    owner = s.board.owner[r]
    if not to_friendly and protected_province(s, owner) == r:
        raise IllegalAction(
            f"{rname(s, r)} holds {_last_factory_words(s, owner)}: armies there can only "
            "be friendly"
        )
    s.friendly[n][r] += 1 if to_friendly else -1
    s.turn_ctx = ManeuverContext(
        _bump(ctx.moved_armies, (r, to_friendly), 1), ctx.moved_fleets, ctx.convoy_used, True
    )
    say(ev, s, n, f"{name}'s army in {rname(s, r)} becomes {a.status}")
    if to_friendly:
        # Only a switch to hostile lets the other nations there demand a battle (RULES.md
        # §5.4.4 item 2 and the FAQ); the active nation may still attack at any time.
        _back_to_maneuver(s)
        return
    _entered(s, n, r, ARMY, False, ev, mover_asked=False)


# ------------------------------------------------------------------------------- battles


def _fight_kinds(s: GameState, r: int, attacker: int, target: int) -> list[tuple[str, str]]:
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


def _initiated_fights(s: GameState, n: int) -> list[Fight]:
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
            for mine, theirs in _fight_kinds(s, r, n, m):
                if mine != theirs and not s.rules.port_fleet_fights_present_army:
                    continue  # army against port fleet only when the army enters
                out.append(Fight(c, board.id(r), mine, NATION_CODES[m], theirs))
    return out


def _entered(
    s: GameState, n: int, r: int, unit: str, friendly: bool, ev: Events, mover_asked: bool = True
) -> None:
    """A unit of the active nation arrived in (or switched status in) r: offer battles."""
    others = [m for m in _turn_order_after(n) if s.armies[m][r] or s.fleets[m][r]]
    if not others:
        _back_to_maneuver(s)
        return
    asking = tuple(([n] if mover_asked else []) + [m for m in others if s.government[m] != NO])
    ctx = BattleContext(r, unit, friendly, asking)
    _ask_next(s, ctx, ev)


def _turn_order_after(n: int) -> list[int]:
    k = len(NATION_CODES)
    return [(n + i) % k for i in range(1, k)]


def _battle_options(s: GameState, ctx: BattleContext, m: int) -> list[Fight]:
    n = s.turn
    r = ctx.region
    rid = s.board.id(r)
    out = []
    if m == n:
        for t in _turn_order_after(n):
            for mine, theirs in _fight_kinds(s, r, n, t):
                if ctx.any_unit or mine == ctx.unit:
                    out.append(Fight(code(n), rid, mine, code(t), theirs))
        return out
    for mine, theirs in _fight_kinds(s, r, m, n):
        if ctx.any_unit or theirs == ctx.unit:
            out.append(Fight(code(m), rid, mine, code(n), theirs))
    return out


def _ask_next(s: GameState, ctx: BattleContext, ev: Events) -> None:
    asking = ctx.asking
    while asking and not _battle_options(s, _with(ctx, asking), asking[0]):
        asking = asking[1:]
    if not asking:
        _back_to_maneuver(s)
        return
    m = asking[0]
    await_decision(s, "battle", s.government[m], m, _with(ctx, asking))


def _with(ctx: BattleContext, asking: tuple[int, ...]) -> BattleContext:
    return BattleContext(ctx.region, ctx.unit, ctx.friendly, asking, ctx.any_unit, ctx.fought)


def legal_battle(s: GameState) -> list:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    return [*_battle_options(s, ctx, m), NoFight(code(m))]


def apply_no_fight(s: GameState, a: NoFight, ev: Events) -> None:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    say(ev, s, m, f"{nname(s, m)} does not fight in {rname(s, ctx.region)}")
    clear_await(s)
    _ask_next(s, _with(ctx, ctx.asking[1:]), ev)


def apply_battle_fight(s: GameState, a: Fight, ev: Events) -> None:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    if a.region != s.board.id(ctx.region):
        raise IllegalAction(f"the battle now is in {rname(s, ctx.region)}, not {a.region}")
    if a not in _battle_options(s, ctx, m):
        raise IllegalAction(_why_no_fight(s, a, ctx))
    n = s.turn
    entering = None if ctx.any_unit else (ctx.unit, ctx.friendly)
    if m == n:
        _remove_active(s, n, ctx.region, a.unit, entering)
        _remove_passive(s, nation_index(a.target), ctx.region, a.target_unit)
    else:
        _remove_passive(s, m, ctx.region, a.unit)
        _remove_active(s, n, ctx.region, a.target_unit, entering)
    _say_battle(s, a, ev)
    clear_await(s)
    _after_battle(s, ctx.region, ev)
    if s.rules.battle_sequence == "until_declined":
        others = [t for t in _turn_order_after(n) if s.government[t] != NO]
        nxt = BattleContext(ctx.region, ctx.unit, ctx.friendly, (n, *others), True, True)
        _ask_next(s, nxt, ev)
    else:
        _back_to_maneuver(s)


def apply_initiated_fight(s: GameState, a: Fight, ev: Events) -> None:
    n = s.turn
    r = region_index(s, a.region)
    if a not in _initiated_fights(s, n):
        raise IllegalAction(_why_no_fight(s, a, None))
    _remove_active(s, n, r, a.unit, None)
    _remove_passive(s, nation_index(a.target), r, a.target_unit)
    _say_battle(s, a, ev)
    _after_battle(s, r, ev)
    _back_to_maneuver(s)


def _why_no_fight(s: GameState, a: Fight, ctx: BattleContext | None) -> str:
    try:
        r = region_index(s, a.region)
        m = nation_index(a.nation)
        t = nation_index(a.target)
    except IllegalAction as exc:
        return exc.reason
    if not (s.armies[m][r] if a.unit == ARMY else s.fleets[m][r]):
        return f"{nname(s, m)} has no {a.unit} in {rname(s, r)}"
    if not (s.armies[t][r] if a.target_unit == ARMY else s.fleets[t][r]):
        return f"{nname(s, t)} has no {a.target_unit} in {rname(s, r)}"
    if a.unit != a.target_unit:
        return (
            "armies and fleets fight each other only while the fleet is in its port (and, "
            "in the first edition, only when the army enters)"
        )
    if ctx is not None:
        return f"this battle chance is about the unit that entered {rname(s, ctx.region)}"
    return "that battle is not possible now"


def _say_battle(s: GameState, a: Fight, ev: Events) -> None:
    m = nation_index(a.nation)
    t = nation_index(a.target)
    say(
        ev,
        s,
        m,
        f"battle in {rname(s, region_index(s, a.region))}: a {nname(s, m)} {a.unit} "
        f"and a {nname(s, t)} {a.target_unit} are destroyed",
    )


def _remove_active(
    s: GameState, n: int, r: int, unit: str, entering: tuple[str, bool] | None
) -> None:
    """Remove one unit of the active nation, keeping its moved/convoy bookkeeping right: the
    unit that entered if it fights, else one that already acted (keeps the others mobile). A
    fleet that already carried an army is lost before one that has not, so the fleets left
    in the sea can still carry."""
    ctx: ManeuverContext = s.turn_ctx
    if unit == FLEET:
        s.fleets[n][r] -= 1
        moved = ctx.moved_fleets
        if moved.get(r, 0) > 0:
            moved = _bump(moved, r, -1)
        used = ctx.convoy_used
        if used.get(r, 0) > 0:
            used = _bump(used, r, -1)
        s.turn_ctx = ManeuverContext(ctx.moved_armies, moved, used, ctx.armies_phase)
        return
    if entering is not None and entering[0] == ARMY:
        f = entering[1]
        order = ((True, f), (False, f), (True, not f), (False, not f))
    else:
        order = ((True, False), (True, True), (False, False), (False, True))
    moved = ctx.moved_armies
    total = {True: s.friendly[n][r], False: s.armies[n][r] - s.friendly[n][r]}
    for was_moved, friendly in order:
        done = moved.get((r, friendly), 0)
        if (done if was_moved else total[friendly] - done) > 0:
            break
    else:  # pragma: no cover - callers check that the unit exists
        raise IllegalAction("no such army to remove")
    s.armies[n][r] -= 1
    if friendly:
        s.friendly[n][r] -= 1
    if was_moved:
        moved = _bump(moved, (r, friendly), -1)
    s.turn_ctx = ManeuverContext(moved, ctx.moved_fleets, ctx.convoy_used, ctx.armies_phase)


def _remove_passive(s: GameState, m: int, r: int, unit: str) -> None:
    """Remove one unit of a nation that is not moving: hostile armies before friendly ones."""
    if unit == FLEET:
        s.fleets[m][r] -= 1
        return
    s.armies[m][r] -= 1
    if s.friendly[m][r] > s.armies[m][r]:
        s.friendly[m][r] -= 1


# ------------------------------------------------------------------------------- destruction


def _destroyable(s: GameState, n: int) -> list[int]:
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
        if _last_unoccupied_factory(s, owner) == r:
            continue
        out.append(r)
    return out


def _last_unoccupied_factory(s: GameState, m: int) -> int:
    free = [r for r in s.factories_of(m) if not s.occupied(r)]
    return free[0] if len(free) == 1 else NO


def apply_destroy(s: GameState, a: DestroyFactory, ev: Events) -> None:
    n = s.turn
    r = region_index(s, a.region)
    name = nname(s, n)
    if r not in _destroyable(s, n):
        if not s.factory[r]:
            raise IllegalAction(f"there is no factory in {rname(s, r)}")
        if not is_foreign_home(s, n, r):
            raise IllegalAction(f"{name} cannot destroy its own factory")
        owner = s.board.owner[r]
        if s.armies[owner][r] or s.fleets[owner][r]:
            raise IllegalAction(
                f"{nname(s, owner)} still has units in {rname(s, r)} defending the factory"
            )
        if _last_unoccupied_factory(s, owner) == r:
            raise IllegalAction(
                f"the factory in {rname(s, r)} is {nname(s, owner)}'s last "
                "unoccupied factory and cannot be destroyed"
            )
        what = "hostile armies" if s.rules.destroy_requires_hostile else "armies"
        raise IllegalAction(f"{name} needs three {what} in {rname(s, r)} to destroy the factory")
    for _ in range(3):
        _remove_active(s, n, r, ARMY, (ARMY, False))
    s.factory[r] = False
    say(
        ev,
        s,
        n,
        f"{name} destroys the {s.board.regions[r].factory_type} factory in "
        f"{rname(s, r)}; the factory and three {name} armies are removed",
    )
    _back_to_maneuver(s)


# ------------------------------------------------------------------------------- flags


def _flag_region(s: GameState, r: int) -> bool:
    return s.board.regions[r].kind != "province"


def _sole_occupant(s: GameState, r: int) -> int:
    present = [m for m in range(len(NATION_CODES)) if s.armies[m][r] or s.fleets[m][r]]
    return present[0] if len(present) == 1 else NO


def _set_flag(s: GameState, r: int, m: int, ev: Events) -> None:
    """``m`` occupies r alone: its flag replaces any other (if it has one left)."""
    old = s.flag[r]
    if old == m:
        return
    if old != NO:
        s.flag[r] = NO
    if s.flags_in_supply(m) > 0:
        s.flag[r] = m
        if old != NO:
            say(ev, s, m, f"{nname(s, m)}'s flag replaces {nname(s, old)}'s in {rname(s, r)}")
        else:
            say(ev, s, m, f"{nname(s, m)} places a flag in {rname(s, r)}")
    elif old != NO:
        say(
            ev,
            s,
            m,
            f"{nname(s, old)}'s flag is removed from {rname(s, r)}; {nname(s, m)} has "
            "no flag left to place",
        )
    if old != NO and s.rules.returned_flag_placement == "immediate":
        _place_returned(s, old, ev)


def _place_returned(s: GameState, m: int, ev: Events) -> None:
    """A flag came back to ``m``: it may go at once to an unmarked region ``m`` holds alone."""
    for r in range(len(s.board.regions)):
        if s.flags_in_supply(m) <= 0:
            return
        if _flag_region(s, r) and s.flag[r] == NO and _sole_occupant(s, r) == m:
            s.flag[r] = m
            say(ev, s, m, f"{nname(s, m)} places a returned flag in {rname(s, r)}")


def _after_departure(s: GameState, r: int, ev: Events) -> None:
    if not s.rules.flag_transfer_on_departure or not _flag_region(s, r):
        return
    m = _sole_occupant(s, r)
    if m != NO and m != s.turn and s.flag[r] not in (NO, m):
        _set_flag(s, r, m, ev)


def _after_battle(s: GameState, r: int, ev: Events) -> None:
    """An inactive nation left alone by a battle takes the region's flag at once. An unmarked
    region gets no flag out of turn: its flag is placed at the nation's own flag step."""
    if not _flag_region(s, r):
        return
    m = _sole_occupant(s, r)
    if m != NO and m != s.turn and s.flag[r] not in (NO, m):
        _set_flag(s, r, m, ev)


def _place_flags(s: GameState, n: int, ev: Events) -> None:
    for r in range(len(s.board.regions)):
        if _flag_region(s, r) and _sole_occupant(s, r) == n and s.flag[r] != n:
            _set_flag(s, r, n, ev)


def apply_end_maneuver(s: GameState, a: EndManeuver, ev: Events) -> None:
    n = s.turn
    clear_await(s)
    s.turn_ctx = None
    say(ev, s, n, f"{nname(s, n)} ends its maneuver")
    _place_flags(s, n, ev)


STEPS = {"maneuver": step_maneuver}
DECISIONS = {
    "maneuver": (
        legal_maneuver,
        {
            MoveFleet: apply_move_fleet,
            MoveArmy: apply_move_army,
            ChangeStatus: apply_change_status,
            Fight: apply_initiated_fight,
            DestroyFactory: apply_destroy,
            EndManeuver: apply_end_maneuver,
        },
    ),
    "battle": (legal_battle, {Fight: apply_battle_fight, NoFight: apply_no_fight}),
}
