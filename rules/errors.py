"""Errors the engine raises. Their messages are written for players, not programmers."""


class IllegalAction(Exception):
    """An action that the rules do not allow now. ``reason`` is a sentence for the player."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SetupError(ValueError):
    """A game cannot be set up as asked (wrong player count, bad deal, unknown option)."""
