"""The Maneuver's move list (``legal_maneuver``), kept with the position it lists so that
the next position's list starts from it (issue 26: a Maneuver lists again after every step).

A list is built from nothing (``_build``) out of the pieces of ``rules.maneuver_moves``: the
fleet moves, each army origin's moves (cached by what they depend on) and status changes, the
battles the nation may start, the factories it may destroy. The position keeps it
(``GameState.known``). After a listed army move without convoy, a battle, a declined battle or
a status switch, only the units in a region or two changed: the next list is the one before
with those regions' parts made again (``_after_changes``), unless the change reached further
(the fleets, the convoys used, the rail network or a protected province); then it is built
from nothing. Either way it is the same list: the property and differential tests compare
both with the rules, and seeded games replay identically.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.actions import (
    Action,
    ChangeStatus,
    DestroyFactory,
    EndManeuver,
    Fight,
    MoveArmy,
    MoveFleet,
    NoFight,
    made,
)
from rules.canals import FLEET as _FLEET
from rules.canals import NO_GATES, Gates, gates, route_pairs
from rules.common import code
from rules.geometry import (
    NO_CANALS,
    ArmyMovesEntry,
    Rail,
    convoy_seas,
    lookups,
    occupation,
    rail_for,
    where,
)
from rules.maneuver_moves import (
    ARMY,
    FRIENDLY,
    HOSTILE,
    ManeuverContext,
    ProtectedProvinces,
    army_moves,
    can_destroy,
    destroyable,
    fights_at,
    fights_by_region,
    may_ask,
    move_table,
)
from rules.state import NO, GameState

# one army origin's part of a Maneuver list: its moves, its status changes
Segment = tuple[Sequence[Action], list[Action]]


_END: dict[str, EndManeuver] = {}  # each nation's EndManeuver, by code


class ManeuverList:
    """What listing one Maneuver position found, kept with the position (``GameState.known``)
    so that the next list need not start from nothing: the move list in its parts (the fleet
    moves; per army origin, its moves and status changes; the battles by region; the factories
    to destroy) and what they were built on (occupation, rail, convoy seas, protected
    provinces). ``tags``: the position's own objects it describes (a position is never changed
    once listed, and a changed field group is a new object: ``GameState.own``)."""

    __slots__ = (
        "actions",
        "destroy",
        "fights",
        "fleet_moves",
        "occupied",
        "protected",
        "rail",
        "segments",
        "tags",
        "usable",
    )

    def __init__(
        self,
        s: GameState,
        occupied: bytes,
        rail: Rail | None,
        usable: frozenset[int],
        protected: ProtectedProvinces,
        fleet_moves: list[Action],
        segments: dict[int, Segment],
        fights: dict[int, list[Fight]],
        destroy: list[int],
    ) -> None:
        self.tags = (
            s.turn,
            s.turn_ctx,
            s.armies,
            s.friendly,
            s.fleets,
            s.factory,
            s.flag,
            s.government,
        )
        self.occupied = occupied
        self.rail = rail
        self.usable = usable
        self.protected = protected
        self.fleet_moves = fleet_moves
        self.segments = segments
        self.fights = fights
        self.destroy = destroy
        c = s.board.codes[s.turn]
        out = list(fleet_moves)
        for moves, switches in segments.values():
            out += moves
            if switches:
                out += switches
        for found in fights.values():
            out += found
        if destroy:
            ids = lookups(s).ids
            out += [DestroyFactory(c, ids[r]) for r in destroy]
        end = _END.get(c)
        if end is None:
            end = _END[c] = EndManeuver(c)
        out.append(end)
        self.actions = out  # (never changed: ``legal_maneuver``'s callers copy it)

    def fits(self, s: GameState) -> bool:
        """The list is the one of ``s`` (listed again): what it depends on, the same objects."""
        turn, ctx, armies, friendly, fleets, factory, flag, government = self.tags
        return (
            s.turn == turn
            and s.turn_ctx is ctx
            and s.armies is armies
            and s.friendly is friendly
            and s.fleets is fleets
            and s.factory is factory
            and s.flag is flag
            and s.government is government
        )


class Changes:
    """The position after listed actions of its Maneuver that changed units in ``regions``
    only, from a position whose list is ``before`` (``after_move``): its list is ``before``
    updated (``_after_changes``) when they changed neither fleets, nor convoys, nor which
    provinces guard the last factory, nor the rail network."""

    __slots__ = ("before", "regions")

    def __init__(self, before: ManeuverList, regions: tuple[int, ...]) -> None:
        self.before = before
        self.regions = regions


def after_move(s: GameState, move: Action) -> Changes | None:
    """What the position after the listed ``move`` knows from ``s``, the one before it (set
    by ``rules.engine.apply_listed``): the regions where the move changed units, for an army
    move without convoy, a battle, a declined battle and a status switch."""
    known = s.known
    regions: tuple[int, ...] = ()
    if type(known) is ManeuverList:
        before = known
    elif type(known) is Changes:
        before, regions = known.before, known.regions
    else:
        return None
    index = s.board.index
    if isinstance(move, MoveArmy):
        if move.convoy:
            return None
        return Changes(before, (*regions, index[move.origin], index[move.dest]))
    if isinstance(move, Fight | ChangeStatus):
        return Changes(before, (*regions, index[move.region]))
    if isinstance(move, NoFight):
        return Changes(before, regions)
    return None


def legal_maneuver(s: GameState) -> list[Action]:
    """Every legal action of the Maneuver in ``s``: the list ``s`` keeps, the one before it
    updated, or one built from nothing (kept with ``s`` either way). The list returned is the
    one kept: callers must not change it (``rules.engine.legal_actions`` hands out copies)."""
    known = s.known
    found = None
    if type(known) is ManeuverList:
        if known.fits(s):
            return known.actions
    elif type(known) is Changes:
        found = _after_changes(s, known)
    if found is None:
        found = _build(s)
    s.known = found
    return found.actions


def _build(s: GameState) -> ManeuverList:
    """The Maneuver list of ``s`` from nothing."""
    n = s.turn
    c = code(s, n)
    ctx: ManeuverContext = s.turn_ctx
    board = s.board
    ids = lookups(s).ids
    fleet_moves: list[Action] = []
    g = gates(s, n) if board.canals else NO_GATES
    if not ctx.armies_phase:
        moved = ctx.moved_fleets
        fleets = s.fleets[n]
        for r in where(fleets):
            if fleets[r] - moved.get(r, 0) > 0:
                if board.regions[r].kind == "sea":
                    targets = sorted(board.sea_neighbours[r])
                    if g:
                        targets = [t for t in targets if may_ask(s, ctx, g, r, _FLEET, (r, t))]
                else:
                    targets = [board.harbour_sea[r]]
                fleet_moves += [made(MoveFleet, c, ids[r], ids[t]) for t in targets]
    rail: Rail | None = None
    usable: frozenset[int] = frozenset()
    canals = route_pairs(g) if g else NO_CANALS
    occupied = occupation(s)
    protected = ProtectedProvinces(s, occupied)
    armies, statuses, moved_armies = s.armies[n], s.friendly[n], ctx.moved_armies
    segments: dict[int, Segment] = {}
    table: dict[int, ArmyMovesEntry] = {}
    for r in where(armies):
        # (``unmoved_armies``, inline: this loop runs for every army of every move list)
        friendly = statuses[r]
        hostile = armies[r] - friendly
        if moved_armies:
            friendly -= moved_armies.get((r, True), 0)
            hostile -= moved_armies.get((r, False), 0)
        if hostile + friendly <= 0:
            continue
        if rail is None:
            rail = rail_for(s, n, occupied)
            usable = convoy_seas(s, n, ctx)
            table = move_table(s, n, rail, usable, canals)
        moves: Sequence[Action] = army_moves(s, n, r, rail, usable, protected, canals, table)
        if g:
            moves = _may_cross(s, n, r, moves, g, ctx)
        segments[r] = (moves, _switches(s, n, r, hostile, friendly, protected))
    return ManeuverList(
        s,
        occupied,
        rail,
        usable,
        protected,
        fleet_moves,
        segments,
        fights_by_region(s, n),
        destroyable(s, n),
    )


def _may_cross(
    s: GameState, n: int, r: int, moves: Sequence[Action], g: Gates, ctx: ManeuverContext
) -> list[Action]:
    """The army moves from ``r`` that may ask at the canals on their way (Imperial 2030)."""
    index = s.board.index
    return [
        a
        for a in moves
        if not isinstance(a, MoveArmy)
        or not a.convoy
        or may_ask(s, ctx, g, r, ARMY, [index[x] for x in a.convoy])
    ]


def _switches(
    s: GameState, n: int, r: int, hostile: int, friendly: int, protected: ProtectedProvinces
) -> list[Action]:
    """The status changes of the armies at ``r`` that have not acted yet (``hostile`` and
    ``friendly`` of them)."""
    owner = s.board.owner[r]
    if not s.rules.status_change_without_moving or owner in (NO, n):
        return _NONE  # (not a foreign home)
    c = code(s, n)
    rid = lookups(s).ids[r]
    out: list[Action] = []
    if friendly > 0 and protected(owner) != r:
        out.append(made(ChangeStatus, c, rid, HOSTILE))
    if hostile > 0:
        out.append(made(ChangeStatus, c, rid, FRIENDLY))
    return out


_NONE: list[Action] = []  # (never changed)


def _after_changes(s: GameState, changes: Changes) -> ManeuverList | None:
    """The list of ``s`` from the list before ``changes``, or None when they changed more than
    the moves and status changes of the armies in their regions and the battles and factory
    destructions there: the fleets (fleet moves, convoy seas), the convoys used, a canal's
    gates (Imperial 2030), the rail network (the nation's own province occupied or freed), or
    a nation's protected province."""
    before = changes.before
    turn, was, _, _, fleets, factory, flag, government = before.tags
    ctx: ManeuverContext = s.turn_ctx
    if (
        s.board.canals
        or s.turn != turn
        or s.factory is not factory
        or s.flag is not flag
        or s.government is not government
        or s.fleets != fleets  # (a copy: the units are copied as one group)
        or ctx.convoy_used != was.convoy_used
        or ctx.moved_fleets != was.moved_fleets
    ):
        return None
    n = s.turn
    regions = sorted(set(changes.regions))
    occupied, protected = before.occupied, before.protected
    owners = s.board.owner
    flipped = [r for r in regions if owners[r] != NO and bool(occupied[r]) != s.occupied(r)]
    if flipped:
        if any(owners[r] == n for r in flipped):
            return None
        occupied = occupation(s)
        protected = ProtectedProvinces(s, occupied)
        if any(protected(m) != before.protected(m) for m in {owners[r] for r in flipped}):
            return None
    segments = dict(before.segments)
    armies, statuses, moved = s.armies[n], s.friendly[n], ctx.moved_armies
    for r in regions:
        friendly = statuses[r] - moved.get((r, True), 0)
        hostile = armies[r] - statuses[r] - moved.get((r, False), 0)
        part = segments.get(r)
        if hostile + friendly <= 0:
            segments.pop(r, None)
        elif part is None:
            return None  # (never: armies that have not acted do not appear)
        else:  # (its moves are the same: the same rail, convoy seas and protected provinces)
            segments[r] = (part[0], _switches(s, n, r, hostile, friendly, protected))
    fights = dict(before.fights)
    c = s.board.codes[n]
    ids = lookups(s).ids
    for r in regions:
        found = fights_at(s, n, r, c, ids)
        if found:
            fights[r] = found
        else:
            fights.pop(r, None)
    if flipped:  # (a last unoccupied factory may have changed)
        destroy = destroyable(s, n)
    else:
        destroy = [r for r in before.destroy if r not in regions]
        destroy += [r for r in regions if can_destroy(s, n, r)]
        destroy.sort()
    return ManeuverList(
        s,
        occupied,
        before.rail,
        before.usable,
        protected,
        before.fleet_moves if not ctx.armies_phase else [],
        segments,
        dict(sorted(fights.items())),
        destroy,
    )
