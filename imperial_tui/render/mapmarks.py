"""What the map highlights for the decision at hand, from the legal actions only: the unit
being moved and every destination its legal moves name, the seas its convoys need, the rail
it can ride, the units still to move, the battle being decided, and in Imperial 2030 the unit
asking to cross a canal (from, to, its convoy) with the region that controls the canal. No
Textual import.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Action, Game
from rules.actions import MoveArmy, MoveFleet
from rules.canals import CanalRequest
from rules.decisions import Decision
from rules.maneuver import Rail

MOVES = ("move_army", "move_fleet")
UnitMove = MoveArmy | MoveFleet


@dataclass(frozen=True)
class MapMarks:
    """What to highlight. Region ids throughout; empty means nothing highlighted.

    ``origin`` is the unit being moved, ``destinations`` where it may go (from the legal
    actions), ``chosen`` the destination of the option under the decision list's highlight,
    ``convoy_destinations`` those it reaches only by convoy, ``convoy`` the seas its convoys
    (or the highlighted move) need, ``rail`` the provinces the army can ride
    its rail through, ``movable`` the regions holding units that can still move, ``battle``
    the region of a battle being decided, ``canal`` the region whose flag controls the canal
    a unit asks to cross (Imperial 2030's canal decision)."""

    cursor: str | None = None
    origin: str | None = None
    destinations: frozenset[str] = frozenset()
    convoy_destinations: frozenset[str] = frozenset()
    chosen: str | None = None
    convoy: frozenset[str] = frozenset()
    rail: frozenset[str] = frozenset()
    movable: frozenset[str] = frozenset()
    battle: str | None = None
    canal: str | None = None

    def mark_of(self, rid: str) -> str | None:
        """The strongest highlight of a region (one per region)."""
        if rid == self.battle:
            return "battle"
        if rid == self.origin:
            return "origin"
        if rid == self.chosen:
            return "chosen"
        if rid == self.canal:
            return "canal"
        if rid in self.convoy_destinations:
            return "convoy_destination"
        if rid in self.destinations:
            return "destination"
        if rid in self.convoy:
            return "convoy"
        if rid in self.rail:
            return "rail"
        if rid in self.movable:
            return "movable"
        return None


DESTINATION_MARKS = frozenset({"destination", "convoy_destination", "chosen"})


def decision_region(game: Game) -> str | None:
    """The region a decision is about when no option names one: a canal's controlling
    region while it is asked (the map's window goes there), else None."""
    s = game.state
    aw = game.awaiting
    if aw is not None and aw.kind == Decision.CANAL and isinstance(s.ctx, CanalRequest):
        return s.board.id(s.board.canals[s.ctx.asking[0][0]].controller)
    return None


def unit_key(action: Action) -> str | None:
    """``move_army:vienna`` for a unit move (the decision list groups moves so), else None."""
    if isinstance(action, UnitMove):
        return f"{action.kind}:{action.origin}"
    return None


def convoy_of(action: Action) -> tuple[str, ...]:
    """The seas whose fleets carry an army's move (none for any other action)."""
    return action.convoy if isinstance(action, MoveArmy) else ()


def marks_for(
    game: Game,
    actions: list[Action],
    group: str | None,
    focus: list[Action],
    cursor: str | None = None,
) -> MapMarks:
    """Highlights for ``game``'s decision. ``actions`` are its legal actions, ``group`` the
    unit whose moves are listed (``move_army:vienna``) or None, ``focus`` the actions under
    the decision list's highlight (a unit's moves, or one action)."""
    aw = game.awaiting
    s = game.state
    board = s.board
    if aw is None:
        return MapMarks(cursor=cursor)
    if aw.kind == Decision.BATTLE:
        region = getattr(s.ctx, "region", None)
        return MapMarks(cursor=cursor, battle=board.id(region) if region is not None else None)
    if aw.kind == Decision.CANAL and isinstance(s.ctx, CanalRequest):
        move = s.ctx.move
        canal = board.canals[s.ctx.asking[0][0]]
        return MapMarks(
            cursor=cursor,
            origin=move.origin,
            chosen=move.dest,
            convoy=frozenset(convoy_of(move)),
            canal=board.id(canal.controller),
        )
    if aw.kind != Decision.MANEUVER:
        return MapMarks(cursor=cursor)
    keys = {key for a in focus if (key := unit_key(a)) is not None}
    if group is None and len(keys) == 1:
        group = next(iter(keys))
    if group is None or not group.startswith(MOVES):
        # no unit chosen: the units that can still move, and the regions of other options
        movable = frozenset(a.origin for a in actions if isinstance(a, UnitMove))
        places = frozenset(
            r for a in focus if (r := getattr(a, "region", None)) and r in board.index
        )
        return MapMarks(cursor=cursor, movable=movable, destinations=places)
    moves = [a for a in actions if isinstance(a, UnitMove) and unit_key(a) == group]
    kind, _, origin = group.partition(":")
    # one move, or one destination's hostile and friendly variants (one line in the list)
    where = {(a.dest if isinstance(a, UnitMove) else None, convoy_of(a)) for a in focus}
    first = focus[0] if focus and len(where) == 1 else None
    chosen = first if isinstance(first, UnitMove) and unit_key(first) == group else None
    by_land = {a.dest for a in moves if not convoy_of(a)}
    dests = frozenset(a.dest for a in moves)
    if chosen is not None and convoy_of(chosen):
        seas = frozenset(convoy_of(chosen))
    else:
        seas = frozenset(sea for a in moves for sea in convoy_of(a))
    rail: frozenset[str] = frozenset()
    if kind == "move_army" and origin in board.index:
        n = board.nation_index(aw.nation) if aw.nation else s.turn  # the board's nations
        here = board.index[origin]
        rail = frozenset(board.id(r) for r in Rail(s, n).start(here) if r != here)
    return MapMarks(
        cursor=cursor,
        origin=origin,
        destinations=dests,
        convoy_destinations=dests - by_land,
        chosen=chosen.dest if chosen is not None else None,
        convoy=seas,
        rail=rail,
    )
