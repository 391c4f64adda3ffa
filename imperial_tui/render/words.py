"""Actions in a player's words: region names instead of ids, no notation.

The notation ('AH move army vienna -> west_balkan hostile') is the language of saves and the
shell; everywhere a player reads (the undo question, the history, the recap, a battle in the
unit list) the app says 'army Vienna -> West Balkan, hostile'. No Textual import.
"""

from __future__ import annotations

from rules import Action
from rules.actions import (
    BuildFactory,
    Buy,
    CanalPassage,
    ChangeStatus,
    ChooseRondel,
    DestroyFactory,
    Donate,
    EndManeuver,
    Fight,
    Import,
    MoveArmy,
    MoveFleet,
    NoFight,
    Pass,
    Produce,
    SwissBankForce,
)
from rules.economy import is_port
from rules.rondel import SPACE_NAMES
from rules.state import GameState


def region_name(s: GameState, rid: str | None) -> str:
    """A region's printed name ('north_sea' -> 'North Sea'), the id if unknown."""
    if rid is None:
        return "-"
    r = s.board.index.get(rid)
    return s.board.regions[r].name if r is not None else rid


SHORTER = (
    (" Sea", ""),
    (" Ocean", ""),
    ("Western ", "W. "),
    ("Eastern ", "E. "),
    ("Northern ", "N. "),
    ("Southern ", "S. "),
    ("North ", "N. "),
    ("South ", "S. "),
)


def short_name(name: str, width: int) -> str:
    """A region's name in ``width`` columns, still readable: 'Western Mediterranean Sea'
    becomes 'W. Mediterranean' in 16 (the sea word first, then the compass words); only a
    name still too long is cut, with a final '.' so that a cut shows."""
    for long, short in SHORTER:
        if len(name) <= width:
            break
        name = name.replace(long, short)
    return name if len(name) <= width else name[: width - 1] + "."


def canal_name(s: GameState, canal_id: str) -> str:
    """A canal's printed name ('panama' -> 'Panama Canal'), the id if unknown."""
    canal = next((c for c in s.board.canals if c.id == canal_id), None)
    return canal.name if canal is not None else canal_id


def space_label(space: str) -> str:
    """A rondel space as the rondel panel numbers it: 'Production1', 'Investor'."""
    return SPACE_NAMES.get(space, space) + (space[-1] if space[-1:] in ("1", "2") else "")


def _unit_at(s: GameState, rid: str) -> str:
    """What a factory there builds: 'a fleet' in a port, else 'an army'."""
    r = s.board.index.get(rid)
    return "a fleet" if r is not None and is_port(s, r) else "an army"


def action_words(s: GameState, action: Action, arrow: str = "->") -> str:
    """What an action does, without its actor in front ('army Vienna -> Serbia, hostile')."""
    a = action
    if isinstance(a, ChooseRondel):
        return f"moves to {space_label(a.space)}"
    if isinstance(a, BuildFactory):
        if a.region is None:
            return "builds no factory"
        r = s.board.index.get(a.region)
        what = "shipyard" if r is not None and is_port(s, r) else "armaments factory"
        return f"builds a {what} in {region_name(s, a.region)}"
    if isinstance(a, Produce):
        if a.region == "all":
            return "produces at every factory"
        if a.region == "done":
            return "stops producing"
        return f"produces {_unit_at(s, a.region)} in {region_name(s, a.region)}"
    if isinstance(a, Import):
        if a.unit is None:
            return "ends importing"
        return f"imports {'an army' if a.unit == 'army' else 'a fleet'} into " + region_name(
            s, a.region
        )
    if isinstance(a, MoveFleet):
        return f"fleet {region_name(s, a.origin)} {arrow} {region_name(s, a.dest)}"
    if isinstance(a, MoveArmy):
        text = f"army {region_name(s, a.origin)} {arrow} {region_name(s, a.dest)}"
        if a.status:
            text += f", {a.status}"
        if a.convoy:
            text += " by convoy over " + ", ".join(region_name(s, c) for c in a.convoy)
        return text
    if isinstance(a, ChangeStatus):
        return f"makes the army in {region_name(s, a.region)} {a.status}"
    if isinstance(a, Fight):
        return f"{a.unit} fights the {a.target} {a.target_unit} in {region_name(s, a.region)}"
    if isinstance(a, NoFight):
        return "does not fight"
    if isinstance(a, DestroyFactory):
        # (what it costs, said where it is chosen: a playtest saw the armies go unannounced)
        return f"destroys the factory in {region_name(s, a.region)}: it and 3 armies are removed"
    if isinstance(a, EndManeuver):
        return "ends the Maneuver"
    if isinstance(a, Buy):
        text = f"buys {a.nation} {a.value}M"
        return text + (f" returning {a.nation} {a.returning}M" if a.returning else "")
    if isinstance(a, Pass):
        return "passes"
    if isinstance(a, SwissBankForce):
        if a.force:
            return f"forces {a.nation} to stop on Investor"
        return f"lets {a.nation} pass Investor"
    if isinstance(a, Donate):
        return f"donates {a.amount}M to {a.nation}"
    if isinstance(a, CanalPassage):
        if a.allow:
            return f"lets {a.mover} through the {canal_name(s, a.canal)}"
        return f"refuses {a.mover} passage through the {canal_name(s, a.canal)}"
    text = str(action)  # a kind of action this module does not know yet
    return text[len(a.actor) + 1 :] if text.startswith(a.actor + " ") else text


def action_sentence(s: GameState, action: Action, arrow: str = "->") -> str:
    """The actor, then the action in words ('AH army Vienna -> Serbia', 'Ben buys GE 9M')."""
    return f"{action.actor} {action_words(s, action, arrow)}"
