"""Board data: the Europe and the world (Imperial 2030) maps as data files, their loader."""

from maps.board import Board, Canal, NationInfo, Region, board_from_data, load_board
from maps.errors import MapError
from maps.layout import MapLayout, Strait

__all__ = [
    "Board",
    "Canal",
    "MapError",
    "MapLayout",
    "NationInfo",
    "Region",
    "Strait",
    "board_from_data",
    "load_board",
]
