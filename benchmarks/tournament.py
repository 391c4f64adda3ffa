"""Tournaments between bot levels, run by hand (a tiny one runs in the tests):

    uv run python benchmarks/tournament.py strong greedy greedy greedy --games 100
    uv run python benchmarks/tournament.py strong normal --games 60 --edition both
    uv run python benchmarks/tournament.py normal greedy greedy --budget 0.3 --jobs 2
    uv run python benchmarks/tournament.py strong greedy greedy greedy --game 2030 --games 24

The levels name the seats (2-6 players). Seats rotate from game to game so that each level
sits in each position equally often, and each deal is played once per rotation (game i uses
deal i // players), which removes most of the luck of the deal. Games run in parallel
processes; ``--time-limit`` stops starting new games after that many seconds.

Printed: each level's wins (a shared victory counts as a share) with a 95% confidence
interval (Wilson) against its fair share, its average score, its decision times (median,
p99, max), the time each search level took for a whole nation turn (all its decisions in one
nation's turn: the wait a person at the table sees; median, p99, max) and the games' length
(actions, rounds, minutes). ``--record FILE`` also writes one JSON line per game (seats,
scores, holdings: final power, each seat's interest per nation and cash) for looking at the
games lost.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules import Game, RuleSet  # noqa: E402
from rules.bots import make_bot  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
MAX_ACTIONS = 6000  # a game still running then is a stalemate: counted as unfinished


@dataclass(frozen=True, slots=True)
class GameSpec:
    index: int
    levels: tuple[str, ...]  # by seat, already rotated
    edition: str
    variant: str
    seed: int
    budget: float | None
    hidden_cash: bool
    game: str = "imperial"  # or "2030" (Imperial 2030)


@dataclass(slots=True)
class GameRecord:
    spec: GameSpec
    scores: list[int]
    shares: list[float]  # win share per seat
    times: dict[str, list[float]]  # level -> seconds per decision
    actions: int
    rounds: int
    seconds: float
    finished: bool
    power: list[int] = field(default_factory=list)  # per nation at the end
    interest: list[list[int]] = field(default_factory=list)  # per seat, per nation
    cash: list[int] = field(default_factory=list)  # per seat at the end
    # per level: decisions searched, and how many with an exact model of the table
    model: dict[str, dict[str, float]] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)  # the game in notation (for --record)
    # level -> seconds of all its decisions in one nation turn, one entry per (turn, player)
    turn_times: dict[str, list[float]] = field(default_factory=dict)


def play_game(spec: GameSpec) -> GameRecord:
    """One game of the tournament (runs in a worker process)."""
    players = list(NAMES[: len(spec.levels)])
    rules = RuleSet.preset(spec.edition, spec.variant, spec.game)
    game = Game.new(players, rules, seed=spec.seed)
    bots = {}
    for i, (name, level) in enumerate(zip(players, spec.levels, strict=True)):
        bot = build_bot(level, spec.seed * 7 + i, spec.hidden_cash)
        if spec.budget is not None and hasattr(bot, "budget") and "budget=" not in level:
            bot.budget = spec.budget
        bots[name] = bot
    times: dict[str, list[float]] = defaultdict(list)
    turns: dict[tuple, float] = defaultdict(float)  # (level, round, nation, player) -> s
    start = time.perf_counter()
    while game.awaiting is not None and len(game.plies) < MAX_ACTIONS:
        player = game.awaiting.player
        level = spec.levels[players.index(player)]
        turn = (level, game.state.round, game.state.turn, player)
        t0 = time.perf_counter()
        choice = bots[player].decide(game)
        took = time.perf_counter() - t0
        times[level].append(took)
        turns[turn] += took
        game.apply(choice.action)
    turn_times: dict[str, list[float]] = defaultdict(list)
    for (level, *_), took in turns.items():
        turn_times[level].append(took)
    model: dict[str, dict[str, float]] = {}
    for name, bot in bots.items():
        if hasattr(bot, "close"):
            bot.close()  # a search level's playout processes, if it has any
        stats = getattr(bot, "stats", None)
        if stats is not None:
            level = spec.levels[players.index(name)]
            mine = model.setdefault(level, {})
            for key, value in stats.items():
                mine[key] = mine.get(key, 0) + value
    result = game.result()
    scores = [result.scores[p] for p in players] if result else [0] * len(players)
    s = game.state
    interest = [[0] * len(s.bond_owner) for _ in players]
    for n, owners in enumerate(s.bond_owner):
        for k, o in enumerate(owners):
            if o >= 0:
                interest[o][n] += k + 1
    shares = [0.0] * len(players)
    if result:
        for w in result.winners:
            shares[players.index(w)] = 1 / len(result.winners)
    return GameRecord(
        spec,
        scores,
        shares,
        dict(times),
        len(game.plies),
        game.state.round,
        time.perf_counter() - start,
        result is not None,
        list(s.power),
        interest,
        list(s.cash),
        model,
        [str(a) for a in game.history],
        dict(turn_times),
    )


def build_bot(level: str, seed: int, hidden_cash: bool = False):
    """A bot by level name, or a variant for experiments: ``LEVEL:key=value,...`` with keys
    ``eval`` (weight table, 0 = hand-made), ``rival`` (weight of the best rival),
    ``government_floor`` (``Weights.government_floor``), ``budget``,
    ``playouts``, ``horizon``, ``candidates``, ``plans``, ``noise``, ``explore``, ``jitter``,
    ``rollout`` (quick|greedy), ``prune_idle`` (0|1), ``processes``, ``end_horizon``,
    ``end_power``, ``win_bonus``, ``far_horizon``, ``predictable``, ``watch_least``,
    ``far_exact``, ``soft_model``, ``aimed_plans``, ``use_turn``, ``narrow`` (0|1), ``trust_low``,
    ``trust_high``, ``rollout_eval``, ``rollout_width``, ``maneuver_time``, ``minor_time``,
    ``invest_time``, ``turn_time``, ``prior_weight``, ``others_temperature``, ``read_tempers``
    (0|1) for search levels
    (``rules.bots.settings.SearchSettings``)."""
    from dataclasses import replace

    base, _, extra = level.partition(":")
    bot = make_bot(base, seed, hidden_cash=hidden_cash)
    if not extra:
        return bot
    opts = dict(item.split("=", 1) for item in extra.split(","))
    if "eval" in opts:
        bot.weights = replace(bot.weights, learned=int(opts.pop("eval")))
    if "rival" in opts:
        bot.weights = replace(bot.weights, rival=float(opts.pop("rival")))
    if "government_floor" in opts:
        bot.weights = replace(bot.weights, government_floor=float(opts.pop("government_floor")))
    if hasattr(bot, "settings"):
        kinds = {"budget": float, "noise": float, "explore": float, "jitter": float}
        kinds["others_temperature"] = float
        for key in ("win_bonus", "predictable", "trust_low", "trust_high", "prior_weight"):
            kinds[key] = float
        for key in ("maneuver_time", "invest_time", "minor_time", "turn_time"):
            kinds[key] = float
        kinds["rollout"] = str
        for key in ("far_exact", "soft_model", "aimed_plans", "use_turn", "narrow", "read_tempers"):
            kinds[key] = lambda v: bool(int(v))
        changes = {k: kinds.get(k, int)(v) for k, v in opts.items()}
        bot.settings = replace(bot.settings, **changes)
        bot.budget = bot.settings.budget
    elif opts:
        raise ValueError(f"{base} has no settings {', '.join(opts)}")
    return bot


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% confidence interval of a win rate (Wilson score interval)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(slots=True)
class Report:
    levels: tuple[str, ...]
    records: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> dict[str, dict[str, float]]:
        """Per level: games, wins (shares), win rate, CI, fair share, average score and
        decision times."""
        out: dict[str, dict[str, float]] = {}
        players = len(self.levels)
        for level in dict.fromkeys(self.levels):
            seats = self.levels.count(level)
            wins = 0.0
            scores: list[int] = []
            times: list[float] = []
            turns: list[float] = []
            for rec in self.records:
                turns += rec.turn_times.get(level, [])
                for seat, lv in enumerate(rec.spec.levels):
                    if lv == level:
                        wins += rec.shares[seat]
                        scores.append(rec.scores[seat])
                times += rec.times.get(level, [])
            n = len(self.records)
            # a level in several seats: its chance that one of them wins
            lo, hi = wilson(wins, n)
            times.sort()
            turns.sort()
            out[level] = {
                "seats": seats,
                "games": n,
                "wins": wins,
                "rate": wins / n if n else 0.0,
                "low": lo,
                "high": hi,
                "fair": seats / players,
                "score": statistics.mean(scores) if scores else 0.0,
                "median": statistics.median(times) if times else 0.0,
                "p99": times[min(len(times) - 1, int(0.99 * len(times)))] if times else 0.0,
                "max": times[-1] if times else 0.0,
                "decisions": len(times),
                "turn median": statistics.median(turns) if turns else 0.0,
                "turn p99": turns[min(len(turns) - 1, int(0.99 * len(turns)))] if turns else 0.0,
                "turn max": turns[-1] if turns else 0.0,
                "turns": len(turns),
            }
        return out

    def model_share(self) -> dict[str, tuple[float, float]]:
        """Per search level: (decisions searched, of which with an exact model of the table:
        the other seats played by the code they run, ``far_exact``)."""
        out: dict[str, tuple[float, float]] = {}
        for rec in self.records:
            for level, stats in rec.model.items():
                searched, exact = out.get(level, (0.0, 0.0))
                out[level] = (searched + stats.get("searched", 0), exact + stats.get("exact", 0))
        return out

    def text(self) -> str:
        lines = []
        n = len(self.records)
        world = " of Imperial 2030" if self.records and self.records[0].spec.game == "2030" else ""
        lines.append(
            f"{n} games{world} of {len(self.levels)} players ({', '.join(self.levels)}), seats "
            f"rotated, in {self.seconds / 60:.1f} min"
        )
        for level, st in self.summary().items():
            seats = f" x{int(st['seats'])}" if st["seats"] > 1 else ""
            lines.append(
                f"  {level}{seats}: wins {st['wins']:.1f}/{n} = {100 * st['rate']:.0f}% "
                f"[95% CI {100 * st['low']:.0f}-{100 * st['high']:.0f}%] "
                f"(fair {100 * st['fair']:.0f}%), average score {st['score']:.0f}, "
                f"decision median {1000 * st['median']:.1f} ms, p99 {1000 * st['p99']:.0f} ms, "
                f"max {1000 * st['max']:.0f} ms"
            )
        for level, st in self.summary().items():
            if st["turns"] and st["turn max"] >= 0.05:  # the quick levels need no line
                lines.append(
                    f"  {level}: a nation turn (all its decisions in it) median "
                    f"{1000 * st['turn median']:.0f} ms, p99 {1000 * st['turn p99']:.0f} ms, "
                    f"max {1000 * st['turn max']:.0f} ms ({st['turns']:.0f} turns)"
                )
        for level, (searched, exact) in self.model_share().items():
            playouts = sum(r.model.get(level, {}).get("playouts", 0) for r in self.records)
            lines.append(
                f"  {level}: exact model of the table in {exact:.0f} of {searched:.0f} searched "
                f"decisions ({100 * exact / max(1, searched):.1f}%), "
                f"{playouts / max(1, searched):.0f} playouts a searched decision"
            )
        if self.records:
            acts = statistics.mean(r.actions for r in self.records)
            rounds = statistics.mean(r.rounds for r in self.records)
            mins = statistics.mean(r.seconds for r in self.records) / 60
            longest = max(r.seconds for r in self.records) / 60
            unfinished = sum(not r.finished for r in self.records)
            lines.append(
                f"  game length: {acts:.0f} actions, {rounds:.1f} rounds, {mins:.1f} min on "
                f"average (longest {longest:.1f} min)"
                + (f"; {unfinished} unfinished" if unfinished else "")
            )
        return "\n".join(lines)


def specs(
    levels: tuple[str, ...],
    games: int,
    editions: tuple[str, ...] = ("first",),
    variant: str = "standard",
    seed: int = 1,
    budget: float | None = None,
    hidden_cash: bool = False,
    game: str = "imperial",
) -> list[GameSpec]:
    players = len(levels)
    out = []
    for i in range(games):
        shift = i % players
        rotated = levels[-shift:] + levels[:-shift] if shift else levels
        deal = seed + i // players
        edition = editions[(i // players) % len(editions)]
        out.append(GameSpec(i, rotated, edition, variant, deal, budget, hidden_cash, game))
    return out


def run_tournament(
    levels: tuple[str, ...],
    games: int,
    jobs: int = 1,
    time_limit: float | None = None,
    progress: bool = False,
    **kwargs,
) -> Report:
    """Play the games (in ``jobs`` processes) and collect the report."""
    if not 2 <= len(levels) <= 6:
        raise ValueError("a tournament needs 2 to 6 seats")
    todo = specs(levels, games, **kwargs)
    report = Report(levels)
    start = time.perf_counter()

    def expired() -> bool:
        return time_limit is not None and time.perf_counter() - start > time_limit

    if jobs <= 1:
        for spec in todo:
            if expired():
                break
            report.records.append(play_game(spec))
            if progress:
                print(f"  game {len(report.records)}/{games} done", file=sys.stderr)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            pending = set()
            queue = list(todo)
            while queue or pending:
                while queue and len(pending) < jobs and not expired():
                    pending.add(pool.submit(play_game, queue.pop(0)))
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    report.records.append(fut.result())
                    if progress:
                        print(f"  game {len(report.records)}/{games} done", file=sys.stderr)
                if expired():
                    queue.clear()
    report.records.sort(key=lambda r: r.spec.index)
    report.seconds = time.perf_counter() - start
    return report


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="+", help="one level per seat, e.g. strong greedy greedy")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes")
    parser.add_argument(
        "--game", choices=["imperial", "2030"], default="imperial", help="2030: Imperial 2030"
    )
    parser.add_argument(
        "--edition",
        choices=["first", "2010", "both"],
        help="default first (Imperial 2030: 2010, its only edition)",
    )
    parser.add_argument(
        "--variant", choices=["standard", "experienced", "no-investor-card"], default="standard"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, help="seconds per decision for search levels")
    parser.add_argument("--hidden-cash", action="store_true")
    parser.add_argument("--time-limit", type=float, help="start no new game after N seconds")
    parser.add_argument("--progress", action="store_true")
    parser.add_argument(
        "--record", type=Path, help="write one JSON line per game (seats, scores, holdings)"
    )
    args = parser.parse_args(argv)
    edition = args.edition or ("2010" if args.game == "2030" else "first")
    if args.game == "2030" and edition != "2010":
        parser.error("Imperial 2030 is played with the 2010 rules only")
    editions = ("first", "2010") if edition == "both" else (edition,)
    report = run_tournament(
        tuple(args.levels),
        args.games,
        jobs=args.jobs,
        time_limit=args.time_limit,
        progress=args.progress,
        editions=editions,
        variant=args.variant,
        seed=args.seed,
        budget=args.budget,
        hidden_cash=args.hidden_cash,
        game=args.game,
    )
    if args.budget is not None:
        print(f"(search levels at {args.budget} s a decision)")
    print(report.text())
    if args.record is not None:
        with args.record.open("w") as out:
            for rec in report.records:
                line = asdict(rec)
                line["times"] = {k: statistics.median(v) for k, v in rec.times.items() if v}
                line["turn_times"] = {
                    k: statistics.median(v) for k, v in rec.turn_times.items() if v
                }
                out.write(json.dumps(line) + "\n")


if __name__ == "__main__":
    main()
