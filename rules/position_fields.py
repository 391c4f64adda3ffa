"""Reading the fields of a position document: each helper checks one value and, when it is
wrong, raises a ``PositionError`` naming the field (``nations.GE.treasury: ...``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import SetupError
from rules.state import GameState

MAX_MESSAGE = 400  # characters: a hostile file's keys and values may be of any length


class PositionError(SetupError):
    """A position cannot be read: one line naming the field and what is wrong with it. The
    message may quote the file, so it is made printable and cut here, once for every reader
    (a key holding a newline or an escape sequence would break the line or talk to the
    terminal)."""

    def __init__(self, message: str) -> None:
        from rules.savefile import printable

        super().__init__(printable(message, MAX_MESSAGE))


def fail(where: str, message: str) -> PositionError:
    from rules.savefile import printable

    return PositionError(f"{printable(where, 80)}: {message}" if where else message)


def show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def int_field(value: Any, where: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        raise fail(where, f"must be a whole number from {low} to {high}, not {show(value)}")
    return int(value)


def bool_field(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise fail(where, f"must be true or false, not {show(value)}")
    return value


def obj_field(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise fail(where, f"must be an object, not {show(value)}")
    return value


def list_field(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise fail(where, f"must be a list, not {show(value)}")
    return value


def known_fields(obj: Mapping[str, Any], where: str, allowed: set[str]) -> None:
    for key in obj:
        if key not in allowed:
            prefix = f"{where}." if where else ""
            choices = ", ".join(sorted(allowed))
            raise fail(f"{prefix}{key}", f"unknown field (fields here: {choices})")


def nation_field(value: Any, where: str, codes: tuple[str, ...]) -> int:
    """A nation code of this game (``codes``: the board's, in turn order)."""
    if value not in codes:
        raise fail(where, f"must be a nation code ({' '.join(codes)}), not {show(value)}")
    return codes.index(value)


def player_field(value: Any, where: str, s: GameState) -> int:
    if value not in s.players:
        raise fail(where, f"must be a player ({', '.join(s.players)}), not {show(value)}")
    return s.players.index(value)


def region_field(value: Any, where: str, s: GameState) -> int:
    if not isinstance(value, str) or value not in s.board.index:
        if value in s.board.impassable:
            raise fail(where, f"{value} is impassable: nothing can stand there")
        raise fail(where, f"no region {show(value)} on the map")
    return s.board.index[value]
