"""Maneuver plans that differ in what they aim at, for the search to play forward.

A person plans a Maneuver around a goal: spread flags into the neutral regions, strike at a
rival's factory (occupy it, so that its nation loses the tax, or destroy it with three
armies), take back regions a rival flagged, bring the armies home where a factory is
threatened, or carry an army by sea to another coast. Each ``Aim`` here makes one complete
plan of that kind: the rules of thumb's value of each move (``rules.bots.tactics``) plus a
bonus for the moves that serve the aim, including the moves that only bring a unit closer to
it for a later turn (staging). The plan runs through the battles its moves start, its own
battle choices by the aim and the other nations' answers (battles, and in Imperial 2030 a
canal's controller) as the rules of thumb predict them,
so the position after a plan is the position the playouts start from.

The search player (``rules.bots.search``) plays every plan forward with the same playouts
and keeps the one whose futures look best; a plan is then followed move by move only while
the game goes as the plan expected (an answer that differs makes it search again).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass

from rules import engine
from rules.actions import (
    Action,
    DestroyFactory,
    EndManeuver,
    Fight,
    MoveArmy,
    MoveFleet,
    NoFight,
)
from rules.bots.policy import Policy
from rules.bots.style import PLAIN, Style
from rules.bots.tactics import fight_value, home_threats, move_value
from rules.state import NO, GameState

INF = 99
APPROACH = 0.35  # a step closer to the aim's nearest target, for a unit with nothing better
LONGEST = 60  # actions a plan has at most


@dataclass(frozen=True, slots=True)
class Aim:
    """What a plan aims at, and how strongly: ``reach`` is the bonus for a move onto one of
    the aim's targets, ``approach`` for each step a unit comes closer to the nearest one."""

    name: str
    reach: float = 0.0
    approach: float = APPROACH
    fight: float = 0.0  # bonus for a battle on a target region
    style: Style = PLAIN


EXPAND = Aim("expand", reach=0.4, style=Style(aggression=0.5, expansion=1.4))
RAID = Aim("raid", reach=1.6, fight=1.0, style=Style(aggression=1.5))
RECLAIM = Aim("reclaim", reach=0.9, fight=0.8, style=Style(aggression=1.2))
DEFEND = Aim("defend", reach=1.6, approach=0.5, fight=1.0)
CONVOY = Aim("convoy", reach=0.8, approach=0.0)
STAGE = Aim("stage", reach=0.3, approach=0.6)
AIMS = (EXPAND, RAID, RECLAIM, DEFEND, CONVOY, STAGE)


@dataclass(slots=True)
class Plan:
    """A complete Maneuver: ``actions`` in order (the nation's own and, between them, the
    other nations' predicted battle answers), the position after it, and what it aimed at."""

    aim: str
    actions: list[Action]
    state: GameState

    @property
    def own(self) -> list[Action]:
        nation = self.actions[0].actor if self.actions else ""
        return [a for a in self.actions if a.actor == nation]


# ------------------------------------------------------------------------------ targets


def targets(s: GameState, n: int, aim: str) -> frozenset[int]:
    """The regions an aim goes for, for nation ``n``."""
    board = s.board
    gov = s.government[n]
    out: set[int] = set()
    if aim in ("expand", "convoy", "stage"):
        for r, reg in enumerate(board.regions):
            if reg.kind == "province" or s.flag[r] == n:
                continue
            if s.flag[r] != NO and gov != NO and s.government[s.flag[r]] == gov:
                continue  # a nation of the same government keeps its flag
            out.add(r)
    if aim in ("raid", "stage"):
        for r, owner in enumerate(board.owner):
            if owner in (NO, n) or not s.factory[r]:
                continue
            if gov != NO and s.government[owner] == gov:
                continue
            if s.armies[n][r] - s.friendly[n][r] > 0:
                continue  # occupied by us already
            out.add(r)
    if aim == "reclaim":
        for r, f in enumerate(s.flag):
            if f not in (NO, n) and (gov == NO or s.government[f] != gov):
                out.add(r)
    if aim == "defend":
        out |= set(home_threats(s, n))
        out |= {r for r in board.home[n] if s.occupied(r)}
    return frozenset(out)


_DIST: dict[tuple[object, ...], dict[int, int]] = {}


def distances(s: GameState, n: int, goal: frozenset[int], fleets: bool) -> dict[int, int]:
    """Steps from each region to the nearest of ``goal``: armies over land (rail in ``n``'s
    home provinces is free), fleets over the seas (a port counts one step from its sea)."""
    board = s.board
    key = (id(board), n, goal, fleets)
    found = _DIST.get(key)
    if found is not None:
        return found
    if len(_DIST) > 2000:
        _DIST.clear()
    dist: dict[int, int] = {}
    queue: deque[int] = deque()
    for r in goal:
        if fleets and board.regions[r].kind != "sea":
            continue
        dist[r] = 0
        queue.append(r)
    home = set(board.home[n])
    while queue:
        r = queue.popleft()
        d = dist[r]
        if fleets:
            nexts = [(x, 1) for x in board.sea_neighbours[r] if board.regions[x].kind == "sea"]
        else:
            nexts = [(x, 1) for x in board.land_neighbours[r]]
            if r in home:
                nexts += [(x, 0) for x in board.rail_links[r] if x in home]
        for x, w in nexts:
            if dist.get(x, INF) > d + w:
                dist[x] = d + w
                if w:
                    queue.append(x)
                else:
                    queue.appendleft(x)
    if fleets:
        for r, sea in enumerate(board.harbour_sea):
            if sea != NO and sea in dist:
                dist[r] = min(dist.get(r, INF), dist[sea] + 1)
    _DIST[key] = dist
    return dist


# ------------------------------------------------------------------------------ plans


class Planner:
    """Makes the plan of each aim for the nation maneuvering in ``s``."""

    def __init__(self, s: GameState, rng: random.Random, base: Style = PLAIN) -> None:
        self.root = s
        self.n = s.turn
        self.rng = rng
        self.base = base
        self.others = Policy(random.Random(0), PLAIN)  # the other nations' battle answers

    def useful(self, aim: Aim) -> bool:
        """Whether the aim has anything to go for."""
        return bool(targets(self.root, self.n, aim.name))

    def plan(self, aim: Aim, noise: float = 0.0) -> Plan:
        s = self.root
        n = self.n
        style = Style(
            self.base.aggression * aim.style.aggression,
            self.base.expansion * aim.style.expansion,
            self.base.thrift,
            noise,
        )
        goal = targets(s, n, aim.name)
        armies = distances(s, n, goal, fleets=False)
        fleets = distances(s, n, goal, fleets=True)
        actions: list[Action] = []
        t = s
        while not t.finished and t.turn == n and len(actions) < LONGEST:
            kind = t.awaiting_kind
            if kind == "maneuver":
                a = self._move(t, aim, style, goal, armies, fleets)
            elif kind == "battle" and t.awaiting_nation == n:
                a = self._battle(t, aim, style, goal)
            elif kind in ("battle", "canal"):  # the others' answers (a canal's controller)
                a, _ = self.others.pick(t, engine.legal_actions(t))
            else:
                break
            actions.append(a)
            t, _ = engine.apply(t, a)
            if isinstance(a, EndManeuver):
                break
        return Plan(aim.name, actions, t)

    def _move(
        self,
        t: GameState,
        aim: Aim,
        style: Style,
        goal: frozenset[int],
        armies: dict[int, int],
        fleets: dict[int, int],
    ) -> Action:
        n = self.n
        threat = home_threats(t, n)
        index = t.board.index
        best: Action | None = None
        best_v = 0.1  # a move must gain something; otherwise the plan ends
        for a in engine.legal_actions(t):
            v, _ = move_value(t, n, a, threat, style)
            if isinstance(a, MoveArmy | MoveFleet):
                dist = fleets if isinstance(a, MoveFleet) else armies
                v = self._aimed_move(t, a, v, aim, goal, dist, threat)
            elif isinstance(a, DestroyFactory) and aim.name == "raid":
                v += aim.reach
            elif isinstance(a, Fight) and aim.fight and index[a.region] in goal:
                v = max(v, 0.0) + aim.fight
            if v <= 0:
                continue
            if style.noise:
                v += self.rng.random() * style.noise * 0.3
            if v > best_v:
                best, best_v = a, v
        if best is None:
            return next(a for a in engine.legal_actions(t) if isinstance(a, EndManeuver))
        return best

    def _aimed_move(
        self,
        t: GameState,
        a: MoveArmy | MoveFleet,
        v: float,
        aim: Aim,
        goal: frozenset[int],
        dist: dict[int, int],
        threat: dict[int, int],
    ) -> float:
        """A move's value for the aim: the rules of thumb's ``v``, plus ``aim.reach`` for
        arriving on a target (a raid only by a hostile entry, a convoy only by sea), plus
        ``aim.approach`` a step for coming closer to one when the move is worth little
        else (staging for a later turn; never by leaving a threatened home unguarded)."""
        index = t.board.index
        o, d = index[a.origin], index[a.dest]
        if o in goal:
            return v
        if d in goal:
            hostile = isinstance(a, MoveArmy) and a.status == "hostile"
            by_sea = isinstance(a, MoveArmy) and bool(a.convoy)
            if (aim.name != "raid" or hostile) and (aim.name != "convoy" or by_sea) and v > -0.5:
                return max(v, 0.0) + aim.reach
        if not aim.approach or v >= 0.5:
            return v
        here, there = dist.get(o, INF), dist.get(d, INF)
        if there >= INF or there >= here:
            return v
        if o in threat and t.armies[self.n][o] <= 1 and isinstance(a, MoveArmy):
            return v
        return max(v, 0.0) + aim.approach * (here - there)

    def _battle(self, t: GameState, aim: Aim, style: Style, goal: frozenset[int]) -> Action:
        """The nation's own battle choice in a plan: the rules of thumb's, or for an aim on
        its target region, a fight wherever one is offered there."""
        legal = engine.legal_actions(t)
        best: Action | None = None
        best_v = 0.3
        for a in legal:
            if not isinstance(a, Fight):
                continue
            v, _ = fight_value(t, self.n, a, style)
            if aim.fight and t.board.index[a.region] in goal:
                v += aim.fight
            if v > best_v:
                best, best_v = a, v
        if best is None:
            return next(a for a in legal if isinstance(a, NoFight))
        return best


def aimed_plans(
    s: GameState, rng: random.Random, base: Style = PLAIN, extra: int = 0
) -> list[Plan]:
    """One plan per aim that has something to go for, the rules of thumb's own plan, and
    ``extra`` plans with some randomness; identical plans kept once."""
    planner = Planner(s, rng, base)
    out: dict[tuple[str, ...], Plan] = {}
    thumb = Aim("thumb", approach=0.0)
    for aim in (thumb, *AIMS):
        if aim is not thumb and not planner.useful(aim):
            continue
        plan = planner.plan(aim)
        out.setdefault(tuple(map(str, plan.actions)), plan)
    for _ in range(extra):
        aim = AIMS[rng.randrange(len(AIMS))]
        plan = planner.plan(aim, noise=0.8)
        out.setdefault(tuple(map(str, plan.actions)), plan)
    return list(out.values())
