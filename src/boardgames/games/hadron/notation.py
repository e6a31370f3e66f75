"""Hadron as text: cell names and positions.

A cell is named as in every grid game (`games.grid`): a row letter and a
column number, `E5`, with `A1` the top-left corner (rows go down, columns
right), or `row,col` as two 0-based integers; case-insensitive.  Move
index = row * cols + col.

A position is the list of moves from the start, White first (the protocol's
default `Game.parse_position`); `state.to_text()` writes it.
"""

from __future__ import annotations

from ...errors import NotationError
from ..grid import format_point, parse_point


def cell_names(rows: int, cols: int) -> list[str]:
    """The name of every cell of a rows x cols board, in move-index order."""
    return [format_point(i // cols, i % cols) for i in range(rows * cols)]


def parse_cell(text: str, rows: int, cols: int) -> int:
    """The move index of a cell name on a rows x cols board; NotationError otherwise."""
    if not isinstance(text, str):
        raise NotationError(str(text), "a cell name is text such as E5")
    row, col = parse_point(text, rows, cols)
    return row * cols + col
