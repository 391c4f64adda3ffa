"""How predictable the other players at the table are.

A search player's playouts simulate greedy players in every seat. Against greedy players that
simulation is exact, and looking many nation turns ahead pays; against players who think
further it is an approximation that drifts with every simulated turn, and a far horizon then
judges futures that will not happen (measured: looking 10 nation turns ahead won 85% of 40
games against three greedy players but 9 of 30 against three normal ones). So a search player
with ``SearchSettings.far_horizon`` watches the table as a player does: for each rondel choice
another player makes, it asks what the greedy rule would have chosen there, and looks far
ahead only while the table plays as predicted. The strong level does (10 nation turns once 4
choices were seen and 90% of them predicted, 6 otherwise); docs/BOTS.md has the tournaments.

Only public moves are used: the position before each choice is a replay of the game's moves
from its set-up (``rules.bots.knowledge.Replay``), so with hidden cash the
other players' cash stays what the moves say, never what the position holds.
"""

from __future__ import annotations

import random

from rules import engine
from rules.actions import Action, ChooseRondel
from rules.bots.greedy import greedy_rondel
from rules.bots.knowledge import Replay
from rules.bots.policy import Policy, overdue_taxation
from rules.bots.style import PLAIN
from rules.errors import IllegalAction
from rules.game import Game, Ply
from rules.state import GameState


def greedy_prediction(plies: list[Ply], s: GameState, actions: list[Action]) -> Action:
    """The rondel space the greedy player picks here: taxation when it is overdue, else
    greedy's own choice (``rules.bots.greedy.greedy_rondel``)."""
    overdue = overdue_taxation(plies, s, actions)
    if overdue is not None:
        return overdue
    return greedy_rondel(s, actions, Policy(random.Random(0), PLAIN))


class TableWatch:
    """Counts how many of the other players' rondel choices the greedy rule predicted. Keeps
    its replay between decisions, so each decision looks only at the moves since the last
    (an undo or another game starts it afresh)."""

    __slots__ = ("_me", "_replay", "agreed", "by_player", "seen")

    def __init__(self) -> None:
        self._replay = Replay()
        self._me: str | None = None
        self.agreed = 0
        self.seen = 0
        self.by_player: dict[int, list[int]] = {}  # seat -> [choices seen, as predicted]

    def update(self, game: Game, me: str) -> None:
        """Look at the rondel choices made since the last call by players other than ``me``."""
        if self._replay.sync(game, restart=self._me != me):
            self._me = me
            self.agreed = self.seen = 0
            self.by_player = {}
        replay = self._replay.game
        assert replay is not None
        for action in self._replay.new_moves(game):
            aw = replay.awaiting
            if isinstance(action, ChooseRondel) and aw is not None and aw.player != me:
                s = replay._state
                legal = engine.legal_actions(s)
                if len(legal) > 1:
                    hit = greedy_prediction(replay.plies, s, legal) == action
                    self.seen += 1
                    self.agreed += hit
                    counts = self.by_player.setdefault(s.awaiting_player, [0, 0])
                    counts[0] += 1
                    counts[1] += hit
            try:
                replay.apply(action)
            except IllegalAction:
                # the moves do not replay from the set-up (a position edited by hand): the
                # watch has seen what it could; it starts afresh if the game is undone
                self._replay = Replay()
                self._me = None
                return

    def predictable(self, share: float, least: int) -> bool:
        """At least ``least`` choices seen, and at least ``share`` of them as predicted."""
        return self.seen >= least and self.agreed >= share * self.seen

    def trust(self, player: int, low: float, high: float, least: int) -> float:
        """How far the playouts may copy ``player`` exactly, from 0 to 1: 0 until ``least``
        of his choices were seen or while at most ``low`` of them were predicted, 1 from
        ``high`` on, in proportion between (a soft switch instead of all or nothing)."""
        seen, agreed = self.by_player.get(player, (0, 0))
        if seen < least:
            return 0.0
        rate = agreed / seen
        return min(1.0, max(0.0, (rate - low) / (high - low)))
