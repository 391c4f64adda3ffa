"""Recorded games: the engine lists the same legal actions, in the same order, logs the same
events and reaches the same result as when the record was made.

This is the safety net for speed work on the engine: a faster move generator or a cheaper copy
must never change a legal-move list or an outcome. Every set-up (2-6 players, both editions,
all variants) is played with seeded random choices; each game is reduced to one hash of every
decision (who decides what, the full list of legal actions, the choice), every event and the
final state summary.

A deliberate rules change changes the record. Re-record then, and say so in the commit:

    uv run python tests/test_engine_golden.py --record
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # when run as a script to re-record
    sys.path.insert(0, str(ROOT))

from rules import Game, RuleSet  # noqa: E402

RECORD = Path(__file__).parent / "data" / "engine_golden.json"
NAMES = ("Anna", "Ben", "Cleo", "Dan", "Eve", "Finn")
CONFIGS = [
    (players, edition, variant)
    for players in range(2, 7)
    for edition in ("first", "2010")
    for variant in ("standard", "experienced", "no-investor-card")
]
MAX_ACTIONS = 5000


def fingerprint(players: int, edition: str, variant: str, seed: int) -> str:
    """The hash of one seeded random game, decision by decision."""
    rng = random.Random(seed)
    game = Game.new(list(NAMES[:players]), RuleSet.preset(edition, variant), seed=seed)
    h = hashlib.sha256()
    for event in game.start_events:
        h.update(f"{event.nation}|{event.text}\n".encode())
    for _ in range(MAX_ACTIONS):
        awaiting = game.awaiting
        if awaiting is None:
            break
        actions = game.legal_actions()
        who = f"{awaiting.player}|{awaiting.kind.value}|{awaiting.nation}"
        h.update(f"{who}\n{'|'.join(map(str, actions))}\n".encode())
        choice = rng.randrange(len(actions))
        h.update(f"{choice}\n".encode())
        for event in game.apply(actions[choice]):
            h.update(f"{event.nation}|{event.text}\n".encode())
    h.update(json.dumps(game.summary(), sort_keys=True).encode())
    return h.hexdigest()


def cases() -> list[tuple[int, str, str, int]]:
    return [(*config, seed) for config in CONFIGS for seed in (11, 12)]


def key(players: int, edition: str, variant: str, seed: int) -> str:
    return f"{players}p-{edition}-{variant}-{seed}"


@pytest.mark.parametrize(("players", "edition", "variant", "seed"), cases(), ids=lambda c: str(c))
def test_recorded_games_replay_identically(
    players: int, edition: str, variant: str, seed: int
) -> None:
    recorded = json.loads(RECORD.read_text())
    want = recorded[key(players, edition, variant, seed)]
    assert fingerprint(players, edition, variant, seed) == want, (
        "the engine lists different actions, logs different events or ends differently than "
        "when this game was recorded; if a rule changed on purpose, re-record (see the module)"
    )


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(__doc__)
    RECORD.parent.mkdir(exist_ok=True)
    out = {key(*case): fingerprint(*case) for case in cases()}
    RECORD.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"recorded {len(out)} games in {RECORD}")
