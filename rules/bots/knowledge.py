"""The game replayed from its set-up by its public moves, for the table watch
(``rules.bots.opponents``): what the other players were offered and chose. (What a bot may
know of the others' cash is the rules' per-player view: ``rules.view``.)"""

from __future__ import annotations

from rules.actions import Action
from rules.game import Game


class Replay:
    """A game replayed from its set-up by its public moves, kept between calls so that each
    call replays only the moves made since the last one (an undo or another game starts it
    afresh)."""

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
