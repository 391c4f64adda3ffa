"""Maneuver move generation: every legal fleet move, army move (with its convoys and its
hostile/friendly status), status change, battle and factory destruction in the current position
(``rules.maneuver_list`` puts them together into the list, and keeps it for the next one).

Applying a move lives in ``rules.maneuver`` (a battle in ``rules.battles``); they read the
same geometry (``rules.geometry``), so ``legal_actions()`` lists exactly what ``apply`` accepts.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from rules.actions import (
    Fight,
    MoveArmy,
    NoFight,
    made,
)
from rules.canals import FLEET as _FLEET
from rules.canals import Gates, Refusals, barrier, crossed
from rules.common import code
from rules.geometry import (
    NO_CANALS,
    ArmyMovesEntry,
    Rail,
    SeaPairs,
    destinations_with,
    is_foreign_home,
    lookups,
    protected_province,
)
from rules.state import NO, GameState

ARMY, FLEET = "army", "fleet"
HOSTILE, FRIENDLY = "hostile", "friendly"

K = TypeVar("K", bound=Hashable)


def bumped(d: dict[K, int], key: K, by: int) -> dict[K, int]:
    """``d`` with ``key``'s count changed by ``by`` (a count of 0 is left out): the
    Maneuver's counts of moved units are kept in new dicts, never changed in place, since an
    earlier position may share them (undo)."""
    out = dict(d)
    val = out.get(key, 0) + by
    if val:
        out[key] = val
    else:
        out.pop(key, None)
    return out


@dataclass(frozen=True, slots=True)
class ManeuverContext:
    """The active nation's Maneuver so far. Dicts are never changed in place (copies share
    them): ``moved_armies`` counts by (region, friendly?) the armies that already acted,
    ``moved_fleets`` by region, ``convoy_used`` fleets per sea that carried an army."""

    moved_armies: dict[tuple[int, bool], int] = field(default_factory=dict)
    moved_fleets: dict[int, int] = field(default_factory=dict)
    convoy_used: dict[int, int] = field(default_factory=dict)
    armies_phase: bool = False
    # Imperial 2030: units refused passage through a canal (``rules.canals``)
    canal_refused: Refusals = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BattleContext:
    """A battle chance after a unit of the active nation entered ``region`` (or switched
    status there). ``asking`` are the nations still to be asked, the current one first.
    ``unit``/``friendly`` describe the entering army or fleet; ``any_unit`` allows any units
    of both sides to fight (the until_declined option, after a first battle). ``switched``:
    no unit entered, an army already there turned hostile; without the rule option
    port_fleet_fights_present_army an army and a port fleet then do not fight (they fight only
    when the army enters, [HU1] FAQ)."""

    region: int
    unit: str
    friendly: bool
    asking: tuple[int, ...]
    any_unit: bool = False
    fought: bool = False
    switched: bool = False


def unmoved_armies(s: GameState, n: int, ctx: ManeuverContext, r: int) -> tuple[int, int]:
    """(hostile-or-statusless, friendly) armies at r that have not acted yet."""
    fr = s.friendly[n][r] - ctx.moved_armies.get((r, True), 0)
    other = s.armies[n][r] - s.friendly[n][r] - ctx.moved_armies.get((r, False), 0)
    return other, fr


def unmoved_fleets(s: GameState, n: int, ctx: ManeuverContext, r: int) -> int:
    return s.fleets[n][r] - ctx.moved_fleets.get(r, 0)


def may_ask(
    s: GameState, ctx: ManeuverContext, g: Gates, origin: int, unit: str, seas: Sequence[int]
) -> bool:
    """A move across these seas may be asked for: no closed canal on the way, and no
    refusal this Maneuver that stops this unit from asking again."""
    through = crossed(g, seas)
    if not through:
        return True
    if unit == _FLEET:
        units = unmoved_fleets(s, s.turn, ctx, origin)
    else:
        units = sum(unmoved_armies(s, s.turn, ctx, origin))
    return barrier(s, ctx.canal_refused, origin, unit, through, units) is None


class ProtectedProvinces:
    """Each nation's province that foreign armies may only enter as friendly, looked up once
    per position and only for the nations a move list actually meets. ``occupied``: the
    position's ``occupation``, when the caller has it."""

    __slots__ = ("_found", "_occupied", "_s")

    def __init__(self, s: GameState, occupied: bytes | None = None) -> None:
        self._s = s
        self._occupied = occupied
        self._found: dict[int, int] = {}

    def __call__(self, nation: int) -> int:
        found = self._found.get(nation)
        if found is None:
            found = self._found[nation] = protected_province(self._s, nation, self._occupied)
        return found


def army_moves(
    s: GameState,
    n: int,
    origin: int,
    rail: Rail,
    usable: frozenset[int],
    protected: ProtectedProvinces,
    canals: tuple[SeaPairs, SeaPairs] = NO_CANALS,
    table: dict[int, ArmyMovesEntry] | None = None,
) -> list[MoveArmy]:
    """Every move of one army at ``origin``, as listed (never changed: shared by the lists).

    The list depends only on the rail network, the seas that can carry, the canals that ask
    or are closed (``canals``, Imperial 2030), and the protected provinces of the nations it
    can enter, so it is cached on those: during a Maneuver most armies' moves do not change
    from one step to the next, and search asks again and again. ``table``: the cache's
    table for these (``move_table``), when the caller asks for several armies.
    """
    if table is None:
        table = move_table(s, n, rail, usable, canals)
    entry = table.get(origin)
    if entry is None:
        dests = destinations_with(s, n, origin, rail, usable, canals)
        owner_of = s.board.owner
        foreign = tuple(sorted({owner_of[d] for d in dests} - {NO, n}))
        entry = table[origin] = (dests, foreign, {})
    dests, foreign, variants = entry
    guarded = tuple([protected(m) for m in foreign]) if foreign else ()
    found = variants.get(guarded)
    if found is None:
        found = _build_army_moves(s, n, origin, dests, dict(zip(foreign, guarded, strict=True)))
        variants[guarded] = found
    return found


def move_table(
    s: GameState,
    n: int,
    rail: Rail,
    usable: frozenset[int],
    canals: tuple[SeaPairs, SeaPairs] = NO_CANALS,
) -> dict[int, ArmyMovesEntry]:
    """The cache of ``army_moves`` for nation ``n`` on this rail network, convoy seas and
    canals, by army origin (one look-up per move list, then one per army)."""
    look = lookups(s)
    key = (n, rail.key, usable, canals)
    table = look.army_moves.get(key)
    if table is None:
        if len(look.army_moves) >= MOVE_CACHE_SIZE:
            look.army_moves.clear()
        table = look.army_moves[key] = {}
    return table


MOVE_CACHE_SIZE = 1000  # tables (``move_table``), each of a few origins


def _build_army_moves(
    s: GameState,
    n: int,
    origin: int,
    dests: dict[int, list[tuple[int, ...]]],
    guarded: dict[int, int],
) -> list[MoveArmy]:
    c = code(s, n)
    ids = lookups(s).ids
    owners = s.board.owner
    rid = ids[origin]
    out: list[MoveArmy] = []
    for d, routes in dests.items():
        did = ids[d]
        statuses: tuple[str | None, ...] = (None,)
        owner = owners[d]
        if owner != NO and owner != n:
            statuses = (FRIENDLY,) if guarded[owner] == d else (HOSTILE, FRIENDLY)
        for route in routes:
            convoy = tuple(ids[x] for x in route) if route else ()
            for st in statuses:
                out.append(made(MoveArmy, c, rid, did, convoy, st))
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


_NONZERO = bytes([0] + [255] * 255)  # a count -> 0 or 255, for masks of whole arrays


def initiated_fights(s: GameState, n: int) -> list[Fight]:
    """Battles the active nation may start at any time with units already in a region."""
    out: list[Fight] = []
    for found in fights_by_region(s, n).values():
        out += found
    return out


def fights_by_region(s: GameState, n: int) -> dict[int, list[Fight]]:
    """``initiated_fights`` by region, in region order (only the regions with any)."""
    armies, fleets = s.armies, s.fleets
    size = len(s.board.regions)
    every_army, every_fleet = b"".join(armies), b"".join(fleets)
    if len(every_army) == len(every_fleet) == size * len(armies):
        # where each nation has units, as one number (byte r of nation k's block is 255
        # where it has a unit in region r): most positions share no region with another
        # nation, and end here
        present = int.from_bytes(every_army.translate(_NONZERO), "little") | int.from_bytes(
            every_fleet.translate(_NONZERO), "little"
        )
        bits = 8 * size
        block = (1 << bits) - 1
        others = 0
        for m in range(len(armies)):
            if m != n:
                others |= present >> (bits * m) & block
        shared = present >> (bits * n) & block & others
        if not shared:
            return {}
        regions = [r for r, both in enumerate(shared.to_bytes(size, "little")) if both]
    else:  # (arrays of another shape)
        regions = list(range(size))
    out = {}
    ids = lookups(s).ids
    c = code(s, n)
    for r in regions:
        found = fights_at(s, n, r, c, ids)
        if found:
            out[r] = found
    return out


def fights_at(s: GameState, n: int, r: int, c: str, ids: tuple[str, ...]) -> list[Fight]:
    """The battles nation ``n`` (code ``c``) may start in region ``r``."""
    armies, fleets = s.armies, s.fleets
    if not (armies[n][r] or fleets[n][r]):
        return []
    out = []
    for m in range(len(armies)):
        if m == n or not (armies[m][r] or fleets[m][r]):
            continue
        for mine, theirs in fight_kinds(s, r, n, m):
            if mine != theirs and not s.rules.port_fleet_fights_present_army:
                continue  # army against port fleet only when the army enters
            out.append(made(Fight, c, ids[r], mine, s.board.codes[m], theirs))
    return out


def turn_order_after(s: GameState, n: int) -> tuple[int, ...]:
    """The other nations in turn order after ``n``."""
    return _AFTER[len(s.armies)][n]


# turn_order_after by the number of nations and the nation
_AFTER = tuple(tuple(tuple((n + i) % k for i in range(1, k)) for n in range(k)) for k in range(9))


def battle_options(s: GameState, ctx: BattleContext, m: int) -> list[Fight]:
    n = s.turn
    r = ctx.region
    rid = s.board.id(r)
    # after a status switch nothing entered: an army and a port fleet fight only under the
    # rule option (the same rule as for an army already present, ``initiated_fights``)
    mixed = not ctx.switched or s.rules.port_fleet_fights_present_army
    out = []
    if m == n:
        for t in turn_order_after(s, n):
            for mine, theirs in fight_kinds(s, r, n, t):
                if (ctx.any_unit or mine == ctx.unit) and (mixed or mine == theirs):
                    out.append(made(Fight, code(s, n), rid, mine, code(s, t), theirs))
        return out
    for mine, theirs in fight_kinds(s, r, m, n):
        if (ctx.any_unit or theirs == ctx.unit) and (mixed or mine == theirs):
            out.append(made(Fight, code(s, m), rid, mine, code(s, n), theirs))
    return out


def with_asking(ctx: BattleContext, asking: tuple[int, ...]) -> BattleContext:
    return BattleContext(
        ctx.region, ctx.unit, ctx.friendly, asking, ctx.any_unit, ctx.fought, ctx.switched
    )


def legal_battle(s: GameState) -> list[Fight | NoFight]:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    return [*battle_options(s, ctx, m), made(NoFight, code(s, m))]


# ------------------------------------------------------------------------------- destruction


def destroyable(s: GameState, n: int) -> list[int]:
    armies = s.armies[n]
    if not armies or max(armies) < 3:  # (the usual case: no three armies anywhere)
        return []
    return [r for r, count in enumerate(armies) if count >= 3 and can_destroy(s, n, r)]


def can_destroy(s: GameState, n: int, r: int) -> bool:
    """Nation ``n`` may destroy the factory in ``r`` now."""
    count = s.armies[n][r]
    if count < 3 or not s.factory[r] or not is_foreign_home(s, n, r):
        return False
    need = count - (s.friendly[n][r] if s.rules.destroy_requires_hostile else 0)
    if need < 3:
        return False
    owner = s.board.owner[r]
    if s.armies[owner][r] or s.fleets[owner][r]:
        return False
    return last_unoccupied_factory(s, owner) != r


def last_unoccupied_factory(s: GameState, m: int) -> int:
    free = [r for r in s.factories_of(m) if not s.occupied(r)]
    return free[0] if len(free) == 1 else NO
