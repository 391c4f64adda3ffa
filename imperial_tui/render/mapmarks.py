"""What the map highlights for the decision at hand, from the legal actions only: the unit
being moved and every destination its legal moves name, the seas its convoys need, the rail
it can ride, the units still to move, the battle being decided, and in Imperial 2030 the unit
asking to cross a canal (from, to, its convoy) with the region that controls the canal. No
Textual import.
"""

from __future__ import annotations

from typing import Any

from imperial_tui.render.mapview import MapMarks
from rules import Action
from rules.canals import CanalRequest
from rules.decisions import Decision
from rules.maneuver import Rail

MOVES = ("move_army", "move_fleet")


def decision_region(game: Any) -> str | None:
    """The region a decision is about when no option names one: a canal's controlling
    region while it is asked (the map's window goes there), else None."""
    s = game.state
    aw = game.awaiting
    if aw is not None and aw.kind == Decision.CANAL and isinstance(s.ctx, CanalRequest):
        return s.board.id(s.board.canals[s.ctx.asking[0][0]].controller)
    return None


def unit_key(action: Action) -> str | None:
    """``move_army:vienna`` for a unit move (the decision list groups moves so), else None."""
    if action.kind in MOVES:
        return f"{action.kind}:{action.origin}"  # type: ignore[attr-defined]
    return None


def marks_for(
    game: Any,
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
            convoy=frozenset(getattr(move, "convoy", ())),
            canal=board.id(canal.controller),
        )
    if aw.kind != Decision.MANEUVER:
        return MapMarks(cursor=cursor)
    keys = {unit_key(a) for a in focus} - {None}
    if group is None and len(keys) == 1:
        group = next(iter(keys))
    if group is None or not group.startswith(MOVES):
        # no unit chosen: the units that can still move, and the regions of other options
        movable = frozenset(a.origin for a in actions if a.kind in MOVES)  # type: ignore[attr-defined]
        places = frozenset(
            r for a in focus if (r := getattr(a, "region", None)) and r in board.index
        )
        return MapMarks(cursor=cursor, movable=movable, destinations=places)
    moves = [a for a in actions if unit_key(a) == group]
    kind, _, origin = group.partition(":")
    # one move, or one destination's hostile and friendly variants (one line in the list)
    same_place = len({(getattr(a, "dest", None), getattr(a, "convoy", ())) for a in focus}) == 1
    chosen = focus[0] if focus and same_place and unit_key(focus[0]) == group else None
    by_land = {a.dest for a in moves if not getattr(a, "convoy", ())}  # type: ignore[attr-defined]
    dests = frozenset(a.dest for a in moves)  # type: ignore[attr-defined]
    if chosen is not None and getattr(chosen, "convoy", ()):
        seas = frozenset(chosen.convoy)  # type: ignore[attr-defined]
    else:
        seas = frozenset(sea for a in moves for sea in getattr(a, "convoy", ()))
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
        chosen=chosen.dest if chosen is not None else None,  # type: ignore[attr-defined]
        convoy=seas,
        rail=rail,
    )
