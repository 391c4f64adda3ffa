"""Maneuver: all fleets move, then all armies (rail, one step or a convoy), battles right after
the moves that trigger them, factory destruction, and finally flags (tax markers).

Every unit move is one small decision; moving the first army closes the fleet phase. When a
unit enters a region with foreign units, the mover decides first whether it fights; if not,
the other nations present are asked in turn (``awaiting`` moves to their governments and back).
Units of one nation in one region are interchangeable, so the engine tracks only counts: how
many of the active nation's units in a region already moved, and how many fleets per sea
already carried an army this turn.

This module applies moves; the battles they lead to are ``rules.battles``. What is legal is
listed by ``rules.maneuver_list`` (out of the pieces of ``rules.maneuver_moves``), where units
can go is ``rules.geometry``, flags are ``rules.flags``; the names other modules use are
re-exported here (``Rail``, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from rules import canals
from rules.actions import (
    Action,
    CanalPassage,
    ChangeStatus,
    DestroyFactory,
    EndManeuver,
    Fight,
    MoveArmy,
    MoveFleet,
    NoFight,
)
from rules.battles import (
    apply_battle_fight,
    apply_initiated_fight,
    apply_no_fight,
    back_to_maneuver,
    entered,
    remove_active,
)
from rules.common import (
    DecisionRule,
    Events,
    await_decision,
    clear_await,
    code,
    nname,
    possessive,
    region_index,
    rname,
    say,
)
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.flags import after_departure, place_flags
from rules.geometry import (
    Rail,
    army_destinations,
    army_may_stand,
    check_convoy_path,
    convoy_capacity,
    is_foreign_home,
    land_destinations,
    last_factory_words,
    protected_province,
    rail_closure,
)
from rules.maneuver_list import legal_maneuver
from rules.maneuver_moves import (
    ARMY,
    FLEET,
    FRIENDLY,
    HOSTILE,
    BattleContext,
    ManeuverContext,
    battle_options,
    bumped,
    destroyable,
    fight_kinds,
    last_unoccupied_factory,
    legal_battle,
    unmoved_armies,
    unmoved_fleets,
)
from rules.state import MAP, UNITS, GameState

__all__ = [
    "ARMY",
    "DECISIONS",
    "FLEET",
    "FRIENDLY",
    "HOSTILE",
    "STEPS",
    "BattleContext",
    "ManeuverContext",
    "Rail",
    "army_destinations",
    "army_may_stand",
    "battle_options",
    "convoy_capacity",
    "fight_kinds",
    "is_foreign_home",
    "legal_battle",
    "legal_maneuver",
    "protected_province",
    "rail_closure",
]


# ------------------------------------------------------------------------------- the step


def step_maneuver(s: GameState, ev: Events) -> None:
    n = s.turn
    if s.units_of(n) == 0:
        say(ev, s, n, f"{nname(s, n)} has no units to maneuver")
        place_flags(s, n, ev)
        return
    s.turn_ctx = ManeuverContext()
    await_decision(s, Decision.MANEUVER, s.government[n], n)


# ------------------------------------------------------------------------------- canals


def _canal_gates(
    s: GameState, n: int, ctx: ManeuverContext, origin: int, unit: str, seas: list[int]
) -> list[canals.Gate]:
    """The canals a move across ``seas`` must ask at (Imperial 2030), in route order."""
    if unit == FLEET:
        units = unmoved_fleets(s, n, ctx, origin)
    else:
        units = sum(unmoved_armies(s, n, ctx, origin))
    return canals.check(s, n, ctx.canal_refused, origin, unit, seas, units)


def perform_move(s: GameState, move: MoveFleet | MoveArmy, ev: Events) -> None:
    """Make a move the canal controllers have let through."""
    if isinstance(move, MoveFleet):
        apply_move_fleet(s, move, ev, permitted=True)
    else:
        apply_move_army(s, move, ev, permitted=True)


def record_refusal(s: GameState, move: MoveFleet | MoveArmy, canal: int, asked: int) -> None:
    """A controller refused: the unit stays and, this Maneuver, may not ask again there."""
    ctx: ManeuverContext = s.turn_ctx
    unit = FLEET if isinstance(move, MoveFleet) else ARMY
    refused = canals.refused(ctx.canal_refused, s.board.index[move.origin], unit, canal, asked)
    s.turn_ctx = ManeuverContext(
        ctx.moved_armies, ctx.moved_fleets, ctx.convoy_used, ctx.armies_phase, refused
    )


# ------------------------------------------------------------------------------- fleets


def apply_move_fleet(s: GameState, a: MoveFleet, ev: Events, permitted: bool = False) -> None:
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
    if unmoved_fleets(s, n, ctx, o) == 0:
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
    refused = ctx.canal_refused
    if board.canals:  # Imperial 2030
        through = _canal_gates(s, n, ctx, o, FLEET, [o, d])
        if through and not permitted:
            canals.ask(s, n, a, through, ev)
            return
        refused = canals.after_departure(refused, o, FLEET, through)
    s.own(UNITS)
    s.fleets[n][o] -= 1
    s.fleets[n][d] += 1
    s.turn_ctx = ManeuverContext(
        ctx.moved_armies, bumped(ctx.moved_fleets, d, 1), ctx.convoy_used, False, refused
    )
    where = f"the {rname(s, o)}" if board.regions[o].kind == "sea" else rname(s, o)  # (a port)
    say(ev, s, n, f"{name} moves a fleet from {where} to the {rname(s, d)}")
    after_departure(s, o, ev)
    entered(s, n, d, FLEET, False, ev)


# ------------------------------------------------------------------------------- armies


def apply_move_army(
    s: GameState, a: MoveArmy, ev: Events, permitted: bool = False, listed: bool = False
) -> None:
    """Move one army; ``listed``: the engine listed this move for this position, so it is
    known to be legal (``_check_army_move`` would pass)."""
    n = s.turn
    ctx: ManeuverContext = s.turn_ctx
    name = nname(s, n)
    o = region_index(s, a.origin)
    d = region_index(s, a.dest)
    if s.armies[n][o] == 0:
        raise IllegalAction(f"{name} has no army in {rname(s, o)}")
    hostile_left, friendly_left = unmoved_armies(s, n, ctx, o)
    if hostile_left + friendly_left <= 0:
        raise IllegalAction(f"every {name} army in {rname(s, o)} has already moved this turn")
    path = tuple(region_index(s, x) for x in a.convoy) if a.convoy else ()
    refused = ctx.canal_refused
    through: list[canals.Gate] = []
    if s.board.canals and path:
        through = _canal_gates(s, n, ctx, o, ARMY, list(path))
    if not listed:
        _check_army_move(s, n, ctx, a, o, d, path)
    if through and not permitted:
        canals.ask(s, n, a, through, ev)
        return
    if refused:
        refused = canals.after_departure(refused, o, ARMY, through)
    friendly = a.status == FRIENDLY
    # leave: a friendly army leaves first, so hostile ones keep their occupation
    leave_friendly = friendly_left > 0 and is_foreign_home(s, n, o)
    s.own(UNITS)
    s.armies[n][o] -= 1
    if leave_friendly:
        s.friendly[n][o] -= 1
    s.armies[n][d] += 1
    if friendly:
        s.friendly[n][d] += 1
    used = ctx.convoy_used
    for sea in path:
        used = bumped(used, sea, 1)
    s.turn_ctx = ManeuverContext(
        bumped(ctx.moved_armies, (d, friendly), 1), ctx.moved_fleets, used, True, refused
    )
    route = ""
    if path:
        route = " by convoy across the " + ", the ".join(rname(s, x) for x in path)
    status = f" ({a.status})" if a.status else ""
    say(ev, s, n, f"{name} moves an army from {rname(s, o)} to {rname(s, d)}{route}{status}")
    after_departure(s, o, ev)
    entered(s, n, d, ARMY, friendly, ev)


def _check_army_move(
    s: GameState,
    n: int,
    ctx: ManeuverContext,
    a: MoveArmy,
    o: int,
    d: int,
    path: tuple[int, ...],
) -> None:
    """Refuse, with the reason, an army move that the move list does not hold (the convoy
    search runs only when the army names a convoy or cannot go by land)."""
    board = s.board
    if board.regions[d].kind == "sea":
        raise IllegalAction(f"armies never end at sea; {rname(s, d)} is a sea")
    if not army_may_stand(s, d):
        raise IllegalAction(
            f"armies cannot enter {rname(s, d)} (rule option armies_may_enter_dublin)"
        )
    if d == o:
        raise IllegalAction(
            "the army must end in another region (to switch its status, use "
            f"'{code(s, n)} make army {a.origin} hostile|friendly')"
        )
    path = tuple(region_index(s, x) for x in a.convoy)
    if path:
        dests = army_destinations(s, n, ctx, o)
        check_convoy_path(s, n, ctx, o, path, d)
        # Only fleets that are needed carry: a route that could do with fewer is refused, so
        # that apply accepts exactly what legal_actions lists.
        if dests.get(d) == [()]:
            raise IllegalAction(
                f"the army in {rname(s, o)} reaches {rname(s, d)} without a fleet; "
                "leave out the convoy"
            )
        if set(path) not in [set(route) for route in dests.get(d, [])]:
            if d not in dests:
                raise IllegalAction(
                    f"the army in {rname(s, o)} cannot reach {rname(s, d)} by this convoy"
                )
            shorter = ",".join(board.id(x) for x in dests[d][0])
            raise IllegalAction(f"fewer fleets can carry this army: 'convoy {shorter}'")
    elif d not in land_destinations(s, n, o, Rail(s, n)):
        # (the convoy search is needed only to word the refusal)
        dests = army_destinations(s, n, ctx, o)
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
    if is_foreign_home(s, n, d):
        owner = board.owner[d]
        if a.status is None:
            raise IllegalAction(
                f"{rname(s, d)} is a home province of {nname(s, owner)}: say "
                "whether the army enters 'hostile' or 'friendly'"
            )
        if a.status == HOSTILE and protected_province(s, owner) == d:
            raise IllegalAction(
                f"{rname(s, d)} holds {last_factory_words(s, owner)}: foreign armies may "
                "only enter it as friendly"
            )
    elif a.status is not None:
        raise IllegalAction(
            f"only armies entering another nation's home province are hostile "
            f"or friendly; {rname(s, d)} is not one"
        )


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
    hostile, friendly = unmoved_armies(s, n, ctx, r)
    to_friendly = a.status == FRIENDLY
    if (friendly if not to_friendly else hostile) <= 0:
        other = HOSTILE if to_friendly else FRIENDLY
        raise IllegalAction(
            f"{name} has no {other} army in {rname(s, r)} that has not acted this turn"
        )
    owner = s.board.owner[r]
    if not to_friendly and protected_province(s, owner) == r:
        raise IllegalAction(
            f"{rname(s, r)} holds {last_factory_words(s, owner)}: armies there can only be friendly"
        )
    s.own(UNITS)
    s.friendly[n][r] += 1 if to_friendly else -1
    s.turn_ctx = ManeuverContext(
        bumped(ctx.moved_armies, (r, to_friendly), 1),
        ctx.moved_fleets,
        ctx.convoy_used,
        True,
        ctx.canal_refused,
    )
    say(ev, s, n, f"{possessive(name)} army in {rname(s, r)} becomes {a.status}")
    if to_friendly:
        # Only a switch to hostile lets the other nations there demand a battle (RULES.md
        # §5.4.4 item 2 and the FAQ); the active nation may still attack at any time.
        back_to_maneuver(s)
        return
    entered(s, n, r, ARMY, False, ev, mover_asked=False)


# ------------------------------------------------------------------------------- destruction


def apply_destroy(s: GameState, a: DestroyFactory, ev: Events, listed: bool = False) -> None:
    n = s.turn
    r = region_index(s, a.region)
    name = nname(s, n)
    if not listed and r not in destroyable(s, n):
        if not s.factory[r]:
            raise IllegalAction(f"there is no factory in {rname(s, r)}")
        if not is_foreign_home(s, n, r):
            raise IllegalAction(f"{name} cannot destroy its own factory")
        owner = s.board.owner[r]
        if s.armies[owner][r] or s.fleets[owner][r]:
            raise IllegalAction(
                f"{nname(s, owner)} still has units in {rname(s, r)} defending the factory"
            )
        if last_unoccupied_factory(s, owner) == r:
            raise IllegalAction(
                f"the factory in {rname(s, r)} is {possessive(nname(s, owner))} last "
                "unoccupied factory and cannot be destroyed"
            )
        what = "hostile armies" if s.rules.destroy_requires_hostile else "armies"
        raise IllegalAction(f"{name} needs three {what} in {rname(s, r)} to destroy the factory")
    for _ in range(3):
        remove_active(s, n, r, ARMY, (ARMY, False))
    s.own(MAP)
    s.factory[r] = False
    say(
        ev,
        s,
        n,
        f"{name} destroys the {s.board.regions[r].factory_type} factory in "
        f"{rname(s, r)}; the factory and three {name} armies are removed",
    )
    back_to_maneuver(s)


# ------------------------------------------------------------------------------- the end


def apply_end_maneuver(s: GameState, a: EndManeuver, ev: Events) -> None:
    n = s.turn
    clear_await(s)
    s.turn_ctx = None
    say(ev, s, n, f"{nname(s, n)} ends its maneuver")
    place_flags(s, n, ev)


STEPS = {"maneuver": step_maneuver}
DECISIONS: dict[Decision, DecisionRule] = {
    Decision.MANEUVER: (
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
    Decision.BATTLE: (legal_battle, {Fight: apply_battle_fight, NoFight: apply_no_fight}),
    canals.CANAL: (canals.legal_canal, {CanalPassage: canals.apply_canal}),
}
# The Maneuver's handlers for a move the engine listed for the position (``rules.engine``):
# the move list already made their checks.
LISTED: dict[type[Action], Callable[..., None]] = {
    MoveArmy: partial(apply_move_army, listed=True),
    Fight: partial(apply_initiated_fight, listed=True),
    DestroyFactory: partial(apply_destroy, listed=True),
}
