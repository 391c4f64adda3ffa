"""The search player: Monte Carlo look-ahead within a time budget.

For a decision that matters (a rondel space, a bond, a battle, a Swiss bank, a factory site,
a whole Maneuver) it lists candidates (``rules.bots.candidates``), plays each one forward many
times with the quick rules of thumb in every seat (``rules.bots.playout``: simulated greedy
players with a little randomness, so the futures differ) to a horizon some nation turns
ahead, and judges where each future ends with the evaluation (``rules.bots.evaluation``): the
player's projected worth against the best rival's. Candidates share the same random futures
(common random numbers), and the budget goes to the candidates still in the race (successive
halving), so most of the thinking is spent telling the best two apart. A Maneuver is chosen
as a whole plan (for the strong level one plan per aim, ``rules.bots.plans``), then played
move by move while the game goes as the plan expected.

The budget is a number of playouts with a time limit on top (``budget`` seconds, other limits
for a Maneuver, for minor decisions and for a whole nation turn): within the playout count a
seeded bot is reproducible; on a slow machine the time limit cuts the search short instead of
keeping the player waiting.

The other players are watched (``rules.bots.opponents``): a level with ``far_horizon`` looks
further ahead, and plays the others' seats of its playouts with greedy's own choices, as far
as they have played as greedy would (all or nothing at 90%, or with ``soft_model`` in
proportion, player by player).
"""

from __future__ import annotations

import threading
import time
from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING

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
from rules.bots.candidates import Candidate, candidates
from rules.bots.evaluation import DEFAULT, Weights
from rules.bots.opponents import TableWatch
from rules.bots.playout import playout
from rules.bots.policy import Policy, buy_reason, overdue_taxation, rondel_reason
from rules.bots.settings import MOST_PROCESSES, NORMAL, SearchSettings, auto_processes
from rules.bots.style import PLAIN, Style
from rules.bots.tactics import battle_choice, home_threats, move_value
from rules.game import Game
from rules.state import GameState

if TYPE_CHECKING:
    from rules.bots.parallel import PlayoutPool, Share

__all__ = [
    "MOST_PROCESSES",
    "NORMAL",
    "SEARCHED",
    "STRONG",
    "STRONG_WEIGHTS",
    "Candidate",
    "SearchBot",
    "SearchSettings",
    "auto_processes",
]

# decisions searched; the others (production, imports, and the bond rounds of the experienced
# set-up, a phase the evaluation is not made for) follow the rules of thumb
# the decisions a chosen Maneuver plan runs through (a canal's controller is asked mid-move)
PLAN_KINDS = ("maneuver", "battle", "canal")
SEARCHED = ("rondel", "invest", "battle", "swiss_bank", "build_factory", "maneuver")
MINOR = ("battle", "swiss_bank", "build_factory")  # decisions with ``minor_time``
LEAST_LEFT = 0.1  # what a decision gets (in ``budget``s) once its nation turn spent its time
START_WAIT = 30.0  # seconds ``close`` waits for playout processes still starting

# The strong level: 0.3 s for a rondel space, 0.24 s for a bond, 0.36 s for a Maneuver plan,
# 0.15 s for a battle or a factory site, and 0.54 s for all of its decisions in one nation
# turn (its ``budget`` scales them all: a decision late in a turn gets what is left, at
# least a tenth), on two processes. With these limits it played as well as with 0.5 s a
# rondel space on deals that did not choose them, compared game by game at every table,
# while a person waits a third less; twice the time did worse (docs/BOTS.md, issue 25's
# eighth pass). It copies each other player in its playouts as far as the table watch
# finds him predictable (10 nation turns ahead with greedy's exact moves at a table of
# greedy players, 6 with simulated players otherwise), plans its Maneuvers by aim, and
# uses the rondel space it chose. When time is short (a busy machine, a far
# horizon) it spends it on the candidates the prior likes best, counts the prior as one
# future more, and its own seat's simulated greedy choices try the three likeliest rondel
# spaces only (1.7 times the playouts), while the other seats' are drawn from a softmax of
# greedy's values at 2 points over every option (``others_temperature``: the best fit to
# the normal level's choices; 44 of 72 games against three ``normal``, 61%, against 35%
# of 48 without). It judges the end of a playout with the evaluation that knows
# the rondel's tempo, the Investor card, governments at risk, threatened factories and idle
# units (table 5, ``STRONG_WEIGHTS``), while its simulated greedy players keep greedy's own
# table (``rollout_eval=4``): against three ``normal`` this bought better bonds in stronger
# nations (50% of 24 games against 33%, average score 134 against 116). docs/BOTS.md has the
# tournaments that chose this.
STRONG = SearchSettings(
    budget=0.3,
    playouts=200,
    horizon=6,
    candidates=8,
    plans=8,
    processes=0,
    far_horizon=10,
    watch_least=4,
    far_exact=True,
    soft_model=True,
    aimed_plans=True,
    use_turn=True,
    maneuver_time=1.2,
    invest_time=0.8,
    minor_time=0.5,
    turn_time=1.8,
    narrow=True,
    prior_weight=1.0,
    rollout_width=3,
    rollout_eval=4,
    others_temperature=2.0,
)
STRONG_WEIGHTS = Weights(learned=5)
# a Maneuver plan's aim in the log: "raid plan of 3 moves" (``rules.bots.plans``)
AIM_WORDS = {
    "expand": "flag",
    "raid": "raid",
    "reclaim": "retaking",
    "defend": "defence",
    "convoy": "convoy",
    "stage": "staging",
}
WATCH_LEAST_EACH = 2  # choices of each other player seen before the soft model copies him


def _common(alive: list[Candidate]) -> set[int]:
    keys = set(alive[0].values)
    for c in alive[1:]:
        keys &= c.values.keys()
    return keys


def _best(alive: list[Candidate], prior_weight: float = 0.0) -> Candidate:
    """The best mean over the futures every survivor has played (the prior's favourite when
    the time ran out before each had one); with ``prior_weight`` the prior counts as that
    many futures besides (a search cut short to a few futures leans on it)."""
    common = _common(alive)
    if not common:
        return max(alive, key=lambda c: c.prior)
    return max(alive, key=lambda c: prior_weight * c.prior + sum(c.values[k] for k in common))


def _score(c: Candidate, prior_weight: float) -> float:
    """A candidate's mean over its futures, the prior counted as ``prior_weight`` more."""
    if not c.values:
        return float("-inf")
    return (prior_weight * c.prior + sum(c.values.values())) / (prior_weight + len(c.values))


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
        # (position key, action) still to play
        self._plan: list[tuple[tuple[object, ...], Action]] = []
        self._pool: PlayoutPool | None = None  # worker processes (settings.processes > 1)
        self._alone = False  # closed, or the worker processes failed: play in this process
        self._warming: list[Share] = []  # the workers' first (empty) shares, while they start
        self._starting: threading.Thread | None = None  # starts the worker processes
        self._warm = False  # every worker has answered its first share
        # how predictable the others are (``far_horizon``), and how each plays (``read_tempers``)
        self._watch = TableWatch()
        self._now = self.settings  # the settings of the decision under way (its horizon)
        self._turn: tuple[int, int] = (-1, -1)  # the nation turn (round, nation) under way
        self._turn_spent = 0.0  # seconds this bot has thought in that nation turn
        self._model = 0.0  # how exactly the decision under way copies the others (0-1)
        # seconds a playout took here lately, by horizon (a moving average)
        self._playout_times: dict[int, float] = {}
        # searched decisions, how many of them played the other seats with an exact model of
        # the table, and the sum of the model's weight (1: exact): the tournaments report it
        # counts, and the seconds and model shares they add up (a float per key)
        self.stats: defaultdict[str, float] = defaultdict(float)

    # -- the decision ------------------------------------------------------------------------
    def decide(self, game: Game) -> Choice:
        start = time.monotonic()
        actions = self.options(game)
        if len(actions) == 1:
            return Choice(actions[0])
        seen = self.view(game)
        s = seen.state
        kind = s.awaiting_kind
        if kind in ("maneuver", "battle"):  # its own moves and battles; a canal answer is not
            planned = self._planned(game, actions)
            if planned is not None:
                return planned
            self._plan = []
        if kind == "rondel":
            overdue = overdue_taxation(game.plies, s, actions)
            if overdue is not None:
                return Choice(overdue, rondel_reason(s, overdue) + "; taxing is overdue")
        if kind not in SEARCHED:
            action, why = self.policy.pick(s, actions, explain=True)
            return Choice(action, why)
        deadline = start + self._budget_for(s, kind)
        self._workers()  # the playout processes start (in the background) at the first search
        self._now = self._settings_now(game)
        self._model = 1.0 if self._now.exact_others else self._model
        found = self.candidates(s, kind, actions)
        if len(found) == 1:
            choice = self._explain(s, kind, found[0], found)
        else:
            self.stats["searched"] += 1
            self.stats["exact"] += self._model >= 1.0
            self.stats["model"] += self._model
            self.stats["seconds before the search"] += time.monotonic() - start
            best = self._search(s, self._affordable(found, deadline), deadline)
            if kind == "maneuver":
                self._remember_plan(game, best)
            choice = self._explain(s, kind, best, found)
        self._turn_spent += time.monotonic() - start
        return choice

    def candidates(self, s: GameState, kind: str, actions: list[Action]) -> list[Candidate]:
        """What this bot considers for the decision, best first by the quick prior."""
        return candidates(
            s, kind, actions, self._now, self.weights, self.policy, self.style, self.rng
        )

    def _affordable(self, found: list[Candidate], deadline: float) -> list[Candidate]:
        """The candidates the time left can judge on two futures each, the prior's best
        first (``narrow``): a busy machine or a far horizon leaves time for a few playouts
        only, and a candidate left without any future is a candidate judged by the prior
        alone, so the few are spent on the likeliest instead of spread thin."""
        if not self.settings.narrow:
            return found
        took = self._playout_times.get(self._now.horizon)
        if not took:
            return found
        processes = 1 + (self._pool.workers if self._warm and self._pool is not None else 0)
        playouts = max(0.0, deadline - time.monotonic()) * processes / took
        keep = max(2, int(playouts / self._first_futures()))
        return found[:keep]

    def _first_futures(self) -> int:
        """Futures each candidate plays in the search's first round: two, one when every
        other seat plays greedy's exact moves (the futures of a candidate then differ only
        by its own simulated moves: one future already says much)."""
        return 1 if self.settings.narrow and self._model >= 1.0 else 2

    def _budget_for(self, s: GameState, kind: str) -> float:
        """Seconds for this decision: the level's time for its kind, within what is left of
        the nation turn's time (``turn_time``), counted from the turn's first decision."""
        cfg = self.settings
        budget = self.budget
        if kind == "maneuver":
            budget *= cfg.maneuver_time
        elif kind in ("invest", "bond_choice"):
            budget *= cfg.invest_time
        elif kind in MINOR:
            budget *= cfg.minor_time
        turn = (s.round, s.turn)
        if turn != self._turn:
            self._turn = turn
            self._turn_spent = 0.0
        if cfg.turn_time:
            left = cfg.turn_time * self.budget - self._turn_spent
            budget = min(budget, max(LEAST_LEFT * self.budget, left))
        return budget

    def _settings_now(self, game: Game) -> SearchSettings:
        """The level's settings for this decision: the far horizon and the exact play of the
        others while they play as predicted (all or nothing, or player by player)."""
        cfg = self.settings
        self._model = 0.0
        if not cfg.far_horizon or game.awaiting is None:
            return cfg
        me = game.awaiting.player
        self._watch.temperature = cfg.others_temperature if cfg.read_tempers else 0.0
        self._watch.update(game, me)
        if cfg.read_tempers:
            seat = game.players.index(me)
            tempers = tuple(
                () if p == seat else self._watch.tempers(p) for p in range(len(game.players))
            )
            cfg = replace(cfg, seat_tempers=tempers)
        if cfg.soft_model:
            return self._soft(game, cfg)
        if self._watch.predictable(cfg.predictable, cfg.watch_least):
            return replace(cfg, horizon=cfg.far_horizon, exact_others=cfg.far_exact)
        return cfg

    def _soft(self, game: Game, cfg: SearchSettings) -> SearchSettings:
        """Each other player copied as far as he was predicted (``TableWatch.trust``); the
        horizon reaches ``far_horizon`` as the least predicted of them is fully trusted. A
        player who governs nothing and was never seen choosing counts as the others do."""
        s = game.state
        me = game.players.index(game.awaiting.player) if game.awaiting else -1
        seats: list[float | None] = []
        for p in range(len(game.players)):
            if p == me:
                seats.append(0.0)
                continue
            seen = self._watch.by_player.get(p, (0, 0))[0]
            if seen < WATCH_LEAST_EACH and p not in s.government:
                seats.append(None)
                continue
            seats.append(self._watch.trust(p, cfg.trust_low, cfg.trust_high, WATCH_LEAST_EACH))
        known = [w for p, w in enumerate(seats) if p != me and w is not None]
        least = min(known) if known else 0.0
        if self._watch.seen < cfg.watch_least:
            least = 0.0
        filled = tuple(least if w is None else w for w in seats)
        if not cfg.far_exact:
            filled = tuple(0.0 for _ in filled)
        self._model = least
        horizon = cfg.horizon + round((cfg.far_horizon - cfg.horizon) * least)
        return replace(cfg, horizon=horizon, exact_seats=filled)

    def _search(self, s: GameState, candidates: list[Candidate], deadline: float) -> Candidate:
        """Successive halving on common random futures: every candidate still in the race is
        played on the same seeds (one seed for all, then the next), so that a time limit
        leaves them equally sampled; after each round the worse half drops out and the
        survivors get twice as many futures. Stops at the playout count, the time limit, or
        when the last two differ clearly."""
        me = s.awaiting_player
        cfg = self.settings
        alive = list(candidates)
        seeds: list[int] = []
        spent = 0
        target = self._first_futures()
        while spent < cfg.playouts and time.monotonic() < deadline:
            while len(seeds) < target:
                seeds.append(self.rng.getrandbits(32))
            tasks = [
                (i, k, seeds[k])
                for k in range(target)
                for i, c in enumerate(alive)
                if k not in c.values
            ]
            played = self._play(s, me, alive, tasks, deadline)
            spent += played
            if not played or time.monotonic() > deadline:
                break
            if len(alive) > 2:
                alive.sort(key=lambda c: _score(c, cfg.prior_weight), reverse=True)
                alive = alive[: max(2, (len(alive) + 1) // 2)]
            elif (len(alive) == 2 and _clearly_apart(alive[0], alive[1])) or len(alive) == 1:
                break
            target *= 2
        self.stats["playouts"] += spent
        return _best(alive, cfg.prior_weight)

    def _play(
        self,
        s: GameState,
        me: int,
        alive: list[Candidate],
        tasks: list[tuple[int, int, int]],
        deadline: float,
    ) -> int:
        """Play a round's playouts (here, or shared with the worker processes); returns how
        many were played. A playout is not begun when it would likely end past the deadline
        (half the time the recent ones took left): a busy machine's playouts are slow, and
        the last one overran the time by a tenth of a second."""
        took = self._playout_times.get(self._now.horizon, 0.0)
        deadline -= 0.5 * took
        pool = self._ready_workers(s)
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
            begun = time.monotonic()
            if begun > deadline:
                break
            c = alive[i]
            c.values[k] = playout(c.state, me, seed, self._now, self.weights)
            played += 1
            took += 0.2 * (time.monotonic() - begun - took) if took else time.monotonic() - begun
            self._playout_times[self._now.horizon] = took
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
        """The worker processes (more than one process only), started on first use in a
        thread of their own: starting processes takes a second or more on a busy machine,
        which no decision should wait for (the bot plays alone meanwhile)."""
        processes = self.settings.processes or auto_processes()
        if processes <= 1 or self._alone:
            return None
        if self._pool is None and self._starting is None:
            self._starting = threading.Thread(
                target=self._start_pool, args=(processes,), name="imperial-pool", daemon=True
            )
            self._starting.start()
        return self._pool

    def _start_pool(self, processes: int) -> None:
        from rules.bots.parallel import PlayoutPool

        try:
            pool = PlayoutPool(processes)
        except Exception:  # no processes to be had here (a sandbox, no semaphores):
            self._alone = True  # the bot decides alone, as with processes=1
            return
        self._pool = pool
        if self._alone:  # closed from another thread meanwhile (the app left the game)
            self.close()

    def wait_for_workers(self, timeout: float = 30.0) -> bool:
        """Start the worker processes if need be and wait until they run (tests, and
        programs that would rather start them before the first decision)."""
        self._workers()
        starting = self._starting
        if starting is not None:
            starting.join(timeout)
        return self._pool is not None

    def _ready_workers(self, s: GameState) -> PlayoutPool | None:
        """The worker processes once they are ready to play: a fresh worker first has to
        import the engine and load the board (seconds on a busy machine), and a decision
        that waited for that kept the player waiting far beyond its time. So each worker is
        first sent an empty share, and the bot plays alone until all have answered."""
        pool = self._workers()
        if pool is None or self._warm:
            return pool
        try:
            if not self._warming:
                from rules.bots.parallel import pack

                far = time.monotonic() + 60.0
                packed = pack(s)
                self._warming = [
                    pool.submit(packed, [], [], 0, self._now, self.weights, far)
                    for _ in range(pool.workers)
                ]
                return None
            if not all(share.ready() for share in self._warming):
                return None
            for share in self._warming:
                share.result()
        except Exception:  # a worker that cannot start: play on alone from now on
            self.close()
            return None
        self._warming = []
        self._warm = True
        return pool

    def close(self) -> None:
        """Stop the worker processes, if any (they also stop with the program); the bot can
        still decide, alone in this process. The app calls this when it leaves a game, so
        that a long session of many games does not gather idle processes. Processes still
        starting (in their own thread) are waited for and stopped too: a program that ends
        right after would otherwise cut their start short and leave them to the exit."""
        self._alone = True
        self._warming = []
        starting = self._starting
        if starting is not None and starting is not threading.current_thread():
            starting.join(START_WAIT)
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    # -- following a chosen Maneuver ---------------------------------------------------------
    @staticmethod
    def _key(game: Game) -> tuple[object, ...]:
        s = game._state
        return (len(game.plies), s.turn, s.awaiting_kind, s.turn_ctx, b"".join(s.armies))

    def _remember_plan(self, game: Game, best: Candidate) -> None:
        """Keep the chosen plan's own actions, each with the position it expects (the other
        nations' battle answers in a plan are what the plan predicted they would be: another
        answer leaves a position the plan does not know, and the bot searches again)."""
        self._plan = []
        if len(best.plan) <= 1:
            return
        replay = game.copy()
        mine = best.plan[0].actor
        for a in best.plan:
            if a.actor == mine:
                self._plan.append((self._key(replay), a))
            try:
                replay.apply(a)
            except Exception:  # pragma: no cover - the plan was made on this position
                break
            if replay.awaiting is None or replay.awaiting.kind not in PLAN_KINDS:
                break
        self._plan.pop(0)  # the first action is returned now

    def _planned(self, game: Game, actions: list[Action]) -> Choice | None:
        while self._plan:
            key, action = self._plan.pop(0)
            if key == self._key(game) and action in actions:
                self.stats["followed"] += 1
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
            moves = best.moves
            plan = f"plan of {moves} move{'s' if moves != 1 else ''}"
            if best.aim in AIM_WORDS:
                plan = f"{AIM_WORDS[best.aim]} {plan}"
            return Choice(a, f"{self._move_reason(s, a)}; {plan}" + tried)
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
