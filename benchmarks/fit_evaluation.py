"""Fit the evaluation's weights on self-play games (run by hand; the result is pasted into
``rules/bots/evaluation.py`` as ``PHASE_WEIGHTS``):

    uv run python benchmarks/fit_evaluation.py --games 400 --levels greedy [--jobs 2]

Plays games of the given levels in every set-up (2-6 players, both editions, all variants),
samples positions at rondel decisions, and fits, for each phase of the game (the strongest
nation's power 0-4, 5-9, 10-14, 15-19, 20-25), a ridge regression of each player's final
score on his features (``rules.bots.features``), both taken relative to the table's mean:
what a position is worth is how far ahead of the others it leads. Prints the weights, the fit
(R²) and how often the best-valued player went on to win.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules import Game, RuleSet  # noqa: E402
from rules.bots import make_bot  # noqa: E402
from rules.bots.features import FEATURES, player_features  # noqa: E402

CONFIGS = [
    (players, edition, variant)
    for players in (2, 3, 4, 5, 6)
    for edition in ("first", "2010")
    for variant in ("standard", "standard", "experienced", "no-investor-card")
]
PHASES = 5


def phase_of(max_power: int) -> int:
    return min(PHASES - 1, max_power // 5)


def one_game(args: tuple[tuple[str, ...], int]) -> dict:
    levels, seed = args
    players, edition, variant = CONFIGS[seed % len(CONFIGS)]
    names = ["A", "B", "C", "D", "E", "F"][:players]
    game = Game.new(names, RuleSet.preset(edition, variant), seed=seed)
    rng = random.Random(seed)
    bots = {p: make_bot(rng.choice(levels), seed * 10 + i) for i, p in enumerate(names)}
    samples = []
    while game.awaiting is not None and len(game.plies) < 6000:
        s = game.state
        if s.awaiting_kind == "rondel" and rng.random() < 0.35:
            samples.append((max(s.power), player_features(s)))
        game.apply(bots[game.awaiting.player].choose(game))
    result = game.result()
    if result is None:  # a stalemate: no lesson to learn
        return {"samples": [], "final": [0] * players, "winners": []}
    final = [result.scores[p] for p in names]
    winners = [names.index(w) for w in result.winners] if result else []
    return {"samples": samples, "final": final, "winners": winners}


def solve(rows: list[list[float]], ys: list[float], ridge: float) -> list[float]:
    """Ridge least squares by the normal equations (a dozen features: no numpy needed)."""
    k = len(rows[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in zip(rows, ys, strict=True):
        for i in range(k):
            xi = x[i]
            if xi:
                b[i] += xi * y
                ai = a[i]
                for j in range(k):
                    ai[j] += xi * x[j]
    for i in range(k):
        a[i][i] += ridge * len(rows)
    m = [[*row, bb] for row, bb in zip(a, b, strict=True)]
    for i in range(k):
        pivot = max(range(i, k), key=lambda r: abs(m[r][i]))
        m[i], m[pivot] = m[pivot], m[i]
        for r in range(k):
            if r != i and m[i][i]:
                f = m[r][i] / m[i][i]
                for c in range(i, k + 1):
                    m[r][c] -= f * m[i][c]
    return [m[i][k] / m[i][i] if m[i][i] else 0.0 for i in range(k)]


def centred(values: list[list[float]]) -> list[list[float]]:
    cols = len(values[0])
    means = [sum(v[c] for v in values) / len(values) for c in range(cols)]
    return [[v[c] - means[c] for c in range(cols)] for v in values]


def fit(games: list[dict], ridge: float = 0.01) -> list[list[float]]:
    weights = []
    for phase in range(PHASES):
        rows: list[list[float]] = []
        ys: list[float] = []
        for g in games:
            mean = sum(g["final"]) / len(g["final"])
            for max_power, feats in g["samples"]:
                if phase_of(max_power) != phase:
                    continue
                rows += centred(feats)
                ys += [f - mean for f in g["final"]]
        w = solve(rows, ys, ridge) if rows else [0.0] * len(FEATURES)
        pred = [sum(a * b for a, b in zip(w, x, strict=True)) for x in rows]
        ss = sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True))
        st = sum(y * y for y in ys) or 1.0
        hits = total = 0
        for g in games:
            win = set(g["winners"])
            for max_power, feats in g["samples"]:
                if phase_of(max_power) == phase:
                    vals = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
                    hits += vals.index(max(vals)) in win
                    total += 1
        print(
            f"phase {phase} (power {5 * phase}+): {len(rows)} rows, R² {1 - ss / st:.2f}, "
            f"best-valued player wins {hits / max(1, total):.0%}",
            file=sys.stderr,
        )
        weights.append(w)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--levels", default="greedy", help="comma-separated levels to sample")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ridge", type=float, default=0.01)
    parser.add_argument("--save", help="also write the sampled games to this JSON file")
    parser.add_argument("--load", nargs="*", default=[], help="add games sampled before")
    args = parser.parse_args()
    levels = tuple(args.levels.split(","))
    start = time.perf_counter()
    games: list[dict] = []
    if args.games:
        with ProcessPoolExecutor(args.jobs) as pool:
            jobs = [(levels, args.seed + i) for i in range(args.games)]
            games = list(pool.map(one_game, jobs, chunksize=4))
        print(f"{len(games)} games in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.save:
        Path(args.save).write_text(json.dumps(games))
    for name in args.load:
        games += json.loads(Path(name).read_text())
    weights = fit(games, args.ridge)
    print("PHASE_WEIGHTS = (")
    for w in weights:
        print("    (" + ", ".join(f"{x:.3f}" for x in w) + "),")
    print(")")
    for name, col in zip(FEATURES, zip(*weights, strict=True), strict=True):
        print(f"# {name:16s} " + " ".join(f"{x:7.2f}" for x in col), file=sys.stderr)


if __name__ == "__main__":
    main()
