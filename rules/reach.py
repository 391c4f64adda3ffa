"""What a player asks about one region: who can reach it in their next Maneuver, and which
rules apply there.

Reach comes from the engine's own move generation: for each nation, ``legal_maneuver`` on a
copy of the position as if that nation's Maneuver began now (fleets where they stand, armies
by rail, one step or a convoy with those fleets), so a hint and a real Maneuver never
disagree. The rules come from the engine's predicates (occupation, the last-factory rule,
factory sites, the Dublin rule option), in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.actions import MoveArmy, MoveFleet
from rules.economy import FACTORY_COST, factory_sites
from rules.maneuver import ManeuverContext, legal_maneuver, protected_province
from rules.state import NO, GameState

HOW_ORDER = {"step": 0, "sail": 0, "rail": 1, "convoy": 2}


@dataclass(frozen=True, slots=True)
class Reach:
    """Units of one nation in one region that can end their next move in the region asked
    about: ``how`` is ``step`` (a neighbouring region, maybe after rail), ``rail`` (by rail
    and a step), ``convoy`` (``convoy`` names the seas of the shortest route) or ``sail``
    (a fleet). ``friendly_only``: the last-factory rule lets them in only as friendly."""

    nation: str
    unit: str
    origin: str
    count: int
    how: str
    convoy: tuple[str, ...] = ()
    friendly_only: bool = False


def reach(s: GameState, region: int) -> list[Reach]:
    """Every nation's units that could end a move in ``region`` in its next Maneuver, in
    turn order, nearest first."""
    board = s.board
    rid = board.id(region)
    out: list[Reach] = []
    for n, code in enumerate(board.codes):
        if s.units_of(n) == 0:
            continue
        probe = s.copy()
        probe.turn = n
        probe.turn_ctx = ManeuverContext()
        found: dict[tuple[str, str], list[MoveArmy | MoveFleet]] = {}
        for a in legal_maneuver(probe):
            if isinstance(a, MoveArmy | MoveFleet) and a.dest == rid:
                found.setdefault((a.kind, a.origin), []).append(a)
        for (kind, origin), moves in found.items():
            o = board.index[origin]
            if kind == "move_fleet":
                out.append(Reach(code, "fleet", origin, s.fleets[n][o], "sail"))
                continue
            land = [m for m in moves if isinstance(m, MoveArmy) and not m.convoy]
            if land:
                how = "step" if region in board.land_neighbours[o] else "rail"
                route: tuple[str, ...] = ()
            else:
                how = "convoy"
                route = min((m.convoy for m in moves if isinstance(m, MoveArmy)), key=len)
            statuses = {m.status for m in moves if isinstance(m, MoveArmy)}
            out.append(
                Reach(
                    code,
                    "army",
                    origin,
                    s.armies[n][o],
                    how,
                    route,
                    friendly_only=statuses == {"friendly"},
                )
            )
    out.sort(key=lambda r: (board.codes.index(r.nation), HOW_ORDER[r.how], r.origin))
    return out


def occupiers(s: GameState, region: int) -> list[str]:
    """Nations with hostile armies in a home province (they occupy it)."""
    owner = s.board.owner[region]
    return [
        s.board.codes[n]
        for n in range(len(s.armies))
        if owner != NO and n != owner and s.hostile(n, region) > 0
    ]


def rules_here(s: GameState, region: int) -> list[str]:
    """The rules that apply in a region now, in plain words, from the engine's predicates."""
    board = s.board
    reg = board.regions[region]
    out: list[str] = []
    if reg.kind == "sea":
        out.append("A sea: fleets only; armies cross it by convoy, one fleet per sea.")
        ports = [r.name for r in board.regions if board.harbour_sea[r.index] == region]
        if ports:
            out.append(
                f"Harbour of {_words(ports)}: fleets built or imported there sail out into "
                "this sea first."
            )
    owner = board.owner[region]
    if owner != NO:
        code = board.codes[owner]
        name = board.nations[owner].name
        out.append(
            f"Home province of {name} ({code}): foreign armies here are hostile or friendly; "
            "hostile ones occupy it."
        )
        if not reg.rail:
            out.append(f"Not on {code}'s rail network (an island): no army comes by rail.")
            if not s.rules.armies_may_enter_dublin:
                out.append(
                    "Armies cannot enter it at all (rule option armies_may_enter_dublin is off)."
                )
        if reg.harbor:
            out.append(f"A port: its fleets sail out only into the {board[reg.harbor].name}.")
        taken = occupiers(s, region)
        if s.factory[region]:
            kind = "shipyard (fleets)" if reg.factory_type == "shipyard" else "armaments (armies)"
            out.append(f"Factory: {kind}.")
            if taken:
                out.append(
                    f"Occupied by hostile {_words(taken)} armies: the factory produces "
                    f"nothing and does not count in {code}'s tax; {code} cannot import here."
                )
            else:
                out.append(f"It produces in {code}'s Production and counts 2M in its tax.")
            if protected_province(s, owner) == region:
                which = (
                    "only factory"
                    if s.rules.last_factory_entry == "any_factory"
                    else "last unoccupied factory"
                )
                out.append(
                    f"{code}'s {which}: foreign armies may enter only as friendly, and it "
                    "cannot be destroyed."
                )
            else:
                what = "hostile armies" if s.rules.destroy_requires_hostile else "armies"
                out.append(
                    f"Three {what} of one nation may destroy it while no {code} unit is here."
                )
        else:
            if taken:
                out.append(
                    f"Occupied by hostile {_words(taken)} armies: {code} cannot build a "
                    "factory or import here."
                )
            if region in factory_sites(s, owner):
                what = "shipyard" if reg.factory_type == "shipyard" else "armaments factory"
                out.append(f"No factory yet: {code} may build a {what} here ({FACTORY_COST}M).")
    elif reg.kind == "land":
        out.append("Neutral land: the flag of a nation that alone holds it counts in its tax.")
    out += _canal_and_edge_rules(s, region)
    flag = s.flag[region]
    if reg.kind != "province":
        if flag != NO:
            code = board.codes[flag]
            out.append(f"{code}'s flag: +1M in {code}'s tax until another nation holds it alone.")
        else:
            out.append("No flag: a nation alone here at the end of its Maneuver places one.")
    return out


def _canal_and_edge_rules(s: GameState, region: int) -> list[str]:
    """Imperial 2030: the canal a region controls or lies on, and the borders across the
    edge of the world map."""
    board = s.board
    out: list[str] = []
    for canal in board.canals:
        a, b = canal.seas
        flag = s.flag[canal.controller]
        if flag == NO:
            now = "no flag stands there now: passage is free"
        else:
            code = board.codes[flag]
            gov = s.government[flag]
            who = f"{s.players[gov]} answers" if gov != NO else "it has no government"
            now = f"{code}'s flag stands there now ({who}); {code}'s own units pass freely"
        if region == canal.controller:
            out.append(
                f"Controls the {canal.name} ({board.regions[a].name} - "
                f"{board.regions[b].name}): the government of the nation whose flag stands "
                f"here is asked before other nations' fleets or convoys cross; {now}."
            )
        elif region in canal.seas:
            other = board.regions[b if region == a else a].name
            out.append(
                f"The {canal.name} joins it to the {other}: other nations' fleets and convoys "
                f"cross only with the permission of the nation whose flag stands in "
                f"{board.regions[canal.controller].name}; {now}."
            )
    rid = board.id(region)
    across = sorted(board[b if a == rid else a].name for a, b in board.wrap_edges if rid in (a, b))
    if across:
        seas = _words([f"the {name}" for name in across])
        out.append(f"Across the edge of the map it borders {seas} (the world wraps east-west).")
    return out


def _words(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
