"""Battles of the Maneuver: who is asked to fight after a unit enters a region (or an army
there turns hostile), what a battle removes, and the return to the moving nation's Maneuver.

A battle destroys one unit of each side (RULES.md §5.4.4). Units of one nation in one region
are interchangeable, so removing one keeps the Maneuver's counts right: the active nation loses
the unit that entered if it fights, else one that already acted, so its others stay mobile.
What battles are possible is listed by ``rules.maneuver_moves``; ``rules.maneuver`` applies
the moves that lead here.
"""

from __future__ import annotations

from rules.actions import Fight, NoFight
from rules.common import (
    Events,
    await_decision,
    clear_await,
    nation_index,
    nname,
    region_index,
    rname,
    say,
)
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.flags import after_battle
from rules.maneuver_moves import (
    ARMY,
    FLEET,
    BattleContext,
    ManeuverContext,
    battle_options,
    bumped,
    initiated_fights,
    turn_order_after,
    with_asking,
)
from rules.state import NO, UNITS, GameState

__all__ = [
    "apply_battle_fight",
    "apply_initiated_fight",
    "apply_no_fight",
    "back_to_maneuver",
    "entered",
    "remove_active",
]


def back_to_maneuver(s: GameState) -> None:
    """The moving nation decides its next Maneuver step (a battle is over, or none began)."""
    n = s.turn
    await_decision(s, Decision.MANEUVER, s.government[n], n)


def entered(
    s: GameState, n: int, r: int, unit: str, friendly: bool, ev: Events, mover_asked: bool = True
) -> None:
    """A unit of the active nation arrived in (or switched status in) r: offer battles."""
    armies, fleets = s.armies, s.fleets
    others = [m for m in turn_order_after(s, n) if armies[m][r] or fleets[m][r]]
    if not others:
        back_to_maneuver(s)
        return
    asking = tuple(([n] if mover_asked else []) + [m for m in others if s.government[m] != NO])
    # the mover is not asked only after a status switch, when nothing entered
    ctx = BattleContext(r, unit, friendly, asking, switched=not mover_asked)
    _ask_next(s, ctx, ev)


def _ask_next(s: GameState, ctx: BattleContext, ev: Events) -> None:
    asking = ctx.asking
    while asking and not battle_options(s, with_asking(ctx, asking), asking[0]):
        asking = asking[1:]
    if not asking:
        back_to_maneuver(s)
        return
    m = asking[0]
    await_decision(s, Decision.BATTLE, s.government[m], m, with_asking(ctx, asking))


def apply_no_fight(s: GameState, a: NoFight, ev: Events) -> None:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    say(ev, s, m, f"{nname(s, m)} does not fight in {rname(s, ctx.region)}")
    clear_await(s)
    _ask_next(s, with_asking(ctx, ctx.asking[1:]), ev)


def apply_battle_fight(s: GameState, a: Fight, ev: Events, listed: bool = False) -> None:
    ctx: BattleContext = s.ctx
    m = ctx.asking[0]
    if not listed:
        if a.region != s.board.id(ctx.region):
            raise IllegalAction(f"the battle now is in {rname(s, ctx.region)}, not {a.region}")
        if a not in battle_options(s, ctx, m):
            raise IllegalAction(_why_no_fight(s, a, ctx))
    n = s.turn
    entering = None if ctx.any_unit else (ctx.unit, ctx.friendly)
    if m == n:
        remove_active(s, n, ctx.region, a.unit, entering)
        _remove_passive(s, nation_index(s, a.target), ctx.region, a.target_unit)
    else:
        _remove_passive(s, m, ctx.region, a.unit)
        remove_active(s, n, ctx.region, a.target_unit, entering)
    _say_battle(s, a, ev)
    clear_await(s)
    after_battle(s, ctx.region, ev)
    if s.rules.battle_sequence == "until_declined":
        others = [t for t in turn_order_after(s, n) if s.government[t] != NO]
        nxt = BattleContext(
            ctx.region, ctx.unit, ctx.friendly, (n, *others), True, True, ctx.switched
        )
        _ask_next(s, nxt, ev)
    else:
        back_to_maneuver(s)


def apply_initiated_fight(s: GameState, a: Fight, ev: Events, listed: bool = False) -> None:
    n = s.turn
    r = region_index(s, a.region)
    if not listed and a not in initiated_fights(s, n):
        raise IllegalAction(_why_no_fight(s, a, None))
    remove_active(s, n, r, a.unit, None)
    _remove_passive(s, nation_index(s, a.target), r, a.target_unit)
    _say_battle(s, a, ev)
    after_battle(s, r, ev)
    back_to_maneuver(s)


def _why_no_fight(s: GameState, a: Fight, ctx: BattleContext | None) -> str:
    try:
        r = region_index(s, a.region)
        m = nation_index(s, a.nation)
        t = nation_index(s, a.target)
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
    m = nation_index(s, a.nation)
    t = nation_index(s, a.target)
    say(
        ev,
        s,
        m,
        f"battle in {rname(s, region_index(s, a.region))}: one {a.unit} of {nname(s, m)} "
        f"and one {a.target_unit} of {nname(s, t)} are destroyed",
    )


def remove_active(
    s: GameState, n: int, r: int, unit: str, entering: tuple[str, bool] | None
) -> None:
    """Remove one unit of the active nation, keeping its moved/convoy bookkeeping right: the
    unit that entered if it fights, else one that already acted (keeps the others mobile). A
    fleet that already carried an army is lost before one that has not, so the fleets left
    in the sea can still carry."""
    ctx: ManeuverContext = s.turn_ctx
    if unit == FLEET:
        s.own(UNITS)
        s.fleets[n][r] -= 1
        fleets = ctx.moved_fleets
        if fleets.get(r, 0) > 0:
            fleets = bumped(fleets, r, -1)
        used = ctx.convoy_used
        if used.get(r, 0) > 0:
            used = bumped(used, r, -1)
        s.turn_ctx = ManeuverContext(
            ctx.moved_armies, fleets, used, ctx.armies_phase, ctx.canal_refused
        )
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
    s.own(UNITS)
    s.armies[n][r] -= 1
    if friendly:
        s.friendly[n][r] -= 1
    if was_moved:
        moved = bumped(moved, (r, friendly), -1)
    s.turn_ctx = ManeuverContext(
        moved, ctx.moved_fleets, ctx.convoy_used, ctx.armies_phase, ctx.canal_refused
    )


def _remove_passive(s: GameState, m: int, r: int, unit: str) -> None:
    """Remove one unit of a nation that is not moving: hostile armies before friendly ones."""
    if unit == FLEET:
        s.own(UNITS)
        s.fleets[m][r] -= 1
        return
    s.own(UNITS)
    s.armies[m][r] -= 1
    if s.friendly[m][r] > s.armies[m][r]:
        s.friendly[m][r] -= 1
