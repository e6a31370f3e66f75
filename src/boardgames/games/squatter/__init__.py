"""Squatter (Melbourne COMP30024, 2015): place stones, enclose loops, capture territory.

`rules` (the game and its states), `geometry` (board tables), `notation` (the
course's Part A board text and answer), `experts` (evaluators), `render`.
"""

from .notation import parse_board, part_a, write_board
from .rules import BLACK, WHITE, Squatter, SquatterState

__all__ = ["BLACK", "WHITE", "Squatter", "SquatterState", "parse_board", "part_a", "write_board"]
