"""Maneuver: fleets, then armies, then flags. (Movement arrives with the next change.)"""

from __future__ import annotations

from rules.actions import EndManeuver
from rules.common import Events, await_decision, clear_await, code, nname, say
from rules.state import GameState, ManeuverContext


def step_maneuver(s: GameState, ev: Events) -> None:
    n = s.turn
    await_decision(s, "maneuver", s.government[n], n, ManeuverContext())


def legal_maneuver(s: GameState) -> list[EndManeuver]:
    return [EndManeuver(code(s.turn))]


def apply_end_maneuver(s: GameState, a: EndManeuver, ev: Events) -> None:
    clear_await(s)
    say(ev, s, s.turn, f"{nname(s, s.turn)} ends its maneuver")


STEPS = {"maneuver": step_maneuver}
DECISIONS = {"maneuver": (legal_maneuver, {EndManeuver: apply_end_maneuver})}
