"""Rules of thumb for a Maneuver and its battles: what one unit move, one battle, one factory
destroyed is worth to the nation that maneuvers, and the battle choice. ``rules.bots.policy``
picks with these; the search player's plans and its reasons ("returns to free Vienna") come
from the same values, so a plan and its explanation never disagree.

Kept apart from the rest of the rules of thumb because these are the ones that read the board
region by region, and they are the hot spot of a playout.
"""

from __future__ import annotations

from rules.actions import (
    Action,
    ChangeStatus,
    DestroyFactory,
    Fight,
    MoveArmy,
    MoveFleet,
    NoFight,
)
from rules.bots.style import PLAIN, Style
from rules.state import NO, GameState


def nation_of(s: GameState, code: str) -> int:
    return s.board.codes.index(code)


def home_threats(s: GameState, n: int) -> dict[int, int]:
    """For each home province of ``n`` with a factory: foreign armies next to it or in it."""
    out = {}
    board = s.board
    for r in board.home[n]:
        if not s.factory[r]:
            continue
        near = foreign_armies_near(s, n, r)
        if near:
            out[r] = near
    return out


def foreign_armies_near(s: GameState, n: int, r: int) -> int:
    board = s.board
    count = 0
    for m in range(len(s.armies)):
        if m == n:
            continue
        arm = s.armies[m]
        count += arm[r] - s.friendly[m][r]
        for d in board.land_neighbours[r]:
            count += arm[d]
    return count


def _alone_after(s: GameState, n: int, d: int) -> bool:
    """Nobody else stands in ``d``."""
    return not any(s.armies[m][d] or s.fleets[m][d] for m in range(len(s.armies)) if m != n)


def move_value(
    s: GameState, n: int, a: Action, threat: dict[int, int], style: Style = PLAIN
) -> tuple[float, str]:
    """The value of one maneuver action for nation ``n`` (0 or less: not worth it)."""
    board = s.board
    if isinstance(a, MoveArmy | MoveFleet):
        o = board.index[a.origin]
        d = board.index[a.dest]
        reg = board.regions[d]
        v = 0.0
        why = ""
        mine_there = s.armies[n][d] + s.fleets[n][d]
        if reg.kind != "province":
            if _alone_after(s, n, d):
                if s.flag[d] != n and mine_there == 0:
                    v = 1.0 * style.expansion
                    why = f"plants a flag in {reg.name}"
                    if s.flag[d] != NO:
                        v += 0.6
                        why = f"takes {reg.name} from {s.board.codes[s.flag[d]]}"
                elif mine_there == 0 and _origin_is_home(s, n, o):
                    v = 0.15  # leaves home for the front
                    why = f"moves out to {reg.name}"
            else:
                others = sum(
                    s.armies[m][d] + s.fleets[m][d] for m in range(len(s.armies)) if m != n
                )
                if s.flag[d] != n and others <= mine_there:
                    v = 0.7 * style.aggression
                    why = f"contests {reg.name}"
        elif reg.nation == s.board.codes[n]:
            hostile = sum(s.armies[m][d] - s.friendly[m][d] for m in range(len(s.armies)) if m != n)
            if hostile > 0 and isinstance(a, MoveArmy):
                v = 2.0 + (1.0 if s.factory[d] else 0.0)
                why = f"returns to free {reg.name}"
        elif isinstance(a, MoveArmy) and a.status == "hostile":
            owner = board.owner[d]
            if s.government[owner] == s.government[n]:
                return 0.0, ""  # never occupy a nation of the same government
            if s.factory[d] and not s.occupied(d):
                v = 1.2 * style.aggression
                why = f"occupies {reg.name}: {s.board.codes[owner]} loses its factory's tax"
                if s.armies[n][d] - s.friendly[n][d] >= 2:
                    v += 0.8 * style.aggression
        freed = _occupation_to_lift(s, n, o)
        if freed and isinstance(a, MoveArmy):
            v = max(v, 0.0) + freed
            why = why or f"withdraws from {board.regions[o].name}"
        if v <= 0:
            return v, why
        # leaving: keep a guard where foreign armies are near a factory
        if o in threat and s.armies[n][o] <= 1 and isinstance(a, MoveArmy):
            v -= 1.2
        if (
            board.regions[o].kind != "province"
            and s.flag[o] == n
            and not _alone_after(s, n, o)
            and s.armies[n][o] + s.fleets[n][o] <= 1
        ):
            v -= 0.5
        if isinstance(a, MoveArmy) and a.convoy:
            v -= 0.05 * len(a.convoy)
        if board.canals:
            v *= canal_odds(s, n, a)
        return v, why
    if isinstance(a, Fight):
        return fight_value(s, n, a, style)
    if isinstance(a, DestroyFactory):
        r = board.index[a.region]
        return 1.6 * style.aggression, f"destroys the factory in {board.regions[r].name}"
    if isinstance(a, ChangeStatus):
        r = board.index[a.region]
        if a.status == "friendly" and _occupation_to_lift(s, n, r):
            return 1.4, f"lifts the occupation of {board.regions[r].name}"
        return 0.0, ""
    return 0.0, ""


CANAL_ODDS = 0.6  # how likely another player lets a unit through his canal


def canal_odds(s: GameState, n: int, a: MoveArmy | MoveFleet) -> float:
    """Imperial 2030: a move through a canal whose controller another player governs is
    worth less (the answer may be no); 1.0 for a free passage."""
    from rules.canals import crossed, gates

    board = s.board
    if isinstance(a, MoveFleet):
        seas = [board.index[a.origin], board.index[a.dest]]
    else:
        seas = [board.index[x] for x in a.convoy]
    for gate in crossed(gates(s, n), seas):
        if gate.asks != NO and s.government[gate.asks] != s.government[n]:
            return CANAL_ODDS
    return 1.0


def canal_answer(s: GameState, actions: list[Action]) -> tuple[Action, str]:
    """The controller's answer to a canal request: no when the unit could take one of its
    nation's flags or threaten its home provinces, or harm another nation its player
    governs; yes otherwise (it costs nothing and keeps the table friendly)."""
    from rules.actions import CanalPassage

    allow = next(a for a in actions if isinstance(a, CanalPassage) and a.allow)
    refuse = next(a for a in actions if isinstance(a, CanalPassage) and not a.allow)
    me = s.awaiting_player
    ctx = s.ctx
    move = ctx.move
    board = s.board
    n = s.turn
    if s.government[n] == me:
        return allow, "lets its own other nation through"
    d = board.index[move.dest]
    mine = [m for m, g in enumerate(s.government) if g == me]
    near = {d, *board.land_neighbours[d], *board.sea_neighbours[d]}
    for m in mine:
        if s.flag[d] == m or board.owner[d] == m:
            return refuse, f"refuses: the unit would head for {board.regions[d].name}"
        if any(board.owner[r] == m for r in near):
            return refuse, f"refuses: the unit would come next to {board.nations[m].name}"
    return allow, "lets it through: the crossing does not hurt its nations"


def _occupation_to_lift(s: GameState, n: int, r: int) -> float:
    """Leaving (or turning friendly in) ``r`` frees a factory of a nation with the same
    government as ``n``: occupying one's own other nation only costs taxes."""
    owner = s.board.owner[r]
    if owner in (NO, n) or not s.factory[r]:
        return 0.0
    if s.government[owner] != s.government[n] or s.government[n] == NO:
        return 0.0
    if s.armies[n][r] - s.friendly[n][r] <= 0:
        return 0.0
    others = sum(
        s.armies[m][r] - s.friendly[m][r] for m in range(len(s.armies)) if m not in (n, owner)
    )
    return 1.5 if others == 0 and s.armies[n][r] - s.friendly[n][r] == 1 else 0.4


def _origin_is_home(s: GameState, n: int, o: int) -> bool:
    return s.board.owner[o] == n or (s.board.regions[o].kind != "sea" and s.fleets[n][o] > 0)


def fight_value(s: GameState, n: int, a: Fight, style: Style = PLAIN) -> tuple[float, str]:
    """A battle removes one unit of each side: it pays when it frees one of ``n``'s home
    provinces or leaves the region to ``n`` alone (its flag)."""
    board = s.board
    r = board.index[a.region]
    m = nation_of(s, a.nation)
    t = nation_of(s, a.target)
    me, them = (m, t) if m == n else (t, m)
    reg = board.regions[r]
    mine = s.armies[me][r] + s.fleets[me][r]
    theirs = s.armies[them][r] + s.fleets[them][r]
    if reg.kind == "province" and board.owner[r] == me:
        hostile = s.armies[them][r] - s.friendly[them][r]
        if hostile > 0:
            return 2.5 + (1.0 if s.factory[r] else 0.0), f"fights to free {reg.name}"
        return 0.0, ""
    if reg.kind == "province" and board.owner[r] == them:
        return 0.0, ""
    others = [
        q
        for q in range(len(s.armies))
        if q not in (me, them) and (s.armies[q][r] or s.fleets[q][r])
    ]
    if mine > 1 and theirs == 1 and not others:
        v = (1.2 if s.flag[r] != me else 0.6) * style.aggression
        return v, f"fights in {reg.name}: {s.board.codes[me]} holds it alone afterwards"
    return 0.0, ""


def battle_choice(s: GameState, actions: list[Action], style: Style = PLAIN) -> tuple:
    """When a battle is offered: fight where it pays, else decline."""
    n = s.awaiting_nation
    best, best_v, why = None, 0.3, ""
    for a in actions:
        if not isinstance(a, Fight):
            continue
        v, w = fight_value(s, n, a, style)
        if v > best_v:
            best, best_v, why = a, v, w
    if best is None:
        decline = next(a for a in actions if isinstance(a, NoFight))
        return decline, "does not fight: the battle would gain nothing"
    return best, why
