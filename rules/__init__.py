"""The rules of Imperial as a library: no user interface, one way in (``Game.apply``)."""

from rules.actions import Action, NotationError, parse_action
from rules.errors import IllegalAction, SetupError
from rules.game import Game, Setup
from rules.options import OPTIONS
from rules.ruleset import RuleSet
from rules.scoring import Result
from rules.state import Awaiting, Event

__all__ = [
    "OPTIONS",
    "Action",
    "Awaiting",
    "Event",
    "Game",
    "IllegalAction",
    "NotationError",
    "Result",
    "RuleSet",
    "Setup",
    "SetupError",
    "parse_action",
]
