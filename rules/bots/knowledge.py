"""What a player at the table can know about the others' cash when cash is hidden.

Every payment in Imperial is public: the set-up money, bond purchases, interest, success
bonuses, the investor card's 2M, rondel fees, donations. An attentive player can therefore keep
a tally of everyone's cash from the moves alone, and so does a bot: it replays the moves of the
game from its set-up and reads the cash of that replay. It never reads another player's cash
from the position itself, so a figure that did not come from a public move (say, a position
edited by hand) stays unknown to it.
"""

from __future__ import annotations

from rules.actions import Action
from rules.game import Game


class CashTally:
    """The replayed game, kept between decisions so that each decision replays only the
    moves made since the last one (an undo or another game starts it afresh)."""

    __slots__ = ("_game", "_setup")

    def __init__(self) -> None:
        self._game: Game | None = None
        self._setup = None

    def cash(self, game: Game) -> list[int]:
        """Every player's cash as the public moves of ``game`` leave it."""
        history: list[Action] = game.history
        replay = self._game
        if (
            replay is None
            or self._setup is not game.setup
            or len(replay.plies) > len(history)
            or any(
                ply.action is not done and ply.action != done
                for ply, done in zip(replay.plies, history, strict=False)
            )
        ):
            replay = Game(game.setup)
            self._setup = game.setup
        for action in history[len(replay.plies) :]:
            replay.apply(action)
        self._game = replay
        return list(replay._state.cash)
