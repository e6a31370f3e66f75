"""Hadron as planes (rows, cols, 2): the observer's stones, the opponent's."""

from __future__ import annotations

import numpy as np

from ...planes import Array, Planes
from .rules import HadronRules, HadronState


class HadronPlanes(Planes[HadronRules]):
    """Hadron's planes: the observer's stones and the opponent's."""
    def __init__(self, game: HadronRules) -> None:
        super().__init__(game)
        self.shape = (game.rows, game.cols)
        self.names = ("mine", "theirs")

    def encode(self, state: HadronState, player: int) -> Array:
        """The planes of `state` as `player` sees them."""
        board = np.array(state.board, dtype=np.int8).reshape(self.shape)
        return self.stack([board == player, board == 1 - player])
