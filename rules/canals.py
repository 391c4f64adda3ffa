"""Canals (Imperial 2030, RULES_2030.md §2.3): who may cross, and the canal decision.

Two canals join a pair of seas each (Panama: Caribbean Sea - North Pacific, controlled from
Colombia; Suez: Mediterranean - Indian Ocean, from North Africa). Another nation's fleet
moving between the two seas, or its army convoyed along a chain of fleets that crosses
between them, needs the permission of the nation whose flag stands in the controlling
region. Its government is asked when the move is made, before anything moves: decision
``canal``, answered with ``BR allows US through panama`` or ``BR refuses US through panama``.

- No flag in the controlling region, or the mover's own flag: free passage.
- A controlling nation without a government: free (option ``canal_ungoverned=free``) or
  closed to every other nation (``closed``).
- One player governing both nations: asked all the same (``canal_same_government=ask``) or
  let through at once (``allow``).
- A yes is for that crossing only. After a no, the unit refused may still do anything else
  but not ask again this Maneuver (``canal_refusal=unit``), or the canal stays closed to the
  moving nation while the same nation controls it (``maneuver``).
- A convoy through both canals asks each controller in the order the route crosses them; a
  no from either withdraws it. A flag that changes hands during the Maneuver decides every
  crossing asked after it (the gates are read from the position each time).

This module holds what move generation needs (``gates``, ``blocked``) and the decision
itself; applying the move that was asked about is ``rules.maneuver``'s.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass

from rules.actions import CanalPassage, MoveArmy, MoveFleet
from rules.common import Events, await_decision, clear_await, code, nname, rname, say
from rules.decisions import Decision
from rules.errors import IllegalAction
from rules.state import NO, GameState

CANAL = Decision.CANAL  # the decision kind

FLEET, ARMY = "fleet", "army"
# refusals of a Maneuver, counted by (origin region, unit kind, canal index, nation asked)
Refusals = dict[tuple[int, str, int, int], int]


@dataclass(frozen=True, slots=True)
class Gate:
    """A canal a nation may not cross freely now: ``asks`` is the nation whose government
    is asked, or NO when it is closed (a controller without government, option closed)."""

    canal: int  # index in board.canals
    asks: int


# sea pair (both orders) -> gate; empty when every canal is free for the nation
Gates = dict[tuple[int, int], Gate]
NO_GATES: Gates = {}


def gates(s: GameState, n: int) -> Gates:
    """The canals nation ``n`` may not cross freely in the position ``s``."""
    canals = s.board.canals
    if not canals:
        return NO_GATES
    out: Gates = {}
    rules = s.rules
    for i, canal in enumerate(canals):
        m = s.flag[canal.controller]
        if m in (NO, n):
            continue
        governor = s.government[m]
        if governor == NO:
            if rules.canal_ungoverned == "free":
                continue
            gate = Gate(i, NO)
        elif rules.canal_same_government == "allow" and governor == s.government[n]:
            continue
        else:
            gate = Gate(i, m)
        a, b = canal.seas
        out[(a, b)] = out[(b, a)] = gate
    return out


def crossed(g: Gates, seas: Iterable[int]) -> list[Gate]:
    """The gates a chain of seas crosses, in the order it crosses them."""
    if not g:
        return []
    return [g[pair] for pair in itertools.pairwise(seas) if pair in g]


def route_pairs(g: Gates) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    """(pairs that ask, pairs that are closed) for the convoy search of ``rules.geometry``."""
    asked = frozenset(pair for pair, gate in g.items() if gate.asks != NO)
    closed = frozenset(pair for pair, gate in g.items() if gate.asks == NO)
    return asked, closed


def blocked(refused: Refusals, mode: str, origin: int, unit: str, gate: Gate, units: int) -> bool:
    """Whether a refusal keeps a unit at ``origin`` (``units`` of that kind there have not
    moved) from asking to cross ``gate`` again this Maneuver."""
    if not refused:
        return False
    if mode == "maneuver":
        return any(k[2] == gate.canal and k[3] == gate.asks for k in refused)
    return units - refused.get((origin, unit, gate.canal, gate.asks), 0) <= 0


def after_departure(refused: Refusals, origin: int, unit: str, through: list[Gate]) -> Refusals:
    """A unit left ``origin`` (crossing the gates ``through``): it counts as one that was
    refused elsewhere, if any was (units of a kind are interchangeable), so the others keep
    their right to ask."""
    if not refused:
        return refused
    canals = {(g.canal, g.asks) for g in through}
    out = dict(refused)
    for key, count in refused.items():
        if key[0] == origin and key[1] == unit and (key[2], key[3]) not in canals:
            if count > 1:
                out[key] = count - 1
            else:
                del out[key]
    return out


def check(
    s: GameState,
    n: int,
    refused: Refusals,
    origin: int,
    unit: str,
    seas: list[int],
    units: int,
) -> list[Gate]:
    """The gates a move of nation ``n`` across ``seas`` must ask at, in route order;
    IllegalAction when one is closed or a refusal stops the unit from asking (``units`` of
    its kind at ``origin`` have not moved)."""
    if not s.board.canals:
        return []
    through = crossed(gates(s, n), seas)
    stop = barrier(s, refused, origin, unit, through, units)
    if stop is not None:
        raise IllegalAction(refusal_words(s, stop))
    return through


def barrier(
    s: GameState, refused: Refusals, origin: int, unit: str, through: list[Gate], units: int
) -> Gate | None:
    """The first of the gates ``through`` that is closed to the unit, or that a refusal this
    Maneuver stops it from asking at; None when it may ask at each (the one rule behind
    both the move list and applying a move)."""
    mode = s.rules.canal_refusal
    for gate in through:
        if gate.asks == NO or blocked(refused, mode, origin, unit, gate, units):
            return gate
    return None


def refused(refusals: Refusals, origin: int, unit: str, canal: int, asked: int) -> Refusals:
    """The refusals with one more: nation ``asked`` refused a unit at ``origin``."""
    out = dict(refusals)
    key = (origin, unit, canal, asked)
    out[key] = out.get(key, 0) + 1
    return out


def refusal_words(s: GameState, gate: Gate) -> str:
    canal = s.board.canals[gate.canal]
    if gate.asks == NO:
        owner = s.flag[canal.controller]
        return (
            f"the {canal.name} is closed: {nname(s, owner)} controls it from "
            f"{rname(s, canal.controller)} and has no government (rule option "
            "canal_ungoverned=closed)"
        )
    return (
        f"{nname(s, gate.asks)} has already refused passage through the {canal.name} this Maneuver"
    )


# ------------------------------------------------------------------------------- the decision


@dataclass(frozen=True, slots=True)
class CanalRequest:
    """A move waiting for the canal controllers' answers: ``asking`` holds (canal index,
    nation asked) still to answer, the one asked now first."""

    move: MoveFleet | MoveArmy
    asking: tuple[tuple[int, int], ...]


def ask(s: GameState, n: int, move: MoveFleet | MoveArmy, through: list[Gate], ev: Events) -> None:
    """Nation ``n`` asks to cross the gates ``through`` (in route order) for ``move``."""
    request = CanalRequest(move, tuple((g.canal, g.asks) for g in through))
    _ask_first(s, n, request, ev)


def _ask_first(s: GameState, n: int, request: CanalRequest, ev: Events) -> None:
    canal_i, m = request.asking[0]
    canal = s.board.canals[canal_i]
    board, move = s.board, request.move
    origin, dest = board[move.origin].name, board[move.dest].name
    if isinstance(move, MoveArmy):
        unit = f"an army through the {canal.name}: by convoy from {origin} to {dest}"
    else:
        unit = f"a fleet through the {canal.name}: from the {origin} into the {dest}"
    say(
        ev,
        s,
        n,
        f"{nname(s, n)} asks {nname(s, m)} ({s.players[s.government[m]]}) to let {unit}",
    )
    await_decision(s, CANAL, s.government[m], m, request)


def legal_canal(s: GameState) -> list[CanalPassage]:
    request: CanalRequest = s.ctx
    canal_i, m = request.asking[0]
    args = (code(s, m), code(s, s.turn), s.board.canals[canal_i].id)
    return [CanalPassage(*args, True), CanalPassage(*args, False)]


def apply_canal(s: GameState, a: CanalPassage, ev: Events) -> None:
    """The controller's answer: a yes lets the move go on (to the next canal, or it is
    made); a no withdraws it and records the refusal."""
    from rules.battles import back_to_maneuver
    from rules.maneuver import perform_move, record_refusal

    request: CanalRequest = s.ctx
    canal_i, m = request.asking[0]
    canal = s.board.canals[canal_i]
    n = s.turn
    if a.canal != canal.id or a.mover != code(s, n):
        raise IllegalAction(
            f"the question is whether {code(s, n)} may pass through {canal.id}: "
            f"'{legal_canal(s)[0]}' or '{legal_canal(s)[1]}'"
        )
    clear_await(s)
    move = request.move
    what = "convoy" if isinstance(move, MoveArmy) else "fleet"
    if not a.allow:
        say(
            ev,
            s,
            m,
            f"{nname(s, m)} refuses a {what} of {nname(s, n)} passage through the "
            f"{canal.name}: nothing moves",
        )
        record_refusal(s, move, canal_i, m)
        back_to_maneuver(s)
        return
    say(ev, s, m, f"{nname(s, m)} lets a {what} of {nname(s, n)} through the {canal.name}")
    rest = request.asking[1:]
    if rest:
        _ask_first(s, n, CanalRequest(move, rest), ev)
        return
    perform_move(s, move, ev)
