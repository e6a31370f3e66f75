"""Connect Four as planes (6, 7, 2) for learning agents: the observer's
discs and the opponent's, top row first (as PettingZoo's connect_four)."""

from __future__ import annotations

import numpy as np

from boardgames.planes import Array, Planes

from .rules import COLS, ROWS, C4State, ConnectFourRules


class ConnectFourPlanes(Planes[ConnectFourRules]):
    def __init__(self, game: ConnectFourRules) -> None:
        super().__init__(game)
        self.shape = (ROWS, COLS)
        self.names = ("mine", "theirs")

    def encode(self, state: C4State, player: int) -> Array:
        # cell(col, row) = col * ROWS + row, row 0 at the bottom
        board = np.array(state.board, dtype=np.int8).reshape(COLS, ROWS).T[::-1]
        return self.stack([board == player, board == 1 - player])
