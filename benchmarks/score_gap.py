"""Where a level's final score gap comes from, in recorded tournaments (run by hand):

    uv run python benchmarks/tournament.py strong normal normal normal --record sn.jsonl
    uv run python benchmarks/score_gap.py sn.jsonl --level strong

Each game of a record (``tournament.py --record``) is replayed from its moves. Printed per
level (all seats of it): the final score split into cash and bonds (interest times the
nation's final power factor), the interest bought and the final power factor it earned,
bonds bought early (rounds 1-6), in the middle (7-12) and late; the nation turns it
governed and what one of them brought its nation (power, flags, factories, treasury) and its
governor (cash); governments gained and lost. For ``--level``: its margin over the best
other seat at the end and every third round (by the evaluation), in games won and lost, and
that margin's parts at the end (cash, bonds, interest, power factor, and the interest held in
the strongest nation at the end: the one that ended the game, whose bonds count the most).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rules import Game, RuleSet  # noqa: E402
from rules.actions import Buy  # noqa: E402
from rules.bots.evaluation import values  # noqa: E402
from rules.state import NO, GameState  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
EVERY = 3  # rounds between two looks at the margin


def base_level(level: str) -> str:
    """``strong:processes=1`` counts as ``strong``."""
    return level.partition(":")[0]


def phase_of(round_: int) -> str:
    return "early" if round_ <= 6 else ("middle" if round_ <= 12 else "late")


def replay(line: dict) -> tuple[Game, list[str]]:
    spec = line["spec"]
    levels = [base_level(x) for x in spec["levels"]]
    rules = RuleSet.preset(spec["edition"], spec["variant"], spec.get("game", "imperial"))
    return Game.new(list(NAMES[: len(levels)]), rules, seed=spec["seed"]), levels


class Tally:
    """Counts over the games of a record, per level."""

    def __init__(self, focus: str) -> None:
        self.focus = focus
        self.seats: Counter[str] = Counter()
        self.sums: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.margins: defaultdict[tuple[bool, str], list[float]] = defaultdict(list)
        self.parts: defaultdict[bool, Counter[str]] = defaultdict(Counter)

    def add(self, line: dict) -> None:
        game, levels = replay(line)
        codes = [n.code for n in game.state.board.nations]
        buys: list[tuple[str, int, int, int]] = []  # level, round, nation, interest gained
        turn: tuple[str, int, int, GameState] | None = None  # level, nation, governor, before
        me = levels.index(self.focus) if self.focus in levels else NO
        margins: dict[str, float] = {}
        prev = list(game.state.government)
        for move in line["moves"]:
            s = game.state
            if me != NO and s.round % EVERY == 0 and f"round {s.round:02d}" not in margins:
                v = values(s)
                margins[f"round {s.round:02d}"] = v[me] - max(x for q, x in enumerate(v) if q != me)
            if s.awaiting_kind == "rondel":
                if turn is not None:
                    self._turn(turn, s)
                gov = s.government[s.turn]
                turn = (levels[gov], s.turn, gov, s) if gov != NO else None
            game.apply(move)
            a = game.history[-1]
            after = game.state
            if isinstance(a, Buy):
                costs = after.rules.bond_costs
                got = costs.index(a.value) + 1
                got -= costs.index(a.returning) + 1 if a.returning else 0
                buys.append((levels[NAMES.index(a.player)], s.round, codes.index(a.nation), got))
            gov_now = list(after.government)
            for old, new in zip(prev, gov_now, strict=True):
                if old != new:
                    if new != NO:
                        self.sums[levels[new]]["governments gained"] += 1
                    if old != NO:
                        self.sums[levels[old]]["governments lost"] += 1
            prev = gov_now
        self._end(line, levels, buys, me, margins)

    def _turn(self, turn: tuple[str, int, int, GameState], s: GameState) -> None:
        level, n, gov, before = turn
        c = self.sums[level]
        c["governed turns"] += 1
        c["power a governed turn"] += s.power[n] - before.power[n]
        c["flags a governed turn"] += s.flag.count(n) - before.flag.count(n)
        c["factories a governed turn"] += len(s.factories_of(n)) - len(before.factories_of(n))
        c["treasury a governed turn"] += s.treasury[n] - before.treasury[n]
        c["governor's cash a governed turn"] += s.cash[gov] - before.cash[gov]

    def _end(
        self,
        line: dict,
        levels: list[str],
        buys: list[tuple[str, int, int, int]],
        me: int,
        margins: dict[str, float],
    ) -> None:
        power = line["power"]
        factor = [p // 5 for p in power]
        scores, cash, interest = line["scores"], line["cash"], line["interest"]
        bonds = [sum(i * f for i, f in zip(row, factor, strict=True)) for row in interest]
        for p, level in enumerate(levels):
            self.seats[level] += 1
            c = self.sums[level]
            c["score"] += scores[p]
            c["cash"] += cash[p]
            c["bonds"] += bonds[p]
            c["interest"] += sum(interest[p])
            c["wins"] += line["shares"][p]
        for level, round_, n, got in buys:
            c = self.sums[level]
            c[f"interest bought {phase_of(round_)}"] += got
            c[f"factor x interest {phase_of(round_)}"] += got * factor[n]
        if me == NO:
            return
        won = line["shares"][me] > 0
        best = max((q for q in range(len(levels)) if q != me), key=lambda q: scores[q])
        for key, margin in margins.items():
            self.margins[(won, key)].append(margin)
        self.margins[(won, "end (score)")].append(scores[me] - scores[best])
        parts = self.parts[won]
        parts["games"] += 1
        parts["cash"] += cash[me] - cash[best]
        parts["bonds"] += bonds[me] - bonds[best]
        parts["interest"] += sum(interest[me]) - sum(interest[best])
        mine = sum(interest[me]) or 1
        theirs = sum(interest[best]) or 1
        parts["power factor"] += bonds[me] / mine - bonds[best] / theirs
        # the nation that ended the game counts the most: who holds more of it usually wins
        top = max(power)
        ending = [n for n, p in enumerate(power) if p == top]
        parts["interest in the strongest nation"] += sum(
            interest[me][n] - interest[best][n] for n in ending
        )

    def report(self) -> list[str]:
        out = []
        for level, seats in self.seats.items():
            c = self.sums[level]
            turns = c["governed turns"] or 1
            out.append(f"{level} ({seats} seat-games):")
            per_game = ("score", "cash", "bonds", "interest", "wins", "governed turns")
            out.append("  a game: " + ", ".join(f"{k} {c[k] / seats:.2f}" for k in per_game))
            out.append(
                "  governments a game: "
                f"gained {c['governments gained'] / seats:.2f}, "
                f"lost {c['governments lost'] / seats:.2f}"
            )
            bought = []
            for phase in ("early", "middle", "late"):
                got = c[f"interest bought {phase}"]
                if got:
                    earned = c[f"factor x interest {phase}"] / got
                    bought.append(f"{phase} {got / seats:.1f} (factor {earned:.2f})")
            out.append("  interest bought a game: " + ", ".join(bought))
            keys = [k for k in c if k.endswith("a governed turn")]
            each = (f"{k.removesuffix(' a governed turn')} {c[k] / turns:+.3f}" for k in keys)
            out.append("  a governed turn: " + ", ".join(each))
        if self.parts:
            out.append(f"{self.focus}'s margin over the best other seat (mean, share ahead):")
            for won in (True, False):
                games = self.parts[won]["games"]
                if not games:
                    continue
                label = "won" if won else "lost"
                row = []
                for (w, key), xs in sorted(self.margins.items()):
                    if w == won:
                        ahead = sum(x > 0 for x in xs) / len(xs)
                        row.append(f"{key} {sum(xs) / len(xs):+.1f} ({ahead:.0%})")
                out.append(f"  {games} {label}: " + "; ".join(row))
                parts = self.parts[won]
                out.append(
                    "    at the end: "
                    + ", ".join(
                        f"{k} {parts[k] / games:+.2f}"
                        for k in (
                            "cash",
                            "bonds",
                            "interest",
                            "power factor",
                            "interest in the strongest nation",
                        )
                    )
                )
        return out


def count(records: Iterable[str], focus: str) -> Tally:
    tally = Tally(focus)
    for name in records:
        with open(name, encoding="utf-8") as f:
            for text in f:
                if text.strip():
                    tally.add(json.loads(text))
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", help="tournament records (JSONL)")
    parser.add_argument("--level", default="strong", help="the level whose margin is shown")
    args = parser.parse_args(argv)
    print("\n".join(count(args.records, args.level).report()))


if __name__ == "__main__":
    main()
