"""HexiFence and dots-and-boxes: one edge-capture engine on two layouts.

`HexiFence(size=N)`: the COMP30024 2016 game, hexagonal cells, N from 1 to 5.
`DotsAndBoxes(rows=R, cols=C)`: the same rules on R x C square boxes.
See docs/hexifence.md for rules, notation and conventions.
"""

from __future__ import annotations

from ...game import OptionError, get_game
from .edgecore import UNKNOWN, EdgeGame, EdgeState, Layout
from .layouts import hex_layout, square_layout
from .notation import parse_dots, parse_hex

__all__ = ["HexiFence", "DotsAndBoxes", "EdgeGame", "EdgeState", "Layout", "UNKNOWN"]


def _option(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


class HexiFence(EdgeGame):
    """HexiFence of dimension `size` (official sizes 2 and 3)."""

    name = "hexifence"
    title = "HexiFence"
    player_names = ("blue", "red")

    def __init__(self, size: int = 2) -> None:
        size = _option("size", size, 1, 5)
        super().__init__(hex_layout(size), size=size)

    def parse_position(self, text: str) -> EdgeState:
        """A board in the course's format; its first line sets the size, so a
        board of another size gives a state of that size's game."""
        return parse_hex(text, lambda n: get_game("hexifence", size=n))


class DotsAndBoxes(EdgeGame):
    """Dots-and-boxes with `rows` x `cols` boxes."""

    name = "dots"
    title = "Dots and Boxes"
    player_names = ("first", "second")

    def __init__(self, rows: int = 3, cols: int = 3) -> None:
        rows = _option("rows", rows, 1, 12)
        cols = _option("cols", cols, 1, 12)
        super().__init__(square_layout(rows, cols), rows=rows, cols=cols)

    def parse_position(self, text: str) -> EdgeState:
        """A line drawing; its size sets the board, like HexiFence's size line."""
        return parse_dots(text, lambda r, c: get_game("dots", rows=r, cols=c))
