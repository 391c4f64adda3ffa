"""Following the game, for one viewer: where each player's "since your last turn" begins, the
recaps they were shown, and when computer players pause.

This is per-viewer state, owned by one App (with the SSH server, one per connection), never
by the shared game: the recap of a player starts right after *their* previous decision taken
in this app (or, for a game just opened, after their last decision in its history), so
hot-seat players each get their own, and a player at their own terminal gets theirs. No
Textual import: the App shows what this computes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from imperial_tui.model.reasons import reason_for
from imperial_tui.model.recap import Recap, recap
from imperial_tui.render.words import action_sentence
from rules.history import decider, game_at, is_turn_heading, turn_logs


def home_provinces(game: Any) -> dict[str, str]:
    """Home province id -> its nation's code (for "RU armies occupy Vienna (AH)")."""
    return {r.id: r.nation for r in game.state.board.regions if r.kind == "province" and r.nation}


def region_names(game: Any) -> dict[str, str]:
    """Region ids, and canal ids (Imperial 2030), to their printed names."""
    board = game.state.board
    return {r.id: r.name for r in board.regions} | {c.id: c.name for c in board.canals}


@dataclass(frozen=True, slots=True)
class Pause:
    """What the computer players did before they paused: a title and the log lines."""

    title: str
    lines: list[tuple[str | None, str]]  # (nation code or None, text)


@dataclass
class Following:
    """One viewer's marks (see the module's docstring)."""

    marks: dict[str, int] = field(default_factory=dict)  # player -> actions after their decision
    shown: dict[str, int] = field(default_factory=dict)  # player -> actions when last shown
    last: dict[str, Recap] = field(default_factory=dict)  # player -> the last recap shown
    paused_at: int = -1  # number of actions when the computer players last paused
    # player -> (first, last): they saw actions first+1 .. last happen on this screen
    watched: dict[str, tuple[int, int]] = field(default_factory=dict)

    # -- "since your last turn" ------------------------------------------------------------
    def decided(self, player: str, game: Any) -> None:
        """``player`` just took a decision in this app: their next recap starts here."""
        self.marks[player] = len(game.plies)
        self.shown[player] = len(game.plies)

    def watch(self, players: Iterable[str], first: int, last: int) -> None:
        """``players`` saw the game go from ``first`` actions to ``last`` on screen: what
        they saw happen needs no recap. A gap (moves made while they were away or another
        screen was up) starts their stretch again."""
        for player in players:
            start, end = self.watched.get(player, (first, first))
            self.watched[player] = (start if end == first else first, last)

    def base(self, game: Any, player: str) -> int:
        """The number of actions right after ``player``'s previous decision (taken in this
        app, else found in the history; 0 when they have not decided yet)."""
        total = len(game.plies)
        mark = self.marks.get(player)
        if mark is None:
            mark = 0
            for number in range(total, 0, -1):
                if decider(game.plies[number - 1]) == player:
                    mark = number
                    break
            self.marks[player] = mark
        return min(mark, total)

    def since(self, session: Any, player: str) -> Recap:
        """The recap for ``player`` from their previous decision to now."""
        game = session.view
        start, end = self.base(game, player), len(game.plies)
        plies = game.plies[start:end]
        actors = []
        for ply in plies:
            who = decider(ply)
            if who is not None and who != player and who not in actors:
                actors.append(who)
        found = Recap(player, start, end, actors)
        if start < end:
            before = game_at(game, start).summary()
            found.lines = recap(
                before,
                game.summary(),
                player,
                [p.action for p in plies],
                hidden_cash=session.hidden_cash,
                home_of=home_provinces(game),
                names=region_names(game),
                events=[event for ply in plies for event in ply.events],
            )
        return found

    def due(self, session: Any, player: str) -> Recap | None:
        """The recap to show now that ``player`` must decide, if there is news they have
        not seen yet (once per position: a repaint never shows it twice)."""
        end = len(session.view.plies)
        if self.shown.get(player) == end:
            return None
        self.shown[player] = end
        first, last = self.watched.get(player, (end, -1))
        if first <= self.base(session.view, player) and last >= end:
            return None  # they watched every move on this screen: nothing is news (w: again)
        found = self.since(session, player)
        if found.empty or not found.actors:
            return None
        self.last[player] = found
        return found

    def again(self, session: Any, player: str) -> Recap:
        """The w key: the current recap, or the last one shown when nothing changed since."""
        found = self.since(session, player)
        if found.empty and player in self.last:
            return self.last[player]
        return found

    # -- the computer players' pause -----------------------------------------------------------
    def pause_due(self, session: Any) -> Pause | None:
        """Whether computer players wait for a key now (the next decision being a computer's
        too): after each computer decision, or after a computer nation's whole turn."""
        game = session.view
        mode = getattr(session, "pause", "off")
        total = len(game.plies)
        if mode == "off" or not game.plies or self.paused_at == total:
            return None
        last = game.plies[-1]
        who = decider(last)
        if who is None or session.is_human(who):
            return None
        if mode == "decision":
            self.paused_at = total
            arrow = "->"
            why = reason_for(getattr(session, "reasons", {}), total, last.action)
            lines = [(None, action_sentence(game.state, last.action, arrow))]
            lines += [(e.nation, e.text) for e in last.events if not is_turn_heading(e)]
            if why:
                lines.append((None, f"{who} (computer): {why}"))
            return Pause(f"{who} (computer) decided", lines)
        if not any(is_turn_heading(e) for e in last.events) and not game.is_over:
            return None
        self.paused_at = total
        turns = [t for t in turn_logs(game) if t.actions]
        finished = turns[-1] if turns else None
        if finished is None:
            return None
        if any(session.is_human(decider_of(game, a.number)) for a in finished.actions):
            return None  # a human took part: they saw it happen
        lines: list[tuple[str | None, str]] = [(e.nation, e.text) for e in finished.events]
        for a in finished.actions:
            lines += [(e.nation, e.text) for e in a.events]
            why = reason_for(
                getattr(session, "reasons", {}), a.number, game.plies[a.number - 1].action
            )
            if why:
                lines.append((None, f"    {decider_of(game, a.number)} (computer): {why}"))
        return Pause(f"After {finished.heading}", lines)


def decider_of(game: Any, number: int) -> str | None:
    return decider(game.plies[number - 1])
