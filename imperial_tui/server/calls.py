"""The owner/worker contract in one table: every call a worker (or another host) may make to
the process that runs a game, and every event the owner pushes to its workers.

Both sides read this table: ``mirror.py`` sends a call with ``Op`` and the arguments named
here; ``owner.py`` checks each message against it (a message from another process is bad
input like any other: a missing or ill-typed argument is refused, never a crash) and answers
it with the handler of the same name. ``FORWARDED`` says which ``Table``/``Hub`` method a
copy turns into which call, and ``LOCAL`` lists, with the reason, the ``Table`` methods that
change a copy in place by design. A test (tests/test_server_calls.py) reads ``Table``'s
source and fails when a method that changes a table is in neither, so a new operation cannot
silently run in a worker's copy only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from imperial_tui.server.wire import WireError


class Op(StrEnum):
    """A call to the process that runs the games."""

    HELLO = "hello"  # which games exist (then one TABLE call each)
    READY = "ready"  # the worker serves
    ADMIT = "admit"  # may this user's session start? (the server's and the user's caps)
    RELEASE = "release"  # that session ended
    LOGGED_IN = "logged_in"  # a handed connection authenticated (no longer a start-up)
    CLOSED = "closed"  # a handed connection ended
    CONNECT = "connect"  # a connected terminal: rung when its user's turn begins
    DISCONNECT = "disconnect"
    CREATE = "create"  # a new game
    TABLE = "table"  # a game's whole state
    JOIN = "join"  # take a free seat
    APPLY = "apply"  # a move
    UNDO = "undo"
    SAY = "say"  # a chat line
    PACE = "pace"  # the computer players' pace


class Ev(StrEnum):
    """What the owner pushes to a worker."""

    TABLE = "table"  # a table changed: the log lines the worker has not had
    TURN = "turn"  # a connection's user's decision began: ring
    STOP = "stop"  # tell your players and end


# JSON types of arguments (bool is an int in Python: checked apart)
INT, STR, FLOAT, LIST, DICT = int, str, (int, float), list, dict


@dataclass(frozen=True, slots=True)
class Call:
    """One call: its required and optional arguments (name -> JSON type), whether it names
    a game (``id``, and ``have``: the log lines the caller holds; the answer then carries
    that game's state), and whether a game run by another host takes it (``hosts``)."""

    op: Op
    args: Mapping[str, Any] = field(default_factory=dict)
    optional: Mapping[str, Any] = field(default_factory=dict)
    game: bool = False
    hosts: bool = False


CALLS: dict[Op, Call] = {
    c.op: c
    for c in (
        Call(Op.HELLO),
        Call(Op.READY),
        Call(Op.ADMIT, {"user": STR}),
        Call(Op.RELEASE, {"user": STR}),
        Call(Op.LOGGED_IN, {"peer": STR}),
        Call(Op.CLOSED, {"peer": STR}),
        Call(Op.CONNECT, {"user": STR, "client": INT}),
        Call(Op.DISCONNECT, {"client": INT}),
        Call(
            Op.CREATE,
            {"creator": STR, "seats": LIST, "rules": DICT, "hidden_cash": INT},
            {"seed": INT, "title": STR},
        ),
        Call(Op.TABLE, game=True),
        Call(Op.JOIN, {"user": STR}, game=True, hosts=True),
        # expect: the game version the player chose on (this process's numbering); moves:
        # the same from another host, as the number of moves and undos in the log
        Call(
            Op.APPLY,
            {"user": STR, "action": STR},
            {"expect": INT, "moves": INT},
            game=True,
            hosts=True,
        ),
        Call(Op.UNDO, {"user": STR}, game=True, hosts=True),
        Call(Op.SAY, {"user": STR, "text": STR}, game=True, hosts=True),
        Call(Op.PACE, {"pace": FLOAT}, game=True, hosts=True),
    )
}

# The methods a copy of a table (a worker's, or a host's copy of a game another host runs)
# turns into calls: "Table.apply" is answered by the owner's Table.apply, and so on.
FORWARDED: dict[str, Op] = {
    "Table.apply": Op.APPLY,
    "Table.undo": Op.UNDO,
    "Table.say": Op.SAY,
    "Table.set_pace": Op.PACE,
    "Hub.join": Op.JOIN,
    "Hub.create_game": Op.CREATE,
}

# Table methods that change a table and still run in a copy, each with the reason that is
# right. Everything else that changes a table must be in FORWARDED.
LOCAL: dict[str, str] = {
    "view_for": "caches a viewer's copy of the position (no game state changes)",
    "_changed": "tells this process's screens; the version it bumps is per process",
    "seats_changed": "tells this process's screens (the owner says when seats changed)",
    "_check_turn": "rings this process's terminals; --notify runs in the owner only",
    "_make_bots": "a copy overrides it with nothing: the owner runs the computer players",
    "wake": "a copy overrides it with nothing: the owner wakes its tables",
    "_kick": "moves computer players, of whom a copy has none",
    "_bot_move": "moves computer players, of whom a copy has none",
    "stop": "stops this process's computer players, of whom a copy has none",
    "start": "only the owner's Hub.join and Hub.create_game start a game (both forwarded)",
    "resume": "only the owner's Hub.load rebuilds a game from the store",
    "_commit": "reached only through apply and the computer players, both the owner's",
}


def check(message: Mapping[str, Any]) -> tuple[Op, Call]:
    """The call a message makes, its arguments checked against the table: WireError (one
    line) for an unknown call or a missing or ill-typed argument."""
    try:
        op = Op(message.get("op"))
    except ValueError:
        raise WireError(f"an unknown call {str(message.get('op'))[:40]!r}") from None
    call = CALLS[op]
    needed = dict(call.args, id=INT) if call.game else call.args
    for name, kind in needed.items():
        if name not in message:
            raise WireError(f"call {op}: no {name}")
        _check_type(op, name, message[name], kind)
    for name, kind in call.optional.items():
        if message.get(name) is not None:
            _check_type(op, name, message[name], kind)
    if call.game and message.get("have") is not None:
        _check_type(op, "have", message["have"], INT)
    return op, call


def _check_type(op: Op, name: str, value: Any, kind: Any) -> None:
    # (JSON's true is a Python int: a number is never a bool here, but an INT may be one)
    if (isinstance(value, bool) and kind is not INT) or not isinstance(value, kind):
        raise WireError(f"call {op}: {name} is not a {getattr(kind, '__name__', 'number')}")
