"""Board data: the Europe map as a data file and its loader/validator."""

from maps.board import Board, NationInfo, Region, board_from_data, load_board
from maps.errors import MapError
from maps.layout import MapLayout, Strait

__all__ = [
    "Board",
    "MapError",
    "MapLayout",
    "NationInfo",
    "Region",
    "Strait",
    "board_from_data",
    "load_board",
]
