"""A game's history as players read it: the numbered actions with the events they caused,
grouped by nation turn, as the app's log shows it (``imperial log``).

Each nation turn opens with the engine's heading event ("— round 2: Italy's turn (Ben) —"),
which the action that ended the previous turn caused; here it opens a new group instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.game import Game, Ply
from rules.scoring import Result, result_of
from rules.state import Event


def is_turn_heading(event: Event) -> bool:
    """The event that opens a nation's turn (the log shows it as a heading)."""
    return event.text.startswith("—")


@dataclass(slots=True)
class LoggedAction:
    number: int  # 1 for the first action of the game
    notation: str
    actor: str
    events: list[Event] = field(default_factory=list)


@dataclass(slots=True)
class TurnLog:
    """One nation turn (or the set-up): its heading, the events that happened before anyone
    decided, and the actions taken in it."""

    heading: str
    nation: str | None
    events: list[Event] = field(default_factory=list)
    actions: list[LoggedAction] = field(default_factory=list)


def decider(ply: Ply) -> str | None:
    """The player who took a recorded action: the one the engine awaited, or the donor (a
    donation needs no turn); None for an action taken with nobody awaited."""
    if ply.action.kind == "donate":
        return str(ply.action.actor)
    before = ply.before
    return before.players[before.awaiting_player] if before.awaiting_player >= 0 else None


def game_at(game: Game, n: int) -> Game:
    """The game as it stood after its first ``n`` actions (0: the start): an independent
    game whose history ends there, at exactly the position the engine recorded before action
    ``n + 1`` (the one ``undo`` restores). Raises ValueError outside 0..len(history)."""
    total = len(game.plies)
    if not 0 <= n <= total:
        raise ValueError(f"the game has {total} action{'s' if total != 1 else ''}, not {n}")
    other = game.copy()
    if n < total:
        other.plies = game.plies[:n]
        other.state = game.plies[n].before.copy()
    return other


def turn_logs(game: Game) -> list[TurnLog]:
    """The whole log, grouped by nation turn; the set-up (or the given position) first."""
    current = TurnLog("set-up", None)
    groups = [current]

    def add(event: Event, action: LoggedAction | None) -> LoggedAction | None:
        nonlocal current
        if is_turn_heading(event):
            current = TurnLog(event.text.strip("— "), event.nation)
            groups.append(current)
            return None  # what follows the heading belongs to the new turn
        if action is not None:
            action.events.append(event)
        else:
            current.events.append(event)
        return action

    for event in game.start_events:
        add(event, None)
    for number, ply in enumerate(game.plies, start=1):
        entry = LoggedAction(number, str(ply.action), ply.action.actor)
        current.actions.append(entry)
        logged: LoggedAction | None = entry
        for event in ply.events:
            logged = add(event, logged)
    return [g for g in groups if g.events or g.actions or g is not groups[0]]


def log_json(game: Game) -> dict[str, Any]:
    """``imperial log --json``: the same groups as plain data."""

    def ev(e: Event) -> dict[str, Any]:
        return {"text": e.text, "nation": e.nation}

    return {
        "actions": len(game.plies),
        "turns": [
            {
                "heading": g.heading,
                "nation": g.nation,
                "events": [ev(e) for e in g.events],
                "actions": [
                    {
                        "number": a.number,
                        "notation": a.notation,
                        "actor": a.actor,
                        "events": [ev(e) for e in a.events],
                    }
                    for a in g.actions
                ],
            }
            for g in turn_logs(game)
        ],
    }


def standings_by_round(game: Game) -> list[tuple[int, Result]]:
    """The provisional result (the score if the game ended there) at the end of each round,
    then now: ``(round, result)``, the last entry being the present position (the final
    result once the game is over). Read from the positions the history recorded."""
    out: list[tuple[int, Result]] = []
    current = None
    for ply in game.plies:
        r = ply.before.round
        if current is not None and r > current and current > 0:
            out.append((current, result_of(ply.before)))
        current = r
    out.append((game.state.round, game.provisional_result()))
    return out
