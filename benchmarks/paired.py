"""Two versions of a level compared on the same deals, run by hand:

    uv run python benchmarks/paired.py strong --base a.jsonl --new b.jsonl
    uv run python benchmarks/paired.py strong --base a1.jsonl a2.jsonl --new b1.jsonl b2.jsonl

Each file is a ``benchmarks/tournament.py --record`` of the same table, deals and seat
rotation, the level under test in one seat (``strong`` also matches ``strong:budget=1.0``).
A game is paired with the other run's game of the same deal and seat order, so that the luck
of the deal falls on both: the difference of a pair is what the change did in that game, and
24 pairs tell apart what two separate runs of 24 games (each with an interval of about 20
percentage points either way) cannot. Printed: the wins of each version on the paired games,
how many pairs each did better in, and the mean change of the level's margin over the best
other seat (final score points) with its standard error.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from score_gap import base_level


@dataclass(frozen=True, slots=True)
class Seat:
    """The level's result in one recorded game."""

    share: float  # its share of the victory (1, a part of a shared one, or 0)
    margin: float  # its final score less the best other seat's


def matches(level: str, wanted: str) -> bool:
    """``strong:budget=1.0`` is a ``strong``; ``strong`` is not a ``strong:budget=1.0``."""
    return level == wanted or base_level(level) == wanted


def seats(lines: Iterable[str], level: str) -> dict[tuple[int, int], Seat]:
    """The level's result per game, by (deal, game index) (which fixes the seat order)."""
    out: dict[tuple[int, int], Seat] = {}
    for line in lines:
        if not line.strip():
            continue
        game = json.loads(line)
        spec = game["spec"]
        mine = [i for i, name in enumerate(spec["levels"]) if matches(name, level)]
        if len(mine) != 1:
            raise SystemExit(
                f"game {spec['index']} of deal {spec['seed']}: {level} not in one seat"
            )
        me = mine[0]
        scores = game["scores"]
        best_other = max(x for i, x in enumerate(scores) if i != me)
        out[(spec["seed"], spec["index"])] = Seat(game["shares"][me], scores[me] - best_other)
    return out


@dataclass(frozen=True, slots=True)
class Comparison:
    """What the new version did against the base, over the games both played."""

    pairs: int
    base_wins: float
    new_wins: float
    better: int  # pairs where the new version's margin is larger
    worse: int
    change: float  # mean change of the margin, points a game
    error: float  # its standard error

    def text(self, level: str) -> str:
        return (
            f"{level}: {self.pairs} paired games; wins {self.base_wins:g} (base) against "
            f"{self.new_wins:g} (new); the new version's margin over the best other seat "
            f"larger in {self.better}, smaller in {self.worse}; mean change "
            f"{self.change:+.1f} points a game (standard error {self.error:.1f})"
        )


def compare(base: dict[tuple[int, int], Seat], new: dict[tuple[int, int], Seat]) -> Comparison:
    keys = sorted(base.keys() & new.keys())
    if not keys:
        raise SystemExit("the two runs share no game (same --seed, --games and table?)")
    diffs = [new[k].margin - base[k].margin for k in keys]
    error = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return Comparison(
        pairs=len(keys),
        base_wins=sum(base[k].share for k in keys),
        new_wins=sum(new[k].share for k in keys),
        better=sum(d > 0 for d in diffs),
        worse=sum(d < 0 for d in diffs),
        change=statistics.fmean(diffs),
        error=error,
    )


def read(paths: list[Path], level: str) -> dict[tuple[int, int], Seat]:
    """The level's results in the files, or a one-line reason why a file cannot be read (a
    run still going has not written its record yet)."""
    out: dict[tuple[int, int], Seat] = {}
    for path in paths:
        try:
            out.update(seats(path.read_text().splitlines(), level))
        except OSError as error:
            raise SystemExit(f"{path}: {error.strerror or error}") from None
        except (ValueError, KeyError, IndexError, TypeError) as error:
            raise SystemExit(f"{path}: not a tournament record ({error!r})") from None
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("level", help="the level compared, e.g. strong")
    parser.add_argument("--base", type=Path, nargs="+", required=True, help="records before")
    parser.add_argument("--new", type=Path, nargs="+", required=True, help="records after")
    args = parser.parse_args(argv)
    print(compare(read(args.base, args.level), read(args.new, args.level)).text(args.level))


if __name__ == "__main__":
    main()
