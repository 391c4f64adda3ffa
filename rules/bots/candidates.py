"""What the search player considers for a decision (``rules.bots.search``): the candidates,
each with the position it leads to and a quick prior that orders them before any future is
played (so that a search cut short plays the prior's favourite, greedy's choice in effect).

* a rondel space: every legal space, but not one whose turn would change nothing (a
  Maneuver without units, a Factory without the money) while another space does something;
* a bond: the best few by the quick estimate, and passing;
* a Maneuver: complete plans, by the rules of thumb with different tendencies or, for the
  strong level, one plan per aim (``rules.bots.plans``), and ending at once;
* anything else (a battle, a factory site, a Swiss bank): every legal action.

With ``SearchSettings.use_turn`` a space chosen on the rondel is used: after the Factory
space a factory is built where one can be, and a Maneuver moves where a move is worth
something, instead of the search talking itself out of the action it chose the space for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from rules import engine
from rules.actions import Action, BuildFactory, Buy, EndManeuver, Pass
from rules.bots.evaluation import Weights, utility, values
from rules.bots.greedy import IDLE_TURN, changes_anything, finish_turn
from rules.bots.plans import AIMS, aimed_plans
from rules.bots.policy import Policy
from rules.bots.settings import SearchSettings
from rules.bots.style import PLAIN, Style
from rules.state import GameState


@dataclass(slots=True)
class Candidate:
    action: Action
    plan: list[Action]  # the whole plan (maneuvers, with the others' answers); [action] otherwise
    state: GameState  # the position after the plan
    values: dict[int, float] = field(default_factory=dict)  # seed index -> value
    prior: float = 0.0  # a quick estimate, to order the candidates before any future
    aim: str = ""  # what a Maneuver plan aims at (``rules.bots.plans``)

    @property
    def runs(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values.values()) / len(self.values) if self.values else float("-inf")

    @property
    def moves(self) -> int:
        """The nation's own moves in a Maneuver plan."""
        if not self.plan:
            return 0
        nation = self.plan[0].actor
        return sum(1 for a in self.plan if a.actor == nation and not isinstance(a, EndManeuver))


def candidates(
    s: GameState,
    kind: str,
    actions: list[Action],
    settings: SearchSettings,
    weights: Weights,
    policy: Policy,
    style: Style,
    rng: random.Random,
) -> list[Candidate]:
    """The candidates of a decision, best first by the prior."""
    if kind == "maneuver":
        if settings.aimed_plans:
            out = aimed(s, actions, settings, weights, style, rng)
        else:
            out = styled(s, actions, settings, weights, style, rng)
        if settings.use_turn:
            out = used_maneuver(s, out)
        return out
    if kind in ("invest", "bond_choice"):
        scored = sorted(policy.invest_scores(s, actions), key=lambda t: t[0], reverse=True)
        keep: list[Action] = [a for _, a in scored if isinstance(a, Buy)]
        keep = keep[: settings.candidates - 1]
        keep += [a for a in actions if isinstance(a, Pass)]
        actions = keep
    if kind == "build_factory" and settings.use_turn:
        builds: list[Action] = [a for a in actions if isinstance(a, BuildFactory) and a.region]
        actions = builds or actions  # chosen to build: build (the search picks the site)
    out = []
    idle = []
    me = s.awaiting_player
    quiet = Policy(random.Random(0), PLAIN)
    for a in actions:
        after, _ = engine.apply(s, a)
        c = Candidate(a, [a], after)
        if kind == "rondel":
            played = finish_turn(after, quiet)
            c.prior = utility(values(played, weights), me, weights)
            if not changes_anything(s, played):
                c.prior -= IDLE_TURN
                idle.append(c)
        else:
            c.prior = utility(values(after, weights), me, weights)
        out.append(c)
    if settings.prune_idle and idle and len(idle) < len(out):
        # a turn that only moves the marker (a Maneuver without units, a Factory without
        # the money) is a turn given away: not worth the futures it would cost to judge
        out = [c for c in out if c not in idle]
    out.sort(key=lambda c: c.prior, reverse=True)
    return out


def styled(
    s: GameState,
    actions: list[Action],
    settings: SearchSettings,
    weights: Weights,
    base: Style,
    rng: random.Random,
) -> list[Candidate]:
    """Complete Maneuvers by the rules of thumb with different tendencies (and ending at
    once); identical plans are kept once."""
    styles = [
        Style(base.aggression, base.expansion, base.thrift, 0.0),
        Style(base.aggression * 2.0, base.expansion, base.thrift, 0.0),
        Style(base.aggression * 0.3, base.expansion * 1.3, base.thrift, 0.0),
    ]
    rng = random.Random(rng.random())
    while len(styles) < settings.plans - 1:
        styles.append(
            Style(
                base.aggression * rng.uniform(0.3, 2.5),
                base.expansion * rng.uniform(0.6, 1.6),
                base.thrift,
                0.8,
            )
        )
    seen: dict[tuple[str, ...], Candidate] = {}
    end = next((a for a in actions if isinstance(a, EndManeuver)), None)
    if end is not None:
        after, _ = engine.apply(s, end)
        seen[(str(end),)] = Candidate(end, [end], after)
    n = s.turn
    for style in styles:
        policy = Policy(random.Random(rng.random()), style)
        plan: list[Action] = []
        t = s
        while not t.finished and t.awaiting_kind == "maneuver" and t.turn == n:
            legal = engine.legal_actions(t)
            a, _ = policy.pick(t, legal)
            plan.append(a)
            t, _ = engine.apply(t, a)
            if isinstance(a, EndManeuver) or len(plan) > 60:
                break
        key = tuple(str(a) for a in plan)
        if plan and key not in seen:
            seen[key] = Candidate(plan[0], plan, t)
    return _ordered(s, list(seen.values()), weights)


def aimed(
    s: GameState,
    actions: list[Action],
    settings: SearchSettings,
    weights: Weights,
    base: Style,
    rng: random.Random,
) -> list[Candidate]:
    """One plan per aim (``rules.bots.plans``), some with randomness up to ``plans``, and
    ending at once; identical plans are kept once."""
    rng = random.Random(rng.random())
    plans = aimed_plans(s, rng, base, extra=max(0, settings.plans - len(AIMS) - 2))
    seen: dict[tuple[str, ...], Candidate] = {}
    end = next((a for a in actions if isinstance(a, EndManeuver)), None)
    if end is not None:
        after, _ = engine.apply(s, end)
        seen[(str(end),)] = Candidate(end, [end], after, aim="end")
    for plan in plans:
        key = tuple(map(str, plan.actions))
        if plan.actions and key not in seen:
            seen[key] = Candidate(plan.actions[0], plan.actions, plan.state, aim=plan.aim)
    return _ordered(s, list(seen.values()), weights)


def _ordered(s: GameState, out: list[Candidate], weights: Weights) -> list[Candidate]:
    me = s.awaiting_player
    for c in out:
        c.prior = utility(values(c.state, weights), me, weights)
    out.sort(key=lambda c: c.prior, reverse=True)
    return out


def used_maneuver(s: GameState, out: list[Candidate]) -> list[Candidate]:
    """Drop the plans that move nothing while another plan moves (a Maneuver chosen on the
    rondel and then not used wastes the turn, which a person notices at once); the search
    still weighs every plan that moves."""
    moving = [c for c in out if c.moves > 0]
    return moving or out
