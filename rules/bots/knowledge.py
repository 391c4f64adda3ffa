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


class Replay:
    """A game replayed from its set-up by its public moves, kept between calls so that each
    call replays only the moves made since the last one (an undo or another game starts it
    afresh). The cash tally and the table watch (``rules.bots.opponents``) read it."""

    __slots__ = ("_setup", "game")

    def __init__(self) -> None:
        self.game: Game | None = None
        self._setup = None

    def sync(self, game: Game, restart: bool = False) -> bool:
        """Start afresh when asked, or when ``game`` is another game or was undone past the
        replay; True when it started afresh. ``new_moves`` then says what to apply."""
        history = game.history
        replay = self.game
        if (
            restart
            or replay is None
            or self._setup is not game.setup
            or len(replay.plies) > len(history)
            or any(
                ply.action is not done and ply.action != done
                for ply, done in zip(replay.plies, history, strict=False)
            )
        ):
            self.game = Game(game.setup)
            self._setup = game.setup
            return True
        return False

    def new_moves(self, game: Game) -> list[Action]:
        """The moves of ``game`` the replay has not made yet (after ``sync``)."""
        assert self.game is not None
        return game.history[len(self.game.plies) :]


class CashTally:
    """Everyone's cash as the public moves leave it, from a ``Replay`` of the game."""

    __slots__ = ("_replay",)

    def __init__(self) -> None:
        self._replay = Replay()

    def cash(self, game: Game) -> list[int]:
        """Every player's cash as the public moves of ``game`` leave it."""
        self._replay.sync(game)
        replay = self._replay.game
        assert replay is not None
        for action in self._replay.new_moves(game):
            replay.apply(action)
        return list(replay._state.cash)
