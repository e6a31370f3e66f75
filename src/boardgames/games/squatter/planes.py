"""Squatter as planes (size, size, 4): the observer's live stones, the
opponent's, the observer's territory and the opponent's (captured cells,
the dead stones in them included: each player's score)."""

from __future__ import annotations

from ...planes import Array, Planes, bits
from .rules import SquatterRules, SquatterState


class SquatterPlanes(Planes[SquatterRules]):
    """Squatter's planes: the observer's stones and cells, the opponent's."""
    def __init__(self, game: SquatterRules) -> None:
        super().__init__(game)
        self.shape = (game.size, game.size)
        self.names = ("mine", "theirs", "my territory", "their territory")

    def encode(self, state: SquatterState, player: int) -> Array:
        """The planes of `state` as `player` sees them."""
        n = self.game.num_moves
        masks = (state.stones[player], state.stones[1 - player],
                 state.terr[player], state.terr[1 - player])  # fmt: skip
        return self.stack([bits(m, n).reshape(self.shape) for m in masks])
