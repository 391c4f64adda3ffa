"""How bot levels play, counted over many all-bot games (run by hand, never a test):

    uv run python benchmarks/bot_habits.py [--level greedy] [--games 100] [--jobs 2] [--seed 0]
    uv run python benchmarks/bot_habits.py --levels strong,greedy,greedy,greedy --games 32
    uv run python benchmarks/bot_habits.py --records runs/strong-greedy.jsonl

The games are played here, or read from tournament records (``tournament.py --record``),
whose seats the counts then follow (their levels, their seeds, their set-up).

First-edition games, seeds ``--seed`` .. ``--seed + N - 1``; with ``--levels`` (comma- or, when
the levels carry settings, semicolon-separated) the seats rotate from game to game as in the
tournaments. Counted per level, per seat and game (a nation's
turn counts for the level of the player governing it then): battles, hostile entries,
factories built, units produced and imported, unit moves, idle units left when a Maneuver
ends, taxations and how many leave income after upkeep, rondel money paid, turns that change
nothing, the share of Investor turns, and two habits a person notices at once:

* **wasted rondel choices**: a turn whose space did nothing (a Factory that builds none, a
  Production or Import of nothing, a Maneuver that moves nothing) while another legal space
  would have changed the position; *declined* counts the turns whose action was on offer and
  refused (the Factory space chosen with the money and a free site, then no factory built);
* **idle units**: a unit that stood still through 5 of its nation's Maneuvers in a row while
  it had a useful move (one the rules of thumb value: a flag, a contested region, a home
  province to free, a factory to occupy); each such unit is counted once per stretch.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from rules import Game, RuleSet, engine  # noqa: E402
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
from rules.bots.greedy import changes_anything, finish_turn  # noqa: E402
from rules.bots.policy import Policy  # noqa: E402
from rules.bots.tactics import home_threats, move_value  # noqa: E402
from rules.decisions import Decision  # noqa: E402
from rules.economy import tax_of  # noqa: E402
from rules.rondel import move_cost  # noqa: E402
from rules.state import GameState  # noqa: E402

NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
IDLE_MANEUVERS = 5  # Maneuvers in a row a unit may stand still before it counts as idle
USEFUL = 0.5  # what the rules of thumb must value a move at for it to count as useful


def units_total(s: GameState) -> int:
    return sum(s.units_of(n) for n in range(len(s.armies)))


def footprint(s: GameState, skip_cash: int) -> tuple:
    """Everything a turn can change except the rondel marker and the fee paid for it."""
    cash = [c for p, c in enumerate(s.cash) if p != skip_cash]
    return (
        b"".join(s.armies), b"".join(s.fleets), b"".join(s.friendly),
        tuple(s.flag), tuple(s.factory), tuple(s.power), tuple(s.tax_level),
        tuple(s.treasury), tuple(map(tuple, s.bond_owner)), tuple(cash),
    )  # fmt: skip


def seat_levels(levels: tuple[str, ...], game_index: int) -> tuple[str, ...]:
    """The levels by seat for a game: rotated one seat per game, as in the tournaments."""
    shift = game_index % len(levels)
    return levels[-shift:] + levels[:-shift] if shift else levels


def another_space_does_something(s: GameState, chosen: ChooseRondel) -> bool:
    """Whether a legal rondel space other than ``chosen`` would change the position (its turn
    played by the plain rules of thumb)."""
    quiet = Policy(random.Random(0))
    for a in engine.legal_actions(s):
        if a == chosen:
            continue
        after, _ = engine.apply(s, a)
        if changes_anything(s, finish_turn(after, quiet)):
            return True
    return False


def declined(plies: list, start: int, end: int, space: str) -> bool:
    """The nation turn in ``plies[start:end]`` was offered its space's action and refused it."""
    for ply in plies[start + 1 : end]:
        a, kind, legal_more = ply.action, ply.before.awaiting_kind, False
        if kind == "build_factory" and space == "factory":
            legal_more = len(engine.legal_actions(ply.before)) > 1
            return legal_more and isinstance(a, BuildFactory) and a.region is None
        if kind == Decision.PRODUCE and space == "production":
            return isinstance(a, Produce) and a.region == "done"
        if kind == "import" and space == "import":
            legal_more = len(engine.legal_actions(ply.before)) > 1
            return legal_more and isinstance(a, Import) and a.unit is None
        if kind == "maneuver" and space == "maneuver":
            return isinstance(a, EndManeuver)
    return False


def useful_origins(s: GameState) -> set[tuple[str, int]]:
    """(unit kind, region) from which the maneuvering nation has a useful move."""
    n = s.turn
    threat = home_threats(s, n)
    out: set[tuple[str, int]] = set()
    index = s.board.index
    for a in engine.legal_actions(s):
        if isinstance(a, MoveArmy | MoveFleet):
            kind = "army" if isinstance(a, MoveArmy) else "fleet"
            key = (kind, index[a.origin])
            if key not in out and move_value(s, n, a, threat)[0] >= USEFUL:
                out.add(key)
    return out


class IdleWatch:
    """Per nation and (unit kind, region): how many units stood still in each of its last
    Maneuvers, and how many of them had a useful move each time."""

    def __init__(self, nations: int) -> None:
        self.still: list[dict[tuple[str, int], list[int]]] = [{} for _ in range(nations)]
        self.useful: list[dict[tuple[str, int], list[int]]] = [{} for _ in range(nations)]

    def maneuver(self, start: GameState, end: GameState) -> tuple[int, int]:
        """One Maneuver of ``start.turn`` (its first decision and its EndManeuver position);
        returns (units idle for IDLE_MANEUVERS Maneuvers, of which with a useful move)."""
        n = start.turn
        ctx = end.turn_ctx
        useful = useful_origins(start)
        idle = idle_useful = 0
        seen = set()
        for kind, counts in (("army", end.armies[n]), ("fleet", end.fleets[n])):
            for r, count in enumerate(counts):
                if not count:
                    continue
                if kind == "army":
                    moved = ctx.moved_armies.get((r, True), 0) + ctx.moved_armies.get((r, False), 0)
                else:
                    moved = ctx.moved_fleets.get(r, 0)
                key = (kind, r)
                seen.add(key)
                still = count - moved
                history = self.still[n].setdefault(key, [])
                useful_history = self.useful[n].setdefault(key, [])
                history.append(still)
                useful_history.append(still if key in useful else 0)
                if len(history) >= IDLE_MANEUVERS:
                    stretch = min(history[-IDLE_MANEUVERS:])
                    useful_stretch = min(useful_history[-IDLE_MANEUVERS:])
                    if stretch:
                        idle += stretch
                        idle_useful += useful_stretch
                        # counted once per stretch: the next count needs five more
                        history.clear()
                        useful_history.clear()
        for key in list(self.still[n]):
            if key not in seen:
                del self.still[n][key]
                del self.useful[n][key]
        return idle, idle_useful


def one_game(args: tuple[tuple[str, ...], int]) -> dict[str, Counter]:
    """One game played here; counts per level (a level in several seats sums over them)."""
    from tournament import build_bot

    levels, seed = args
    names = list(NAMES[: len(levels)])
    game = Game.new(names, RuleSet(), seed=seed)
    bots = {
        p: build_bot(level, seed * 10 + i)
        for i, (p, level) in enumerate(zip(names, levels, strict=True))
    }
    try:
        while game.awaiting is not None and len(game.plies) < 6000:
            game.apply(bots[game.awaiting.player].choose(game))
    finally:
        for bot in bots.values():
            bot.close()
    return count_game(game, levels)


def recorded_game(line: dict) -> dict[str, Counter]:
    """A game of a tournament record (``tournament.py --record``), replayed from its moves."""
    spec = line["spec"]
    levels = tuple(spec["levels"])
    names = list(NAMES[: len(levels)])
    game = Game.new(names, RuleSet.preset(spec["edition"], spec["variant"]), seed=spec["seed"])
    for move in line["moves"]:
        game.apply(move)
    return count_game(game, levels)


def count_game(game: Game, levels: tuple[str, ...]) -> dict[str, Counter]:
    """The habits of a finished game, per level of the seats."""
    names = list(game.players)
    counts: dict[str, Counter] = {level: Counter() for level in levels}
    plies = game.plies
    rondel_at = [i for i, ply in enumerate(plies) if isinstance(ply.action, ChooseRondel)]
    for j, i in enumerate(rondel_at):
        ply = plies[i]
        a, s = ply.action, ply.before
        n = s.awaiting_nation
        gov = s.awaiting_player
        c = counts[levels[gov]]
        end = rondel_at[j + 1] if j + 1 < len(rondel_at) else len(plies)
        nxt = plies[end].before if end < len(plies) else game.state
        space = a.space.rstrip("12")
        fee = move_cost(s, n, RONDEL_SPACES.index(a.space))
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
        if declined(plies, i, end, space):
            c["declined"] += 1
            c[f"declined_{space}"] += 1
        if j + 1 < len(rondel_at) and footprint(s, gov) == footprint(nxt, gov):
            c["noop"] += 1
            c[f"noop_{space}"] += 1
            if fee:
                c["noop_paid"] += fee
            if another_space_does_something(s, a):
                c["wasted"] += 1
                c[f"wasted_{space}"] += 1
    watch = IdleWatch(len(game.state.armies))
    maneuver_start: GameState | None = None
    for i, ply in enumerate(plies):
        a, s = ply.action, ply.before
        c = counts[levels[s.awaiting_player]]
        after = plies[i + 1].before if i + 1 < len(plies) else game.state
        if s.awaiting_kind == "maneuver" and maneuver_start is None:
            maneuver_start = s
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
            idle, idle_useful = watch.maneuver(maneuver_start or s, s)
            c["idle5"] += idle
            c["idle5_useful"] += idle_useful
            maneuver_start = None
    result = game.result()
    s = game.state
    for p, level in enumerate(levels):
        c = counts[level]
        c["games"] += 1
        if result is not None:
            c["wins"] += (names[p] in result.winners) / len(result.winners)
            c["score"] += result.scores[names[p]]
    total = counts[levels[0]]
    total["table_games"] += 1
    total["unfinished"] += int(not game.is_over)
    total["rounds"] += s.round
    total["actions"] += len(plies)
    return counts


def report(level: str, c: Counter, seats: float) -> list[str]:
    def per(key: str) -> float:
        return c[key] / max(1.0, seats)

    turns = max(1, c["turns"])
    kinds = ("production", "import", "factory", "maneuver")
    return [
        f"{level} ({seats:.0f} seat-games, wins {c['wins']:.1f}, average score "
        f"{c['score'] / max(1.0, seats):.0f}):",
        f"  battles {per('battles'):.1f}, hostile entries {per('hostile_entries'):.1f}, "
        f"factories built {per('factories'):.2f} a seat and game",
        f"  units produced {per('produced'):.1f} + imported {per('imported'):.1f}, unit moves "
        f"{per('moves'):.1f}, maneuvers {per('maneuvers'):.1f}; idle units when a maneuver ends "
        f"{c['idle_at_end'] / max(1, c['maneuvers']):.1f} on average",
        f"  taxations {per('taxations'):.1f}, paying after upkeep "
        f"{100 * c['taxations_paying'] / max(1, c['taxations']):.0f}% "
        f"({c['taxations_paying']} of {c['taxations']}); paying taxations "
        f"{per('taxations_paying'):.1f} a seat and game",
        f"  wasted rondel choices {c['wasted']} in {c['turns']} turns ({per('wasted'):.2f} a seat "
        "and game: "
        + ", ".join(f"{k} {c['wasted_' + k]}" for k in kinds)
        + f"); declined actions {c['declined']} ("
        + ", ".join(f"{k} {c['declined_' + k]}" for k in kinds)
        + ")",
        f"  units idle {IDLE_MANEUVERS} Maneuvers in a row with a useful move {c['idle5_useful']} "
        f"({per('idle5_useful'):.2f} a seat and game); idle {IDLE_MANEUVERS} in a row at all "
        f"{c['idle5']}",
        f"  turns that change nothing {per('noop'):.1f} of {per('turns'):.1f} a seat and game, "
        f"paying {c['noop_paid']}M for them; rondel money paid {per('rondel_paid'):.0f}M; "
        f"Investor {100 * c['space_investor'] / turns:.0f}% of turns",
    ]


def seed_ranges(seeds: Iterable[int]) -> str:
    """The deals of recorded games, in ranges: "deals 9101-9106, 9201-9206"."""
    out: list[list[int]] = []
    for seed in sorted(set(seeds)):
        if out and seed == out[-1][1] + 1:
            out[-1][1] = seed
        else:
            out.append([seed, seed])
    return "deals " + ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="greedy", help="the level of all four seats")
    parser.add_argument("--levels", help="one level per seat, comma-separated (seats rotate)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument(
        "--records", nargs="*", default=[], help="count tournament records instead of playing"
    )
    args = parser.parse_args(argv)
    levels = tuple(args.levels.split(";" if ";" in args.levels else ",")) if args.levels else ()
    levels = levels or (args.level,) * 4
    start = time.perf_counter()
    total: dict[str, Counter] = {}
    seeds = f"seeds {args.seed}-{args.seed + args.games - 1}"
    players: int | str = len(levels)
    if args.records:
        lines = []
        for name in args.records:
            with Path(name).open() as f:
                lines += [json.loads(line) for line in f if line.strip()]
        results = [recorded_game(line) for line in lines]
        # every level of every record (files from different tables may be counted together)
        levels = tuple(dict.fromkeys(lv for line in lines for lv in line["spec"]["levels"]))
        seeds = seed_ranges(line["spec"]["seed"] for line in lines)
        sizes = sorted({len(line["spec"]["levels"]) for line in lines})  # tables may differ
        players = " and ".join(map(str, sizes)) if sizes else players
        args.games = len(lines)
    elif args.jobs <= 1:
        jobs = [(seat_levels(levels, i), args.seed + i) for i in range(args.games)]
        results = list(map(one_game, jobs))
    else:
        jobs = [(seat_levels(levels, i), args.seed + i) for i in range(args.games)]
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one_game, jobs))
    for counts in results:
        for level, c in counts.items():
            total.setdefault(level, Counter()).update(c)
    table = sum((c for c in total.values()), Counter())
    g = table["table_games"]
    print(
        f"{g} games of {players} players ({', '.join(levels)}), {seeds}, "
        f"in {time.perf_counter() - start:.0f} s; "
        f"{table['rounds'] / max(1, g):.1f} rounds, {table['actions'] / max(1, g):.0f} actions a "
        f"game, {table['unfinished']} unfinished"
    )
    for level in dict.fromkeys(levels):
        c = total[level]
        print("\n".join(report(level, c, c["games"])))


if __name__ == "__main__":
    main()
