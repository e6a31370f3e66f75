"""Andantino as planes (19, 19, 3) on the hexagon's axial grid (row = z + 9,
column = x + 9 of a cell's cube coordinates): the observer's stones, the
opponent's, and the cells of the board (constant: the grid's corners are off it)."""

from __future__ import annotations

import numpy as np

from ...planes import Array, Planes
from .geometry import CUBES, RADIUS
from .rules import AndantinoRules, AndantinoState

SIDE = 2 * RADIUS + 1


class AndantinoPlanes(Planes[AndantinoRules]):
    """Andantino's planes: mine, theirs, and the board's cells."""
    def __init__(self, game: AndantinoRules) -> None:
        super().__init__(game)
        self.shape = (SIDE, SIDE)
        self.names = ("mine", "theirs", "board")
        #: Each cell's place in the flattened grid.
        self.place = np.array([(z + RADIUS) * SIDE + x + RADIUS for x, _, z in CUBES])
        self.board = np.zeros(SIDE * SIDE, dtype=np.int8)
        self.board[self.place] = 1

    def encode(self, state: AndantinoState, player: int) -> Array:
        """The planes of `state` as `player` sees them."""
        cells = np.array(state.board, dtype=np.int8)
        mine = np.zeros(SIDE * SIDE, dtype=np.int8)
        theirs = np.zeros(SIDE * SIDE, dtype=np.int8)
        mine[self.place] = cells == player
        theirs[self.place] = cells == 1 - player
        return self.stack([p.reshape(self.shape) for p in (mine, theirs, self.board)])
