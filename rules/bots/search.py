"""The search player: Monte Carlo look-ahead within a time budget.

For a decision that matters (a rondel space, a bond, a battle, a Swiss bank, a factory site,
a whole Maneuver) it lists candidates, plays each one forward many times with the quick rules
of thumb in every seat (``rules.bots.policy`` with a little randomness, so the futures differ)
to a horizon some nation turns ahead, and judges where each future ends with the evaluation
(``rules.bots.evaluation``): the player's projected worth against the best rival's. Candidates
share the same random futures (common random numbers), and the budget goes to the candidates
still in the race (successive halving), so most of the thinking is spent telling the best two
apart. A Maneuver is chosen as a whole plan: several complete plans by the rules of thumb
with different tendencies, each judged the same way, then played move by move.

The budget is a number of playouts with a time limit on top (``budget`` seconds): within the
playout count a seeded bot is reproducible; on a slow machine the time limit cuts the search
short instead of keeping the player waiting.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rules import engine
from rules.actions import (
    Action,
    BuildFactory,
    Buy,
    ChooseRondel,
    EndManeuver,
    Fight,
    Pass,
    SwissBankForce,
)
from rules.bots.base import Choice, SeededBot
from rules.bots.evaluation import DEFAULT, Weights, utility, values
from rules.bots.greedy import IDLE_TURN, changes_anything, finish_turn
from rules.bots.opponents import TableWatch
from rules.bots.playout import playout
from rules.bots.policy import Policy, buy_reason, overdue_taxation, rondel_reason
from rules.bots.style import PLAIN, Style
from rules.bots.tactics import battle_choice, home_threats, move_value
from rules.decisions import Decision
from rules.game import Game
from rules.machine import usable_cores
from rules.state import GameState

if TYPE_CHECKING:
    from rules.bots.parallel import PlayoutPool

# decisions searched; the others (production, imports, and the bond rounds of the experienced
# set-up, a phase the evaluation is not made for) follow the rules of thumb
SEARCHED = ("rondel", "invest", "battle", "swiss_bank", "build_factory", "maneuver")


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How hard a search level thinks."""

    budget: float = 1.0  # seconds a decision at most
    playouts: int = 150  # playouts a decision at most (reproducible below the time limit)
    horizon: int = 6  # nation turns played forward after the current one
    candidates: int = 8  # bonds considered (the best by a quick estimate, and passing)
    plans: int = 6  # Maneuver plans considered
    noise: float = 0.6  # randomness of the playouts' rules of thumb
    explore: float = 0.15  # how often a simulated greedy player takes the rules of thumb's choice
    jitter: float = 0.5  # random points added to a simulated greedy player's scores
    rollout: str = "greedy"  # "greedy": with greedy look-ahead; "quick": rules of thumb only
    processes: int = 1  # processes playing the playouts (the caller counts as one; 0: auto)
    prune_idle: int = 1  # drop rondel spaces whose turn changes nothing (if any other does)
    end_horizon: int = 0  # nation turns played forward near the end (0: ``horizon``)
    end_power: int = 18  # "near the end": the strongest nation has this many power points
    win_bonus: float = 0.0  # points for winning, added to a playout that reaches the end
    far_horizon: int = 0  # nation turns played forward while the table is predictable (0: off)
    predictable: float = 0.9  # share of the others' rondel choices greedy must have predicted
    watch_least: int = 8  # ... out of at least this many (``rules.bots.opponents``)
    far_exact: bool = False  # ... and then the playouts' other seats play greedy's exact moves
    exact_others: bool = False  # set for a decision by ``far_exact`` (``rules.bots.playout``)


# The playout counts are what these budgets allow on a small machine (about 4 and 6 ms a
# playout, the strong level on two cores), so a seeded bot usually replays exactly; the time
# limits keep a busy or slow machine from making the player wait. The strong level looks 10
# nation turns ahead while the table plays as greedy players do (``far_horizon``), and then
# plays the other seats of its playouts with greedy's exact choices (``far_exact``); 6 turns
# ahead with simulated players otherwise: docs/BOTS.md has the tournaments that chose this.
NORMAL = SearchSettings(budget=0.25, playouts=50, horizon=4, candidates=5, plans=3)
STRONG = SearchSettings(
    budget=1.0,
    playouts=200,
    horizon=6,
    candidates=8,
    plans=6,
    processes=0,
    far_horizon=10,
    watch_least=4,
    far_exact=True,
)
MOST_PROCESSES = 2  # what ``processes=0`` uses at most (1.5x the playouts measured on 2 cores)


def auto_processes() -> int:
    """Processes for ``processes=0``: the cores this process may use, at most two."""
    return min(MOST_PROCESSES, usable_cores())


@dataclass(slots=True)
class Candidate:
    action: Action
    plan: list[Action]  # the whole plan (maneuvers); [action] otherwise
    state: GameState  # the position after the plan
    values: dict[int, float] = field(default_factory=dict)  # seed index -> value
    prior: float = 0.0  # a quick estimate, to order the candidates before any future

    @property
    def runs(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return sum(self.values.values()) / len(self.values) if self.values else float("-inf")


def _common(alive: list[Candidate]) -> set[int]:
    keys = set(alive[0].values)
    for c in alive[1:]:
        keys &= c.values.keys()
    return keys


def _best(alive: list[Candidate]) -> Candidate:
    """The best mean over the futures every survivor has played (the prior's favourite when
    the time ran out before each had one)."""
    common = _common(alive)
    if not common:
        return max(alive, key=lambda c: c.prior)
    return max(alive, key=lambda c: sum(c.values[k] for k in common))


def _clearly_apart(a: Candidate, b: Candidate) -> bool:
    """The paired difference of two candidates on the same futures is far from zero."""
    common = _common([a, b])
    n = len(common)
    if n < 16:
        return False
    diffs = [a.values[k] - b.values[k] for k in common]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean * mean * n > 9.0 * var


# where a planned Maneuver stands: actions played, the nation, the decision, the turn's
# context, the armies (the plan's next action is played only in that position)
PlanKey = tuple[int, int, Decision | None, object, bytes]


class SearchBot(SeededBot):
    """Plays each candidate forward many times and keeps the one whose futures look best."""

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        hidden_cash: bool = False,
        settings: SearchSettings | None = None,
        weights: Weights = DEFAULT,
        style: Style = PLAIN,
    ) -> None:
        super().__init__(seed, hidden_cash)
        self.settings = settings or SearchSettings()
        self.budget = self.settings.budget
        self.weights = weights
        self.style = style
        self.policy = Policy(self.rng, style)
        self._plan: list[tuple[PlanKey, Action]] = []  # (position key, action) still to play
        self._pool: PlayoutPool | None = None  # worker processes (settings.processes > 1)
        self._alone = False  # closed, or the worker processes failed: play in this process
        self._watch = TableWatch()  # how predictable the others are (``far_horizon``)
        self._now = self.settings  # the settings of the decision under way (its horizon)

    # -- the decision ------------------------------------------------------------------------
    def decide(self, game: Game) -> Choice:
        actions = self.options(game)
        if len(actions) == 1:
            return Choice(actions[0])
        seen = self.view(game)
        s = seen.state
        kind = s.awaiting_kind
        if kind == "maneuver":
            planned = self._planned(game, actions)
            if planned is not None:
                return planned
        if kind == "rondel":
            overdue = overdue_taxation(game.plies, s, actions)
            if overdue is not None:
                return Choice(overdue, rondel_reason(s, overdue) + "; taxing is overdue")
        if kind not in SEARCHED:
            action, why = self.policy.pick(s, actions, explain=True)
            return Choice(action, why)
        self._now = self._settings_now(game)
        candidates = self._candidates(s, kind, actions)
        if len(candidates) == 1:
            return self._explain(s, kind, candidates[0], candidates)
        best = self._search(s, candidates)
        if kind == "maneuver":
            self._remember_plan(game, best)
        return self._explain(s, kind, best, candidates)

    def _settings_now(self, game: Game) -> SearchSettings:
        """The level's settings, with the far horizon while the others play as predicted."""
        cfg = self.settings
        if not cfg.far_horizon or game.awaiting is None:
            return cfg
        self._watch.update(game, game.awaiting.player)
        if self._watch.predictable(cfg.predictable, cfg.watch_least):
            return replace(cfg, horizon=cfg.far_horizon, exact_others=cfg.far_exact)
        return cfg

    # -- candidates --------------------------------------------------------------------------
    def _candidates(self, s: GameState, kind: str, actions: list[Action]) -> list[Candidate]:
        """The candidates, best first by a quick prior: if the time runs out before the
        futures tell them apart, the prior's choice stands (greedy's, in effect)."""
        if kind == "maneuver":
            return self._plans(s, actions)
        if kind in ("invest", "bond_choice"):
            scored = sorted(self.policy.invest_scores(s, actions), key=lambda t: t[0], reverse=True)
            keep: list[Action] = [a for _, a in scored if isinstance(a, Buy)]
            keep = keep[: self.settings.candidates - 1]
            keep += [a for a in actions if isinstance(a, Pass)]
            actions = keep
        out = []
        idle = []
        me = s.awaiting_player
        quiet = Policy(random.Random(0), PLAIN)
        for a in actions:
            after, _ = engine.apply(s, a)
            c = Candidate(a, [a], after)
            if kind == "rondel":
                played = finish_turn(after, quiet)
                c.prior = utility(values(played, self.weights), me, self.weights)
                if not changes_anything(s, played):
                    c.prior -= IDLE_TURN
                    idle.append(c)
            else:
                c.prior = utility(values(after, self.weights), me, self.weights)
            out.append(c)
        if self.settings.prune_idle and idle and len(idle) < len(out):
            # a turn that only moves the marker (a Maneuver without units, a Factory without
            # the money) is a turn given away: not worth the futures it would cost to judge
            out = [c for c in out if c not in idle]
        out.sort(key=lambda c: c.prior, reverse=True)
        return out

    def _plans(self, s: GameState, actions: list[Action]) -> list[Candidate]:
        """Complete Maneuvers by the rules of thumb with different tendencies (and ending at
        once); identical plans are kept once."""
        styles = [
            Style(self.style.aggression, self.style.expansion, self.style.thrift, 0.0),
            Style(self.style.aggression * 2.0, self.style.expansion, self.style.thrift, 0.0),
            Style(self.style.aggression * 0.3, self.style.expansion * 1.3, self.style.thrift, 0.0),
        ]
        rng = random.Random(self.rng.random())
        while len(styles) < self.settings.plans - 1:
            styles.append(
                Style(
                    self.style.aggression * rng.uniform(0.3, 2.5),
                    self.style.expansion * rng.uniform(0.6, 1.6),
                    self.style.thrift,
                    0.8,
                )
            )
        seen: dict[tuple[str, ...], Candidate] = {}  # by the plan's actions in notation
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
        me = s.awaiting_player
        out = list(seen.values())
        for c in out:
            c.prior = utility(values(c.state, self.weights), me, self.weights)
        out.sort(key=lambda c: c.prior, reverse=True)
        return out

    # -- the search --------------------------------------------------------------------------
    def _search(self, s: GameState, candidates: list[Candidate]) -> Candidate:
        """Successive halving on common random futures: every candidate still in the race is
        played on the same seeds (one seed for all, then the next), so that a time limit
        leaves them equally sampled; after each round the worse half drops out and the
        survivors get twice as many futures. Stops at the playout count, the time limit, or
        when the last two differ clearly."""
        me = s.awaiting_player
        cfg = self.settings
        deadline = time.monotonic() + self.budget
        alive = list(candidates)
        seeds: list[int] = []
        spent = 0
        target = 2
        while spent < cfg.playouts and time.monotonic() < deadline:
            while len(seeds) < target:
                seeds.append(self.rng.getrandbits(32))
            tasks = [
                (i, k, seeds[k])
                for k in range(target)
                for i, c in enumerate(alive)
                if k not in c.values
            ]
            spent += self._play(s, me, alive, tasks, deadline)
            if time.monotonic() > deadline:
                break
            if len(alive) > 2:
                alive.sort(key=lambda c: c.mean, reverse=True)
                alive = alive[: max(2, (len(alive) + 1) // 2)]
            elif (len(alive) == 2 and _clearly_apart(alive[0], alive[1])) or len(alive) == 1:
                break
            target *= 2
        return _best(alive)

    def _play(
        self,
        s: GameState,
        me: int,
        alive: list[Candidate],
        tasks: list[tuple[int, int, int]],
        deadline: float,
    ) -> int:
        """Play a round's playouts (here, or shared with the worker processes); returns how
        many were played."""
        pool = self._workers()
        futures = []
        mine = tasks
        if pool is not None and len(tasks) >= 4:
            from rules.bots.parallel import pack

            shares = pool.workers + 1
            packed = pack(s)
            plans = [c.plan for c in alive]
            try:
                futures = [
                    pool.submit(
                        packed, plans, tasks[j::shares], me, self._now, self.weights, deadline
                    )
                    for j in range(1, shares)
                ]
                mine = tasks[0::shares]
            except Exception:  # the pool broke (a worker died): play on alone from now on
                self.close()
                futures = []
        played = 0
        for i, k, seed in mine:
            c = alive[i]
            c.values[k] = playout(c.state, me, seed, self._now, self.weights)
            played += 1
            if time.monotonic() > deadline:
                break
        for fut in futures:
            try:
                done = fut.result()
            except Exception:  # a broken or closed pool: play on alone from now on
                self.close()
                continue
            for i, k, value in done:
                alive[i].values[k] = value
                played += 1
        return played

    def _workers(self) -> PlayoutPool | None:
        """The worker processes, started on first use (more than one process only)."""
        processes = self.settings.processes or auto_processes()
        if processes <= 1 or self._alone:
            return None
        if self._pool is None:
            from rules.bots.parallel import PlayoutPool

            try:
                self._pool = PlayoutPool(processes)
            except Exception:  # no processes to be had here (a sandbox, no semaphores):
                self._alone = True  # the bot decides alone, as with processes=1
                return None
            if self._alone:  # closed from another thread meanwhile (the app left the game)
                self.close()
                return None
        return self._pool

    def close(self) -> None:
        """Stop the worker processes, if any (they also stop with the program); the bot can
        still decide, alone in this process. The app calls this when it leaves a game, so
        that a long session of many games does not gather idle processes."""
        self._alone = True
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    # -- following a chosen Maneuver ---------------------------------------------------------
    @staticmethod
    def _key(game: Game) -> PlanKey:
        s = game._state
        return (len(game.plies), s.turn, s.awaiting_kind, s.turn_ctx, b"".join(s.armies))

    def _remember_plan(self, game: Game, best: Candidate) -> None:
        self._plan = []
        if len(best.plan) <= 1:
            return
        replay = game.copy()
        for a in best.plan:
            self._plan.append((self._key(replay), a))
            try:
                replay.apply(a)
            except Exception:  # pragma: no cover - the plan was made on this position
                break
            if replay.awaiting is None or replay.awaiting.kind != "maneuver":
                break
        self._plan.pop(0)  # the first action is returned now

    def _planned(self, game: Game, actions: list[Action]) -> Choice | None:
        while self._plan:
            key, action = self._plan.pop(0)
            if key == self._key(game) and action in actions:
                return Choice(action, self._move_reason(game.state, action))
            self._plan = []
        return None

    # -- reasons -----------------------------------------------------------------------------
    def _move_reason(self, s: GameState, a: Action) -> str:
        if isinstance(a, EndManeuver):
            return "ends the maneuver as planned"
        _, why = move_value(s, s.turn, a, home_threats(s, s.turn))
        return why or "moves as planned"

    def _explain(
        self, s: GameState, kind: str, best: Candidate, candidates: list[Candidate]
    ) -> Choice:
        a = best.action
        tried = f" (best of {len(candidates)} tried)" if len(candidates) > 1 else ""
        if tried and self._now.horizon != self.settings.horizon:
            tried = f" (best of {len(candidates)} tried, {self._now.horizon} turns ahead)"
        if isinstance(a, ChooseRondel):
            return Choice(a, rondel_reason(s, a) + tried)
        if isinstance(a, Buy):
            return Choice(a, buy_reason(s, s.awaiting_player, a) + tried)
        if isinstance(a, Pass):
            return Choice(a, "passes: no bond pays more than keeping the cash" + tried)
        if kind == "battle":
            if isinstance(a, Fight):
                _, why = battle_choice(s, [a, *[c.action for c in candidates]])
                return Choice(a, (why or "fights: the futures look better") + tried)
            return Choice(a, "does not fight: the futures look better without" + tried)
        if kind == "maneuver":
            if isinstance(a, EndManeuver):
                return Choice(a, "ends the maneuver: no plan looked better" + tried)
            moves = sum(1 for x in best.plan if not isinstance(x, EndManeuver))
            return Choice(a, f"{self._move_reason(s, a)}; plan of {moves} moves" + tried)
        if isinstance(a, SwissBankForce):
            nation = s.board.nations[s.turn].name
            if a.force:
                return Choice(a, f"forces {nation} to stop on Investor" + tried)
            return Choice(a, f"lets {nation} pass Investor" + tried)
        if isinstance(a, BuildFactory):
            if a.region:
                where = s.board[a.region].name
                return Choice(a, f"builds a factory in {where}: +2M tax each taxation" + tried)
            return Choice(a, "builds no factory" + tried)
        return Choice(a, "looks best" + tried)
