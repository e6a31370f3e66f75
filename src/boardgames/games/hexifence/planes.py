"""HexiFence and dots-and-boxes as planes on the board's point grid (the
layout's rows and columns, where every edge and every cell has a point):
the drawn edges, the observer's cells, the opponent's cells, and the places
of the edges (constant)."""

from __future__ import annotations

import numpy as np

from ...planes import Array, Planes, bits
from .rules import EdgeGame, EdgeState


class EdgePlanes(Planes[EdgeGame]):
    """The edge games' planes: edges drawn, my cells, their cells, edge places."""
    def __init__(self, game: EdgeGame) -> None:
        super().__init__(game)
        layout = game.layout
        self.shape = (layout.rows, layout.cols)
        self.names = ("edges", "my cells", "their cells", "edge places")
        self.edge_at = np.array([r * layout.cols + c for r, c in layout.edge_points])
        self.cell_at = np.array([r * layout.cols + c for r, c in layout.cell_points])
        self.places = np.zeros(layout.rows * layout.cols, dtype=np.int8)
        self.places[self.edge_at] = 1

    def encode(self, state: EdgeState, player: int) -> Array:
        """The planes of `state` as `player` sees them."""
        size = self.places.size
        edges = np.zeros(size, dtype=np.int8)
        edges[self.edge_at] = bits(state.mask, self.game.num_moves)
        owner = np.array(state.owner, dtype=np.int8)
        mine = np.zeros(size, dtype=np.int8)
        theirs = np.zeros(size, dtype=np.int8)
        mine[self.cell_at] = owner == player
        theirs[self.cell_at] = owner == 1 - player
        return self.stack([p.reshape(self.shape) for p in (edges, mine, theirs, self.places)])
