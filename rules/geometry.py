"""Where units can go: a nation's rail network, the regions an army can end in (by land, rail
or convoy, with the minimal sets of seas for each convoy), and which province foreign armies
may only enter as friendly.

Pure functions over a position, shared by move generation (``rules.maneuver_moves``), applying
moves (``rules.maneuver``) and the app's hints, so a hint and the engine never disagree.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from rules.common import nname, possessive, rname
from rules.errors import IllegalAction
from rules.state import NO, GameState

if TYPE_CHECKING:
    from maps import Board
    from rules.actions import MoveArmy
    from rules.maneuver_moves import ManeuverContext

# One army's moves (rules.maneuver_moves.army_moves), cached by what they depend on: the
# nation, the rail network (``Rail.key``), the seas that can carry, the canals (a table for
# these), then the origin (an entry of the table). An entry: the destinations with their
# convoy routes, the foreign nations whose provinces they reach, and the moves (as listed) by
# which of those provinces are protected.
ArmyMoves = list["MoveArmy"]
ArmyMovesKey = tuple[
    int, tuple[bool, frozenset[int]], frozenset[int], tuple["SeaPairs", "SeaPairs"]
]
ArmyMovesEntry = tuple[
    dict[int, list[tuple[int, ...]]], tuple[int, ...], dict[tuple[int, ...], ArmyMoves]
]


def is_foreign_home(s: GameState, n: int, r: int) -> bool:
    owner = s.board.owner[r]
    return owner != NO and owner != n


def protected_province(s: GameState, m: int, occupied: bytes | None = None) -> int:
    """The province of ``m`` that foreign armies may only enter as friendly, or NO.
    ``occupied``: the position's ``occupation`` when the caller has it."""
    facs = s.factories_of(m)
    if s.rules.last_factory_entry == "any_factory":
        return facs[0] if len(facs) == 1 else NO
    if occupied is None:
        free = [r for r in facs if not s.occupied(r)]
    else:
        free = [r for r in facs if not occupied[r]]
    return free[0] if len(free) == 1 else NO


def last_factory_words(s: GameState, m: int) -> str:
    if s.rules.last_factory_entry == "any_factory":
        return f"{possessive(nname(s, m))} only factory"
    return f"{possessive(nname(s, m))} last unoccupied factory"


class Lookups:
    """Figures that depend only on the board and the rule options, computed once per board:
    where armies may stand, the land neighbours they may step into (in the board's own order,
    so move lists keep their order), one-region sets, region ids, and each nation's rail groups
    while none of its provinces is occupied (the usual case)."""

    __slots__ = (
        "army_moves",
        "board",
        "foreign_homes",
        "free_groups",
        "ids",
        "is_sea",
        "rails",
        "single",
        "stand",
        "stand_neighbours",
    )

    def __init__(self, s: GameState) -> None:
        board = s.board
        dublin = s.rules.armies_may_enter_dublin
        self.board = board
        self.stand = tuple(
            reg.kind != "sea" and (dublin or reg.kind != "province" or reg.rail)
            for reg in board.regions
        )
        self.stand_neighbours = tuple(
            tuple(d for d in nb if self.stand[d]) for nb in board.land_neighbours
        )
        self.single = tuple(frozenset((r,)) for r in range(len(board.regions)))
        self.ids = tuple(reg.id for reg in board.regions)
        self.is_sea = tuple(reg.kind == "sea" for reg in board.regions)
        self.free_groups = tuple(
            _rail_groups(board, n, frozenset()) for n in range(len(board.home))
        )
        # one army's moves by what they depend on, then origin (rules.maneuver_moves.army_moves)
        self.army_moves: dict[ArmyMovesKey, dict[int, ArmyMovesEntry]] = {}
        # each nation's rail network by the occupation it was built for (``rail_for``)
        self.rails: dict[tuple[int, bytes, bool], Rail] = {}
        # per nation, the other nations' home provinces as a byte mask (``occupation``)
        self.foreign_homes = tuple(
            int.from_bytes(bytes(255 * (o not in (-1, n)) for o in board.owner), "little")
            for n in range(len(board.home))
        )


_LOOKUPS: dict[tuple[int, bool], Lookups] = {}


def lookups(s: GameState) -> Lookups:
    """The cached ``Lookups`` of the position's board and rule options."""
    key = (id(s.board), s.rules.armies_may_enter_dublin)
    found = _LOOKUPS.get(key)
    if found is None or found.board is not s.board:
        found = _LOOKUPS[key] = Lookups(s)
    return found


def occupation(s: GameState) -> bytes:
    """Byte r is non-zero where province r is occupied (``GameState.occupied``), for every
    region at once: a move list asks about many provinces, and this is a few operations on
    whole arrays instead of a loop over nations per province. (A nation's armies differ from
    its friendly ones exactly where it has hostile armies; those count in other nations'
    home provinces.)"""
    size = len(s.board.regions)
    armies = b"".join(s.armies)
    friendly = b"".join(s.friendly)
    masks = lookups(s).foreign_homes
    if len(armies) != size * len(masks) or len(friendly) != len(armies):
        return bytes(s.occupied(r) for r in range(size))  # (arrays of another shape)
    hostile = int.from_bytes(armies, "little") ^ int.from_bytes(friendly, "little")
    bits = 8 * size
    occupied = 0
    for mask in masks:
        occupied |= hostile & mask
        hostile >>= bits
    return occupied.to_bytes(size, "little")


def _rail_groups(
    board: Board, n: int, occupied: frozenset[int] | set[int]
) -> dict[int, frozenset[int]]:
    group: dict[int, frozenset[int]] = {}
    for r in board.home[n]:
        if r in group or r in occupied or not board.regions[r].rail:
            continue
        comp = {r}
        stack = [r]
        while stack:
            x = stack.pop()
            for y in board.rail_links[x]:
                if y not in comp and y not in occupied:
                    comp.add(y)
                    stack.append(y)
        frozen = frozenset(comp)
        for x in comp:
            group[x] = frozen
    return group


class Rail:
    """A nation's rail network as it stands now: the connected groups of its unoccupied
    provinces on the rail net. Rail runs only between the nation's own provinces, never into
    or through an occupied one, and not to Dublin. Built once per query, then plain lookups."""

    __slots__ = ("_links", "_single", "from_occupied", "group", "key", "occupied")

    def __init__(self, s: GameState, n: int, occupied: bytes | None = None) -> None:
        """``occupied``: the position's ``occupation`` when the caller has it."""
        board = s.board
        look = lookups(s)
        if occupied is None:
            self.occupied = {r for r in board.home[n] if s.occupied(r)}
        else:
            self.occupied = {r for r in board.home[n] if occupied[r]}
        self.from_occupied = s.rules.rail_from_occupied_province
        if self.occupied:
            self.group = _rail_groups(board, n, self.occupied)
        else:
            self.group = look.free_groups[n]
        self._links = board.rail_links
        self._single = look.single
        # what the network depends on, for caches of moves built on it
        self.key = (self.from_occupied, frozenset(self.occupied))

    def after(self, landing: int) -> frozenset[int]:
        """Where an army may end that stepped into ``landing`` (rail on if own, free)."""
        return self.group.get(landing) or self._single[landing]

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
        return self._single[origin]


RAIL_CACHE_SIZE = 2000


def rail_for(s: GameState, n: int, occupied: bytes) -> Rail:
    """``Rail(s, n, occupied)``, shared by every position with the same occupation (``occupied``
    is the position's ``occupation``): a Rail is never changed once built, and during a
    Maneuver the network is the same from step to step. The same object also makes the cache
    of army moves (keyed on ``Rail.key``) compare its keys by identity."""
    look = lookups(s)
    key = (n, occupied, s.rules.rail_from_occupied_province)
    found = look.rails.get(key)
    if found is None:
        if len(look.rails) >= RAIL_CACHE_SIZE:
            look.rails.clear()
        found = look.rails[key] = Rail(s, n, occupied)
    return found


def rail_closure(s: GameState, n: int, start: int) -> frozenset[int]:
    """Own home provinces reachable by rail from ``start`` (included)."""
    return Rail(s, n).start(start)


def army_may_stand(s: GameState, r: int) -> bool:
    """Armies stand on land; an island province off the rail net (Dublin) only by option."""
    return lookups(s).stand[r]


def convoy_capacity(s: GameState, n: int, ctx: ManeuverContext, sea: int) -> int:
    free = s.fleets[n][sea] - ctx.convoy_used.get(sea, 0)
    if free <= 0:
        return 0
    if not s.rules.convoy_through_foreign_fleets and any(
        s.fleets[m][sea] for m in range(len(s.fleets)) if m != n
    ):
        return 0
    return free


def convoy_seas(s: GameState, n: int, ctx: ManeuverContext) -> frozenset[int]:
    """Seas holding a fleet of ``n`` that may still carry an army this turn
    (``convoy_capacity`` above 0, for the seas where ``n`` has a fleet only)."""
    own = s.fleets[n]
    is_sea = lookups(s).is_sea
    used = ctx.convoy_used
    alone = not s.rules.convoy_through_foreign_fleets
    fleets = s.fleets
    out = []
    for sea in where(own):
        if not is_sea[sea] or own[sea] - used.get(sea, 0) <= 0:
            continue
        if alone and any(fleets[m][sea] for m in range(len(fleets)) if m != n):
            continue
        out.append(sea)
    return frozenset(out)


_ANY = bytes([0] + [1] * 255)  # a count -> 1 if any


def where(counts: bytearray) -> list[int]:
    """The regions with a non-zero count, in order (a search in C over the whole array; a
    nation's units stand in a few regions of the board)."""
    marks = counts.translate(_ANY)
    out = []
    r = marks.find(1)
    while r >= 0:
        out.append(r)
        r = marks.find(1, r + 1)
    return out


def land_destinations(
    s: GameState, n: int, origin: int, rail: Rail
) -> dict[int, list[tuple[int, ...]]]:
    """Where an army at ``origin`` can end without a fleet (rail, one step, rail), each with
    the route ``[()]``, in the order the move list shows them."""
    stand_nb = lookups(s).stand_neighbours
    group = rail.group
    starts = rail.start(origin)
    dests: dict[int, list[tuple[int, ...]]] = {}
    for r in starts:
        if r != origin:
            dests[r] = [()]
    for e in starts:
        for d in stand_nb[e]:
            g = group.get(d)
            if g is None:
                if d != origin:
                    dests[d] = [()]
                continue
            for f in g:
                if f != origin:
                    dests[f] = [()]
    return dests


# Sea pairs whose canal asks permission, and sea pairs closed, for a convoy (rules.canals);
# Imperial's board has no canals.
SeaPairs = frozenset[tuple[int, int]]
NO_CANALS: tuple[SeaPairs, SeaPairs] = (frozenset(), frozenset())


def army_destinations(
    s: GameState, n: int, ctx: ManeuverContext, origin: int, rail: Rail | None = None
) -> dict[int, list[tuple[int, ...]]]:
    """Every region an army at ``origin`` can end in, each with its routes: ``[()]`` when it
    needs no fleet, else the minimal sets of convoy seas (as paths)."""
    from rules.canals import gates, route_pairs

    rail = rail or Rail(s, n)
    canals = route_pairs(gates(s, n)) if s.board.canals else NO_CANALS
    return destinations_with(s, n, origin, rail, convoy_seas(s, n, ctx), canals)


def destinations_with(
    s: GameState,
    n: int,
    origin: int,
    rail: Rail,
    usable: frozenset[int],
    canals: tuple[SeaPairs, SeaPairs] = NO_CANALS,
) -> dict[int, list[tuple[int, ...]]]:
    """``army_destinations`` with the usable convoy seas already known (one move list asks
    for every army's destinations in the same position). ``canals``: the sea pairs whose
    canal asks permission (a route through one does not make a longer free route needless)
    and those closed to this nation (Imperial 2030)."""
    dests = land_destinations(s, n, origin, rail)
    if not usable:
        return dests
    asked, closed = canals
    board = s.board
    stand_nb = lookups(s).stand_neighbours
    starts = rail.start(origin)
    convoy: dict[int, list[tuple[int, ...]]] = {}
    first = {sea for e in starts for sea in board.sea_neighbours[e] if sea in usable}

    def visit(path: tuple[int, ...]) -> None:
        last = path[-1]
        for land in stand_nb[last]:
            for f in rail.after(land):
                if f == origin or f in dests:
                    continue
                if asked:
                    _add_gated_route(convoy.setdefault(f, []), path, asked)
                else:
                    _add_route(convoy.setdefault(f, []), path)
        for nxt in board.sea_neighbours[last]:
            if nxt in usable and nxt not in path and (last, nxt) not in closed:
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


def _asked_crossings(path: tuple[int, ...], asked: SeaPairs) -> frozenset[tuple[int, int]]:
    return frozenset(pair for pair in itertools.pairwise(path) if pair in asked)


def _add_gated_route(routes: list[tuple[int, ...]], path: tuple[int, ...], asked: SeaPairs) -> None:
    """``_add_route`` where some canals ask permission: a route is needless only beside one
    that uses a subset of its fleets and asks at no canal it does not ask at itself (so a
    longer route around a canal stays, for when the canal's answer is no)."""
    ps, pg = set(path), _asked_crossings(path, asked)
    for other in routes:
        if set(other) <= ps and _asked_crossings(other, asked) <= pg:
            return
    routes[:] = [o for o in routes if not (ps <= set(o) and pg <= _asked_crossings(o, asked))]
    routes.append(path)


def check_convoy_path(
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
        if convoy_capacity(s, n, ctx, sea) == 0:
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
    landings = [x for x in board.land_neighbours[path[-1]] if army_may_stand(s, x)]
    if not any(dest in rail.after(x) for x in landings):
        raise IllegalAction(
            f"the army cannot land from the {rname(s, path[-1])} and reach {rname(s, dest)}"
        )
