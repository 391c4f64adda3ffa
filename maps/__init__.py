"""Board data: the Europe map as a data file and its loader/validator."""

from maps.board import Board, MapError, NationInfo, Region, board_from_data, load_board

__all__ = ["Board", "MapError", "NationInfo", "Region", "board_from_data", "load_board"]
