"""Errors the engine raises. Their messages are written for players, not programmers."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules do not allow now. ``reason`` is a sentence for the player;
    ``rule`` optionally names the rule it applies (``"Maneuver, rail"``), as ``rules.explain``
    cites it. Both stay plain strings so that front ends can show them as they are."""

    def __init__(self, reason: str, rule: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule


class SetupError(ValueError):
    """A game cannot be set up as asked (wrong player count, bad deal, unknown option)."""
