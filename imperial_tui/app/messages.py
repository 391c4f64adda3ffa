"""Small messages between the panels and the game screen."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from rules import Action


@dataclass
class ActionChosen(Message):
    """A human picked one of the legal actions in the decision panel; ``follow`` names a
    step the app takes right after it (``"produce_all"``: a Production space then produces
    at every factory)."""

    action: Action
    follow: str | None = None


@dataclass
class DonateRequested(Message):
    """The decision panel's 'donate' entry was chosen."""

    nation: str | None


@dataclass
class GameChanged(Message):
    """The game moved on (an action, an undo, a load): panels repaint if their figures
    changed."""

    version: int
