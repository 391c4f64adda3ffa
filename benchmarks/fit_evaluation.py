"""Fit the evaluation's weights on played games (run by hand; the result is pasted into
``rules/bots/evaluation.py`` as a table of ``PHASE_WEIGHTS``):

    uv run python benchmarks/fit_evaluation.py --games 400 --levels greedy normal [--jobs 2]
    uv run python benchmarks/fit_evaluation.py --games 0 --records runs/*.jsonl --extended

Games come from two sources: played here by the given levels in every set-up (2-6 players,
both editions, all variants; a level may carry settings as in the tournaments,
``normal:playouts=12``), and the games of tournaments recorded with ``tournament.py
--record`` (their moves are replayed), which is how the search levels' own games enter the
fit. Positions are sampled at rondel decisions, and for each phase of the game (the
strongest nation's power 0-4, 5-9, 10-14, 15-19, 20-25) a ridge regression fits each
player's final score on his features (``rules.bots.features``; with ``--extended`` also the
strong level's ``EXTRA_FEATURES``), both taken relative to the table's mean: what a position
is worth is how far ahead of the others it leads. Prints the weights, the fit (R²) and how
often the best-valued player went on to win, on the games fitted and, with ``--holdout``, on
games left out of the fit.
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
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from rules import Game, RuleSet  # noqa: E402
from rules.bots.features import EXTRA_FEATURES, FEATURES, player_features  # noqa: E402

NAMES = ["A", "B", "C", "D", "E", "F"]
CONFIGS = [
    (players, edition, variant)
    for players in (2, 3, 4, 5, 6)
    for edition in ("first", "2010")
    for variant in ("standard", "standard", "experienced", "no-investor-card")
]
PHASES = 5
SAMPLE = 0.35  # share of rondel decisions sampled


def phase_of(max_power: int) -> int:
    return min(PHASES - 1, max_power // 5)


def one_game(args: tuple[tuple[str, ...], int]) -> dict:
    """A game played here: its set-up, moves and result (features are taken at fit time)."""
    from tournament import build_bot

    levels, seed = args
    players, edition, variant = CONFIGS[seed % len(CONFIGS)]
    names = NAMES[:players]
    game = Game.new(names, RuleSet.preset(edition, variant), seed=seed)
    rng = random.Random(seed)
    bots = {p: build_bot(rng.choice(levels), seed * 10 + i) for i, p in enumerate(names)}
    try:
        while game.awaiting is not None and len(game.plies) < 6000:
            game.apply(bots[game.awaiting.player].choose(game))
    finally:
        for bot in bots.values():
            bot.close()
    return {
        "players": players,
        "edition": edition,
        "variant": variant,
        "seed": seed,
        "moves": [str(a) for a in game.history],
    }


def from_record(line: dict) -> dict:
    """A game of a tournament record (``tournament.py --record``)."""
    spec = line["spec"]
    return {
        "names": ["Anna", "Ben", "Cleo", "Dan", "Eve", "Finn"][: len(spec["levels"])],
        "players": len(spec["levels"]),
        "edition": spec["edition"],
        "variant": spec["variant"],
        "seed": spec["seed"],
        "moves": line["moves"],
    }


def samples(game_doc: dict, extended: bool) -> dict:
    """Replay a game and sample its positions: (phase's power, features per player), with
    the final scores and winners (an unfinished game has nothing to teach)."""
    names = game_doc.get("names") or NAMES[: game_doc["players"]]
    rules = RuleSet.preset(game_doc["edition"], game_doc["variant"])
    game = Game.new(names, rules, seed=game_doc["seed"])
    rng = random.Random(game_doc["seed"] * 31 + len(game_doc["moves"]))
    out = []
    for move in game_doc["moves"]:
        s = game.state
        if s.awaiting_kind == "rondel" and rng.random() < SAMPLE:
            out.append((max(s.power), player_features(s, extended=extended)))
        game.apply(move)
    result = game.result()
    if result is None:
        return {"samples": [], "final": [0] * len(names), "winners": []}
    return {
        "samples": out,
        "final": [result.scores[p] for p in names],
        "winners": [names.index(w) for w in result.winners],
    }


def solve(rows: list[list[float]], ys: list[float], ridge: float) -> list[float]:
    """Ridge least squares by the normal equations (a dozen or two features: no numpy)."""
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


def rows_of(games: list[dict], phase: int) -> tuple[list[list[float]], list[float]]:
    rows: list[list[float]] = []
    ys: list[float] = []
    for g in games:
        mean = sum(g["final"]) / len(g["final"])
        for max_power, feats in g["samples"]:
            if phase_of(max_power) == phase:
                rows += centred(feats)
                ys += [f - mean for f in g["final"]]
    return rows, ys


def quality(w, games: list[dict], phase: int) -> tuple[float, float]:
    """(R² of the final scores, share of positions whose best-valued player won) of weights
    ``w``: a list, or a function of the strongest nation's power giving one (a table of
    ``rules.bots.evaluation``, blended between phases as the evaluation does)."""
    pred: list[float] = []
    ys: list[float] = []
    hits = total = 0
    for g in games:
        win = set(g["winners"])
        mean = sum(g["final"]) / len(g["final"])
        for max_power, feats in g["samples"]:
            if phase_of(max_power) != phase:
                continue
            coef = w(max_power) if callable(w) else w
            vals = [sum(a * b for a, b in zip(coef, f, strict=False)) for f in feats]
            centre = sum(vals) / len(vals)
            pred += [v - centre for v in vals]
            ys += [f - mean for f in g["final"]]
            hits += vals.index(max(vals)) in win
            total += 1
    ss = sum((p - y) ** 2 for p, y in zip(pred, ys, strict=True))
    st = sum(y * y for y in ys) or 1.0
    return 1 - ss / st, hits / max(1, total)


def check(table: int, games: list[dict]) -> None:
    """How well an existing table of ``rules.bots.evaluation`` predicts ``games``."""
    from rules.bots.evaluation import TABLES, phase_weights

    for phase in range(PHASES):
        r2, hits = quality(lambda p: phase_weights(p, TABLES[table]), games, phase)
        print(
            f"table {table}, phase {phase}: R² {r2:.2f}, best-valued player wins {hits:.0%}",
            file=sys.stderr,
        )


def fit(games: list[dict], ridge: float = 0.01, holdout: list[dict] | None = None) -> list:
    width = len(next(f for g in games for _, f in g["samples"])[0])
    weights = []
    for phase in range(PHASES):
        rows, ys = rows_of(games, phase)
        w = solve(rows, ys, ridge) if rows else [0.0] * width
        r2, hits = quality(w, games, phase)
        line = (
            f"phase {phase} (power {5 * phase}+): {len(rows)} rows, R² {r2:.2f}, "
            f"best-valued player wins {hits:.0%}"
        )
        if holdout:
            r2, hits = quality(w, holdout, phase)
            line += f"; held out: R² {r2:.2f}, best-valued wins {hits:.0%}"
        print(line, file=sys.stderr)
        weights.append(w)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games to play here")
    parser.add_argument(
        "--levels", nargs="+", default=["greedy"], help="levels to draw each seat from"
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ridge", type=float, default=0.01)
    parser.add_argument("--extended", action="store_true", help="fit EXTRA_FEATURES too")
    parser.add_argument("--save", help="also write the games played here to this JSON file")
    parser.add_argument("--load", nargs="*", default=[], help="add games saved before")
    parser.add_argument("--records", nargs="*", default=[], help="tournament records (JSONL)")
    parser.add_argument("--holdout", type=float, default=0.0, help="share of games left out")
    parser.add_argument("--check", type=int, nargs="*", default=[], help="tables to judge")
    args = parser.parse_args()
    levels = tuple(args.levels)
    start = time.perf_counter()
    docs: list[dict] = []
    if args.games:
        with ProcessPoolExecutor(args.jobs) as pool:
            jobs = [(levels, args.seed + i) for i in range(args.games)]
            docs = list(pool.map(one_game, jobs, chunksize=4))
        print(f"{len(docs)} games in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    if args.save:
        Path(args.save).write_text(json.dumps(docs))
    for name in args.load:
        docs += json.loads(Path(name).read_text())
    for name in args.records:
        with Path(name).open() as lines:
            docs += [from_record(json.loads(line)) for line in lines if line.strip()]
    games = [samples(doc, args.extended) for doc in docs]
    games = [g for g in games if g["samples"]]
    random.Random(args.seed).shuffle(games)
    cut = int(len(games) * args.holdout)
    held, games = games[:cut], games[cut:]
    for table in args.check:
        check(table, held or games)
    print(f"fitting on {len(games)} games ({len(held)} held out)", file=sys.stderr)
    weights = fit(games, args.ridge, held)
    print("PHASE_WEIGHTS = (")
    for w in weights:
        print("    (" + ", ".join(f"{x:.3f}" for x in w) + "),")
    print(")")
    names = FEATURES + (EXTRA_FEATURES if args.extended else ())
    for name, col in zip(names, zip(*weights, strict=True), strict=True):
        print(f"# {name:20s} " + " ".join(f"{x:7.2f}" for x in col), file=sys.stderr)


if __name__ == "__main__":
    main()
