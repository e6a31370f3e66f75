"""Hadron as text: cell names and positions.

A cell is named as in every grid game (`games.grid`): a row letter and a
column number, `E5`, with `A1` the top-left corner (rows go down, columns
right), or `row,col` as two 0-based integers; case-insensitive.  Move
index = row * cols + col.

A position is the list of moves from the start, White first (the protocol's
default `Game.parse_position`); `state.to_text()` writes it.
"""

from __future__ import annotations

from functools import cache

from ..grid import format_point, parse_point


@cache
def cell_names(rows: int, cols: int) -> tuple[str, ...]:
    """The name of every cell of a rows x cols board, in move-index order."""
    return tuple(format_point(i // cols, i % cols) for i in range(rows * cols))


def parse_cell(text: str, rows: int, cols: int) -> int:
    """The move index of a cell name on a rows x cols board; NotationError otherwise."""
    row, col = parse_point(text, rows, cols)
    return row * cols + col
