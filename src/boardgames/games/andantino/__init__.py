"""Andantino: the Game object that ties board tables, rules, notation,
rendering and experts together.  See docs/andantino.md for the rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...errors import IllegalMoveError, NotationError
from ...game import Evaluator, Game
from ...zobrist import ZobristTable
from .board import CUBES, INDEX, SIZE, SYMMETRIES
from .notation import format_cell, format_cube, parse_cell, split_moves
from .state import BLACK, HASH_MASK, WHITE, AndantinoState

__all__ = ["Andantino", "AndantinoState", "WHITE", "BLACK", "CUBES", "INDEX"]

#: Fixed positions for benchmarks (cube move lists, White first).
#: Fixed positions for benchmarks (cube move lists, White first), taken from
#: games between the default AI and the seed bot; none is decided yet.
BENCHMARK_POSITIONS = {
    "opening": "0,-1,1 -1,0,1 -1,1,0 1,-1,0",
    "middle-12": (
        "1,-1,0 0,-1,1 -1,0,1 -1,1,0 0,1,-1 1,0,-1 2,-1,-1 1,1,-2 2,0,-2 1,-2,1 2,-2,0 0,2,-2"
    ),
    "middle-18": (
        "0,-1,1 -1,0,1 -1,1,0 -2,1,1 -2,0,2 -1,-1,2 -2,-1,3 -2,2,0 -1,-2,3 0,1,-1 -1,2,-1 "
        "0,-2,2 -3,0,3 1,-2,1 1,-1,0 0,-3,3 1,0,-1 -3,1,2"
    ),
    "middle-24": (
        "1,-1,0 0,-1,1 -1,0,1 -1,1,0 0,1,-1 1,0,-1 2,-1,-1 1,1,-2 2,0,-2 1,-2,1 2,-2,0 0,2,-2 "
        "-1,2,-1 2,1,-3 2,-3,1 3,0,-3 3,-3,0 -1,-1,2 -2,1,1 -2,2,0 3,-1,-2 -2,3,-1 -1,3,-2 -3,2,1"
    ),
}


class Andantino(Game):
    """The radius-9 hexagonal board of 271 cells; moves are the seed's tile
    indices (centre 0, rings from the south-west corner)."""

    name = "andantino"
    title = "Andantino"
    player_names = ("white", "black")

    def __init__(self) -> None:
        super().__init__()
        self.num_moves = SIZE
        self._set_symmetries(SYMMETRIES)
        #: 2 x 271 keys per frame, slot = the seed's tile index.
        self.zobrist = ZobristTable(SIZE, 2, SYMMETRIES)
        #: The same keys with the 12 frames packed into one int, 64 bits each
        #: (frame f in bits 64f..64f+63): one XOR updates every frame.  Keys
        #: are taken as unsigned 64-bit patterns (ZobristTable's may be negative).
        self.packed_keys: list[list[int]] = [
            [sum((k & HASH_MASK) << (64 * f) for f, k in enumerate(frames)) for frames in slot]
            for slot in self.zobrist.keys
        ]

    def new_state(self) -> AndantinoState:
        return AndantinoState(self)

    # --- notation ----------------------------------------------------------------
    def parse_move(self, text: str) -> int:
        return parse_cell(text)

    def format_move(self, move: int) -> str:
        return format_cell(move)

    def format_cube(self, move: int) -> str:
        """A move in cube coordinates `x,y,z`."""
        return format_cube(move)

    def index(self, x: int, y: int, z: int) -> int:
        """The seed's tile index of cube (x, y, z)."""
        if (x, y, z) not in INDEX:
            raise NotationError(f"{x},{y},{z}", "not a cell of the board")
        return INDEX[(x, y, z)]

    def cube(self, move: int) -> tuple[int, int, int]:
        """Cube coordinates of a tile index."""
        return CUBES[move]

    def parse_position(self, text: str) -> AndantinoState:
        """A position from its move list (`J10` cells or cube `x,y,z`, White first;
        the Black centre stone is implied)."""
        state = self.new_state()
        for number, token in enumerate(split_moves(text), 1):
            try:
                state.play(token)
            except IllegalMoveError as exc:
                raise NotationError(text.strip(), f"move {number} ({token}): {exc}") from None
            except NotationError as exc:
                raise NotationError(text.strip(), f"move {number}: {exc}") from None
        return state

    # --- knowledge ---------------------------------------------------------------
    # --- drawing ------------------------------------------------------------------------
    def render_text(self, state: AndantinoState, color: bool = False) -> str:
        from .render import render_text

        return render_text(state, color)

    def render_svg(self, state: AndantinoState) -> str:
        from .render import render_svg

        return render_svg(state)

    def evaluators(self) -> dict[str, Callable[..., Evaluator]]:
        from .experts import EVALUATORS

        return dict(EVALUATORS)

    def analyse(self, state: Any) -> str:
        from .experts import describe

        return super().analyse(state) + "\n" + describe(state)

    def benchmark_positions(self) -> dict[str, AndantinoState]:
        return {name: self.parse_position(moves) for name, moves in BENCHMARK_POSITIONS.items()}
