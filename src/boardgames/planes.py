"""A position as a stack of 0/1 planes: what a learning agent observes.

`Planes` turns a state into a numpy array of shape `shape + (len(names),)`
(channels last, as PettingZoo's classic environments do), seen from one
player: a plane named "mine ..." holds that player's pieces and "theirs ..."
the opponent's, so one network can play both sides.  A game declares its
planes with `register_game(..., observation="module:Class")`; the class is
built once per game (its index tables with it) and imported only when an
environment asks for it.  A game that declares none gets `MovePlanes`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import numpy as np
import numpy.typing as npt

from .game import Game, State

G = TypeVar("G", bound=Game[Any])
Array = npt.NDArray[np.int8]


class Planes(Generic[G]):
    """How one game (at one size) is observed; subclasses fill `shape` and
    `names` in `__init__` and implement `encode`."""

    #: The spatial shape of one plane: (rows, cols) for a board, (n,) for a list.
    shape: tuple[int, ...]
    #: What each plane holds, in order; "mine"/"theirs" are relative to the observer.
    names: tuple[str, ...]

    def __init__(self, game: G) -> None:
        self.game = game

    @property
    def full_shape(self) -> tuple[int, ...]:
        """The observation's shape: `shape` then one channel per plane."""
        return (*self.shape, len(self.names))

    def encode(self, state: Any, player: int) -> Array:
        """The planes of `state` as `player` (0 or 1) sees them, int8 0/1."""
        raise NotImplementedError

    def stack(self, planes: list[Array]) -> Array:
        """Planes of `shape`, stacked channels last."""
        return np.stack(planes, axis=-1).astype(np.int8, copy=False)


def bits(mask: int, count: int) -> Array:
    """The low `count` bits of `mask` as a 0/1 array, bit 0 first."""
    raw = np.frombuffer(mask.to_bytes((count + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:count].astype(np.int8)


class MovePlanes(Planes[Game[Any]]):
    """The fallback for a game that declares no planes: one entry per move
    index, set where that player made that move (complete for games in which
    no move index is played twice, as on a board of cells or edges)."""

    def __init__(self, game: Game[Any]) -> None:
        super().__init__(game)
        self.shape = (game.num_moves,)
        self.names = ("mine", "theirs")

    def encode(self, state: State[Any], player: int) -> Array:
        """One plane per player over the move indices, as `player` sees them."""
        planes = np.zeros((2, self.game.num_moves), dtype=np.int8)
        replay = self.game.new_state()
        for move in state.history:
            planes[0 if replay.to_move == player else 1, move] = 1
            replay.make(move)
        return self.stack([planes[0], planes[1]])
