"""How a bot level plays, counted over many all-bot games (run by hand, never a test):

    uv run python benchmarks/bot_habits.py [--level greedy] [--games 100] [--jobs 2]

4-player first-edition games, every seat the same level, seeds 0..N-1. Counts per game:
battles, hostile entries, factories built, units produced/imported, unit moves, idle units
left when a Maneuver ends, taxations and how many of them leave income after upkeep, rondel
money paid, turns that did nothing (production or import of nothing, a factory turn that builds
none, a maneuver that moves nothing), the share of Investor turns and of nations opening on
Investor, and where units stand at the end.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import Game, RuleSet  # noqa: E402
from rules.actions import (  # noqa: E402
    RONDEL_SPACES,
    BuildFactory,
    ChooseRondel,
    EndManeuver,
    Fight,
    Import,
    MoveArmy,
    MoveFleet,
    Produce,
)
from rules.bots import make_bot, play_out  # noqa: E402
from rules.economy import tax_of  # noqa: E402
from rules.rondel import cost_of  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dan")
KEYS = {
    "battles", "hostile_entries", "factories", "produced", "imported", "moves", "units_end",
    "maneuvers", "taxations", "rondel_paid", "noop", "noop_paid", "turns", "rounds",
    "actions", "winner_score", "unfinished",
}  # fmt: skip


def units_total(s) -> int:
    return sum(s.units_of(n) for n in range(6))


def footprint(s, skip_cash: int) -> tuple:
    """Everything a turn can change except the rondel marker and the fee paid for it."""
    cash = [c for p, c in enumerate(s.cash) if p != skip_cash]
    return (
        b"".join(s.armies), b"".join(s.fleets), b"".join(s.friendly),
        tuple(s.flag), tuple(s.factory), tuple(s.power), tuple(s.tax_level),
        tuple(s.treasury), tuple(map(tuple, s.bond_owner)), tuple(cash),
    )  # fmt: skip


def one_game(args: tuple[str, int]) -> Counter:
    level, seed = args
    game = Game.new(list(NAMES), RuleSet(), seed=seed)
    bots = {p: make_bot(level, seed * 10 + i) for i, p in enumerate(NAMES)}
    play_out(game, bots, max_actions=6000)
    c: Counter = Counter()
    c["games"] = 1
    c["unfinished"] = int(not game.is_over)
    c["actions"] = len(game.plies)
    plies = game.plies
    rondel_at = [i for i, ply in enumerate(plies) if isinstance(ply.action, ChooseRondel)]
    for j, i in enumerate(rondel_at):
        ply = plies[i]
        a, s = ply.action, ply.before
        n = s.awaiting_nation
        gov = s.awaiting_player
        nxt = plies[rondel_at[j + 1]].before if j + 1 < len(rondel_at) else game.state
        space = a.space.rstrip("12")
        fee = cost_of(s.rondel[n], RONDEL_SPACES.index(a.space))
        c["turns"] += 1
        c[f"space_{space}"] += 1
        c["rondel_paid"] += fee
        if s.rondel[n] == -1:
            c["openings"] += 1
            c[f"opening_{space}"] += 1
        if space == "taxation":
            tax, _, _ = tax_of(s, n)
            c["taxations"] += 1
            if tax - s.units_of(n) > 0:
                c["taxations_paying"] += 1
        if j + 1 < len(rondel_at) and footprint(s, gov) == footprint(nxt, gov):
            c["noop"] += 1
            c[f"noop_{space}"] += 1
            if fee:
                c["noop_paid"] += fee
    for i, ply in enumerate(plies):
        a, s = ply.action, ply.before
        after = plies[i + 1].before if i + 1 < len(plies) else game.state
        if isinstance(a, Fight):
            c["battles"] += 1
        elif isinstance(a, MoveArmy):
            c["moves"] += 1
            if a.status == "hostile":
                c["hostile_entries"] += 1
        elif isinstance(a, MoveFleet):
            c["moves"] += 1
        elif isinstance(a, BuildFactory) and a.region:
            c["factories"] += 1
        elif isinstance(a, Produce):
            c["produced"] += units_total(after) - units_total(s)
        elif isinstance(a, Import) and a.unit:
            c["imported"] += 1
        elif isinstance(a, EndManeuver):
            n = s.turn
            ctx = s.turn_ctx
            moved = sum(ctx.moved_armies.values()) + sum(ctx.moved_fleets.values())
            c["maneuvers"] += 1
            c["idle_at_end"] += s.units_of(n) - moved
    s = game.state
    home = sum(s.armies[n][r] + s.fleets[n][r] for n in range(6) for r in s.board.home[n])
    c["units_end"] = units_total(s)
    c["units_home_end"] = home
    result = game.result()
    c["rounds"] = s.round
    c["winner_score"] = max(result.scores.values()) if result else 0
    return c


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="greedy")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    total: Counter = Counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for c in pool.map(one_game, [(args.level, seed) for seed in range(args.games)]):
            total += c
    g = total["games"]
    per = {k: total[k] / g for k in KEYS | set(total)}
    print(f"{g} all-{args.level} 4-player games in {time.perf_counter() - start:.0f} s")
    print(f"  battles {per['battles']:.1f}, hostile entries {per['hostile_entries']:.1f}")
    print(f"  factories built {per['factories']:.1f} (all six nations)")
    print(
        f"  units produced {per['produced']:.1f} + imported {per['imported']:.1f}, "
        f"unit moves {per['moves']:.1f}, units at the end {per['units_end']:.1f} "
        f"({100 * total['units_home_end'] / max(1, total['units_end']):.0f}% at home)"
    )
    print(
        f"  maneuvers {per['maneuvers']:.1f}, idle units when a maneuver ends "
        f"{total['idle_at_end'] / max(1, total['maneuvers']):.1f} on average"
    )
    print(
        f"  taxations {per['taxations']:.1f}, paying after upkeep "
        f"{100 * total['taxations_paying'] / max(1, total['taxations']):.0f}%"
    )
    kinds = ("production", "import", "factory", "maneuver", "taxation", "investor")
    print(
        f"  rondel money paid {per['rondel_paid']:.0f}M; turns that change nothing "
        f"{per['noop']:.1f} of {per['turns']:.1f} ("
        + ", ".join(f"{k} {per.get('noop_' + k, 0):.1f}" for k in kinds)
        + f"), paying {per['noop_paid']:.1f}M for them"
    )
    print(
        f"  Investor {100 * total['space_investor'] / max(1, total['turns']):.0f}% of turns; "
        f"openings on Investor {100 * total['opening_investor'] / max(1, total['openings']):.0f}%"
    )
    print(
        f"  rounds {per['rounds']:.1f}, actions {per['actions']:.0f}, "
        f"winner's score {per['winner_score']:.0f}, unfinished {total['unfinished']}"
    )


if __name__ == "__main__":
    main()
