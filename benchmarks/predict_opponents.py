"""How well the strong level's model of the other players predicts a level's choices.

The strong level's playouts simulate every other seat as a greedy player with some
randomness (``rules.bots.playout.simulated_pick`` with the level's ``explore``,
``others_temperature`` and ``rollout_eval``), or with greedy's exact choices for a seat the
table watch trusts (``rules.bots.opponents``). Against players it copies exactly it wins far more
often than against players it cannot (docs/BOTS.md), so how far the model misses a level's
real choices is worth knowing before changing it. This plays games (or replays those of a
tournament's ``--record`` file) and, at every rondel and bond decision of the watched level,
asks:

- did greedy's exact rule choose the same (what the table watch counts)?
- what chance did the playouts' simulated player give the choice made (``--draws`` draws)?
- for the rondel: where does the choice rank by greedy's one-nation-turn look-ahead, and how
  likely is it under a softmax of those values at several temperatures (a calibrated model's
  log-likelihood, against the simulated player's with the same floor)?

Run by hand; the figures are in docs/BOTS.md:

    uv run python benchmarks/predict_opponents.py --games 6 --seed 31001 normal normal normal normal
    uv run python benchmarks/predict_opponents.py --record games.jsonl --games 0 \
        --model others_temperature=3
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tournament import NAMES, wilson

from rules import engine
from rules.actions import Action
from rules.bots import make_bot
from rules.bots.evaluation import Weights
from rules.bots.greedy import greedy_invest, rondel_looks
from rules.bots.opponents import TableWatch, softmax_chance
from rules.bots.personalities import TEMPERS
from rules.bots.playout import simulated_pick
from rules.bots.policy import Policy
from rules.bots.search import STRONG
from rules.bots.settings import SearchSettings
from rules.bots.style import PLAIN, Style
from rules.game import Game
from rules.ruleset import RuleSet
from rules.state import GameState

TEMPERATURES = (0.5, 1.0, 2.0, 3.0, 4.0, 6.0)  # softmax temperatures tried, in points
FLOOR = 0.01  # the least chance a model is credited with (a log-likelihood stays finite)
MAX_ACTIONS = 3000  # a game longer than this is cut off
OTHER = -1  # the searching seat, as the model sees it: the watched player is one of the others


@dataclass(slots=True)
class Seen:
    """The watched level's decisions of one kind, as the models saw them."""

    greedy_hits: int = 0  # greedy's exact rule chose the same
    chances: list[float] = field(default_factory=list)  # the simulated player's, per decision
    ranks: Counter[int] = field(default_factory=Counter)  # rank by the look-ahead (rondel)
    looks: list[tuple[dict[str, float], str]] = field(default_factory=list)  # values, choice

    @property
    def count(self) -> int:
        return len(self.chances)


def note_decision(
    s: GameState,
    chosen: Action,
    draws: int,
    seen: dict[str, Seen],
    model: SearchSettings,
    rng: random.Random,
) -> None:
    """Score the models on one rondel or bond decision of the watched player (``chosen`` at
    ``s``); other decisions, and forced ones, are not noted."""
    kind = s.awaiting_kind
    actions = engine.legal_actions(s)
    if kind not in ("rondel", "invest") or len(actions) < 2:
        return
    simulated = Weights(learned=model.rollout_eval) if model.rollout_eval else Weights()
    note = seen.setdefault(kind, Seen())
    if kind == "rondel":
        quiet = Policy(random.Random(0), PLAIN)
        looks = {str(a): u for a, u in rondel_looks(s, actions, quiet, simulated)}
        exact = max(looks, key=looks.__getitem__)
        order = sorted(looks, key=looks.__getitem__, reverse=True)
        note.ranks[order.index(str(chosen)) if str(chosen) in order else -1] += 1
        note.looks.append((looks, str(chosen)))
    else:
        exact = str(greedy_invest(s, actions))
    note.greedy_hits += exact == str(chosen)
    policy = Policy(rng, Style(noise=model.noise))
    picks = [simulated_pick(s, actions, policy, rng, simulated, model, OTHER) for _ in range(draws)]
    note.chances.append(sum(p == chosen for p in picks) / draws)


def watch_game(
    levels: list[str],
    watched: str,
    seed: int,
    draws: int,
    seen: dict[str, Seen],
    budget: float | None = None,
    model: SearchSettings = STRONG,
) -> Game:
    """Play one game and note the watched level's rondel and bond decisions in ``seen``
    (``budget``: seconds a search level's decision, instead of its own; ``model``: the
    settings of the simulated player scored, by default the strong level's); returns it."""
    players = list(NAMES[: len(levels)])
    game = Game.new(players, RuleSet.preset("first", "standard", "imperial"), seed=seed)
    bots = {
        p: make_bot(lv, seed * 7 + i) for i, (p, lv) in enumerate(zip(players, levels, strict=True))
    }
    if budget is not None:
        for bot in bots.values():
            if hasattr(bot, "budget"):
                bot.budget = budget
    rng = random.Random(seed)
    try:
        while game.awaiting is not None and len(game.plies) < MAX_ACTIONS:
            player = game.awaiting.player
            s = game.state
            chosen = bots[player].decide(game).action
            if levels[players.index(player)] == watched:
                note_decision(s, chosen, draws, seen, model, rng)
            game.apply(chosen)
    finally:
        for bot in bots.values():
            bot.close()
    return game


def replay_game(
    record: dict[str, Any],
    watched: str,
    draws: int,
    seen: dict[str, Seen],
    model: SearchSettings = STRONG,
) -> Game:
    """Replay one game of a tournament's ``--record`` file and note the watched level's
    decisions, as ``watch_game`` does for a game it plays (no bot is asked: the models are
    scored on the very choices made at that table); returns it."""
    spec = record["spec"]
    levels = spec["levels"]
    players = list(NAMES[: len(levels)])
    rules = RuleSet.preset(spec["edition"], spec["variant"], spec.get("game", "imperial"))
    game = Game.new(players, rules, seed=spec["seed"])
    rng = random.Random(spec["seed"])
    for move in record["moves"]:
        s = game.state
        chosen = game.parse(move)
        if game.awaiting is not None and levels[players.index(game.awaiting.player)] == watched:
            note_decision(s, chosen, draws, seen, model, rng)
        game.apply(chosen)
    return game


def temper_reading(
    game: Game, levels: list[str], watched: str, temperature: float
) -> list[tuple[float, ...]]:
    """What the strong level's table watch (``read_tempers``) makes of each seat of the
    watched level by the game's end: the chance of each of ``TEMPERS``."""
    watch = TableWatch(temperature)
    watch.update(game, "")  # (no seat is the watcher's own)
    return [watch.tempers(p) for p, level in enumerate(levels) if level == watched]


def model_settings(changes: str) -> SearchSettings:
    """The strong level's settings with ``key=value,...`` changes (each value of the field's
    own type)."""
    model = STRONG
    for item in filter(None, changes.split(",")):
        key, sep, value = item.partition("=")
        if not sep or not hasattr(model, key):
            raise ValueError(f"not a setting: {item!r}")
        model = replace(model, **{key: type(getattr(model, key))(value)})
    return model


def report(seen: dict[str, Seen]) -> list[str]:
    lines = []
    for kind, note in seen.items():
        n = note.count
        low, high = wilson(note.greedy_hits, n)
        mean = sum(note.chances) / n
        ll = sum(math.log(max(FLOOR, c)) for c in note.chances) / n
        lines.append(
            f"{kind}: {n} decisions; greedy's exact rule chose the same in "
            f"{note.greedy_hits / n:.0%} ({low:.0%}-{high:.0%}); the simulated player gave the "
            f"choice made a mean chance of {mean:.2f} (log-likelihood {ll:.3f} a decision)"
        )
        if note.ranks:
            shown = ", ".join(
                f"{'not valued' if r < 0 else f'#{r + 1}'} {c / n:.0%}"
                for r, c in sorted(note.ranks.items())
            )
            lines.append(f"  rank of the choice by greedy's look-ahead: {shown}")
            for t in TEMPERATURES:
                chances = [softmax_chance(v, c, t) for v, c in note.looks]
                fit = sum(math.log(max(FLOOR, c)) for c in chances) / n
                lines.append(
                    f"  softmax of the look-ahead at {t:g} points: mean chance "
                    f"{sum(chances) / n:.2f}, log-likelihood {fit:.3f}"
                )
    return lines


def read_report(readings: list[tuple[float, ...]], temperature: float) -> str:
    """How the table watch read the watched level's seats at the games' ends."""
    n = len(readings)
    means = ", ".join(
        f"{t.name} {sum(r[i] for r in readings) / n:.2f}" for i, t in enumerate(TEMPERS)
    )
    taken = Counter(TEMPERS[max(range(len(r)), key=r.__getitem__)].name for r in readings)
    most = ", ".join(f"{name} in {k}" for name, k in taken.most_common())
    return (
        f"the table watch's reading at each game's end (softmax at {temperature:g} points), "
        f"mean chance: {means}; taken for {most} of {n} seats"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("levels", nargs="*", help="one level per seat, e.g. normal normal normal")
    parser.add_argument(
        "--record", type=Path, help="replay the games of a tournament's --record file instead"
    )
    parser.add_argument("--watch", default="normal", help="the level whose choices are noted")
    parser.add_argument("--games", type=int, default=4, help="games (0: every recorded one)")
    parser.add_argument("--seed", type=int, default=31001)
    parser.add_argument("--draws", type=int, default=30, help="simulated choices a decision")
    parser.add_argument("--budget", type=float, help="seconds a search level's decision")
    parser.add_argument(
        "--model",
        default="",
        help="the simulated player's settings changed from strong's, e.g. others_temperature=3",
    )
    args = parser.parse_args(argv)
    try:
        model = model_settings(args.model)
    except (TypeError, ValueError) as e:
        parser.error(f"--model: {e}")
    seen: dict[str, Seen] = {}
    readings: list[tuple[float, ...]] = []  # the table watch's reading of each watched seat
    temperature = model.others_temperature or 2.0
    if args.record:
        games = [json.loads(line) for line in args.record.read_text().splitlines() if line]
        for record in games[: args.games or None]:
            game = replay_game(record, args.watch, args.draws, seen, model)
            readings += temper_reading(game, record["spec"]["levels"], args.watch, temperature)
        where = f"{min(args.games or len(games), len(games))} recorded games of {args.record}"
    else:
        if not args.levels:
            parser.error("name the table's levels, or replay a --record file")
        if args.watch not in args.levels:
            parser.error(f"no seat plays {args.watch}")
        for g in range(args.games):
            seats = args.levels[g % len(args.levels) :] + args.levels[: g % len(args.levels)]
            game = watch_game(
                seats, args.watch, args.seed + g, args.draws, seen, args.budget, model
            )
            readings += temper_reading(game, seats, args.watch, temperature)
        where = (
            f"the table {' '.join(args.levels)}, {args.games} games from seed {args.seed}, "
            "seats rotated"
        )
    if not seen:
        parser.error(f"no decision of {args.watch} to score")
    print(
        f"{args.watch}'s choices at {where}, {args.draws} draws of the simulated player"
        f"{' (' + args.model + ')' if args.model else ''}:"
    )
    print("\n".join(report(seen)))
    print(read_report(readings, temperature))


if __name__ == "__main__":
    main()
