"""The rules of HexiFence and dots-and-boxes: one edge-capture engine for any layout.

HexiFence and dots-and-boxes are the same game on different boards: players
claim edges, the claim of a cell's last empty edge captures it, and any
capture gives the mover exactly one extra move.  A `Layout` (geometry.py)
says which edges surround which cell; everything else (counters, hashing,
captures, extra turns, undo) lives here once, in `EdgeGame` and `EdgeState`.
`HexiFenceRules(size=N)` (the COMP30024 2016 game, hexagonal cells, N from
1 to 5) and `DotsAndBoxesRules(rows=R, cols=C)` (R x C square boxes) only
choose the layout and the names; the package's `HexiFence` and
`DotsAndBoxes` add the notation, knowledge and pictures.

State kept incrementally per move: the claimed bitmask, the number of empty
edges of every cell, the cell owners, both scores and one Zobrist hash per
symmetry.  The hash covers the claimed edges (not who claimed them: that
never changes the future), the owners of captured cells and the side to
move, so two positions with equal hashes have equal futures and equal scores.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ...errors import OptionError
from ...game import Game, State, nothing_to_undo
from ...zobrist import ZobristTable
from .geometry import Layout, hex_layout, square_layout

#: Owner code of a captured cell whose capturer a loaded board did not say.
UNKNOWN = 2


class EdgeGame(Game["EdgeState"]):
    """Rules and tables of an edge-capture game on one layout."""

    scored = True

    def __init__(self, layout: Layout, **params: int) -> None:
        super().__init__(**params)
        self.layout = layout
        self.num_moves = layout.num_edges
        self.num_cells = layout.num_cells
        self.cell_edges = layout.cell_edges
        self.edge_cells = layout.edge_cells()
        self.cell_size = tuple(len(edges) for edges in self.cell_edges)
        self.full_mask = (1 << self.num_moves) - 1
        self._set_symmetries(layout.symmetries)
        e = self.num_moves
        slot_perms = [
            tuple(edges) + tuple(e + c for c in cells)
            for edges, cells in zip(layout.symmetries, layout.cell_symmetries, strict=True)
        ]
        self.zobrist = ZobristTable(e + self.num_cells, 3, slot_perms)
        self.edge_keys = [self.zobrist.keys[i][0] for i in range(e)]
        self.cell_keys = [self.zobrist.keys[e + c] for c in range(self.num_cells)]
        self.point_to_edge = {p: i for i, p in enumerate(layout.edge_points)}

    # --- positions -------------------------------------------------------------------
    def new_state(self) -> EdgeState:
        """The start: every edge free, the first player to move."""
        return EdgeState(self)

    def benchmark_positions(self) -> dict[str, EdgeState]:
        """The start, a middle game (a third of the edges claimed by random
        safe moves) and the loony position where the safe moves ran out."""
        positions = {"start": self.new_state()}
        state = self.new_state()
        rng = random.Random(2016)
        while True:
            safe = state.safe_moves()
            if not safe:
                break
            state.make(rng.choice(safe))
            if state.n_empty <= self.num_moves * 2 // 3 and "middle" not in positions:
                positions["middle"] = state.copy()
        positions["loony"] = state.copy()
        return positions


class EdgeState(State["EdgeGame"]):
    """One position: claimed edges, cell counters, owners, scores, side to move."""

    def __init__(self, game: EdgeGame) -> None:
        self.game = game
        self.to_move = 0
        self.history: list[int] = []
        #: claimant of every edge: -1 empty, 0 or 1, or UNKNOWN (loaded board)
        self.claimed = [-1] * game.num_moves
        self.mask = 0
        self.n_empty = game.num_moves
        #: empty edges left around every cell
        self.empties = list(game.cell_size)
        #: owner of every cell: -1 not captured, 0 or 1, or UNKNOWN
        self.owner = [-1] * game.num_cells
        self.score = [0, 0]
        self.hashes = list(game.zobrist.zero)
        self._undo: list[tuple[int, int, tuple[int, ...]]] = []

    # --- the rules ---------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """Empty edges: captures first, then safe moves, then sacrifices."""
        if not self.n_empty:
            return []
        claimed, empties, edge_cells = self.claimed, self.empties, self.game.edge_cells
        captures, safe, unsafe = [], [], []
        for e in range(len(claimed)):
            if claimed[e] < 0:
                low = min(empties[c] for c in edge_cells[e])
                if low == 1:
                    captures.append(e)
                elif low == 2:
                    unsafe.append(e)
                else:
                    safe.append(e)
        return captures + safe + unsafe

    def make(self, move: int) -> None:
        """Claim the edge `move` (legal, unchecked); the cells it completes go to
        the mover, who then moves again, else the turn passes."""
        game = self.game
        p = self.to_move
        self.claimed[move] = p
        self.mask |= 1 << move
        self.n_empty -= 1
        keys = game.edge_keys[move]
        captured: tuple[int, ...] = ()
        empties = self.empties
        for c in game.edge_cells[move]:
            left = empties[c] - 1
            empties[c] = left
            if not left:
                self.owner[c] = p
                self.score[p] += 1
                captured += (c,)
                keys = tuple(a ^ b for a, b in zip(keys, game.cell_keys[c][p], strict=True))
        if not captured:
            self.to_move = 1 - p
            keys = tuple(a ^ b for a, b in zip(keys, game.zobrist.side, strict=True))
        self.hashes = [h ^ k for h, k in zip(self.hashes, keys, strict=True)]
        self.history.append(move)
        self._undo.append((move, p, captured))

    def undo(self) -> int:
        """Take back the last move (and its captures) and return it.

        Raises:
            IllegalMoveError: no move has been played."""
        try:
            move, p, captured = self._undo.pop()
        except IndexError:
            raise nothing_to_undo() from None
        self.history.pop()
        game = self.game
        keys = game.edge_keys[move]
        for c in captured:
            self.score[p] -= 1
            self.owner[c] = -1
            keys = tuple(a ^ b for a, b in zip(keys, game.cell_keys[c][p], strict=True))
        if not captured:
            keys = tuple(a ^ b for a, b in zip(keys, game.zobrist.side, strict=True))
        for c in game.edge_cells[move]:
            self.empties[c] += 1
        self.claimed[move] = -1
        self.mask &= ~(1 << move)
        self.n_empty += 1
        self.to_move = p
        self.hashes = [h ^ k for h, k in zip(self.hashes, keys, strict=True)]
        return move

    def is_over(self) -> bool:
        """Whether every edge is claimed."""
        return not self.n_empty

    def winner(self) -> int | None:
        """The player with more cells once the game is over; None for a tie or
        while the game goes on."""
        if self.n_empty:
            return None
        a, b = self.score
        return None if a == b else (0 if a > b else 1)

    def scores(self) -> tuple[int, int]:
        """The cells each player has captured."""
        return self.score[0], self.score[1]

    def end_reason(self) -> str:
        """Why the game ended: every edge is claimed."""
        return "every edge claimed"

    def illegal_reason(self, move: int) -> str | None:
        """Why `move` is illegal here, None when it is legal."""
        if not self.n_empty:
            return "the game is over"
        return None if self.claimed[move] < 0 else "edge already claimed"

    # --- queries the players and the analysis use ----------------------------------------
    def captures(self) -> list[int]:
        """Empty edges that complete at least one cell."""
        empties, edge_cells = self.empties, self.game.edge_cells
        return [
            e
            for e, who in enumerate(self.claimed)
            if who < 0 and any(empties[c] == 1 for c in edge_cells[e])
        ]

    def safe_moves(self) -> list[int]:
        """Empty edges that neither capture nor let the opponent capture."""
        empties, edge_cells = self.empties, self.game.edge_cells
        return [
            e
            for e, who in enumerate(self.claimed)
            if who < 0 and min(empties[c] for c in edge_cells[e]) >= 3
        ]

    def part_a_counts(self) -> tuple[int, int, int]:
        """(empty edges, most cells one move captures, cells with one empty edge)."""
        empties, edge_cells = self.empties, self.game.edge_cells
        most = 0
        for e, who in enumerate(self.claimed):
            if who < 0:
                most = max(most, sum(1 for c in edge_cells[e] if empties[c] == 1))
        one = sum(1 for c, left in enumerate(empties) if left == 1)
        return self.n_empty, most, one

    # --- bookkeeping ----------------------------------------------------------------------
    def copy(self) -> EdgeState:
        """An independent copy of the position."""
        new = EdgeState.__new__(EdgeState)
        new.game = self.game
        new.to_move = self.to_move
        new.history = self.history[:]
        new.claimed = self.claimed[:]
        new.mask = self.mask
        new.n_empty = self.n_empty
        new.empties = self.empties[:]
        new.owner = self.owner[:]
        new.score = self.score[:]
        new.hashes = self.hashes[:]
        new._undo = self._undo[:]
        return new

    def recompute_hashes(self) -> list[int]:
        """The Zobrist hashes of the position, computed from scratch, to check
        the incremental ones."""
        e = self.game.num_moves
        items = [(m, 0) for m, who in enumerate(self.claimed) if who >= 0]
        items += [(e + c, who) for c, who in enumerate(self.owner) if who >= 0]
        return self.game.zobrist.full(items, side=self.to_move)

    def set_position(
        self, claimed: Sequence[int], owner: Sequence[int], to_move: int
    ) -> None:
        """Replace the position (a loaded board): no history, counters rebuilt."""
        game = self.game
        self.claimed = list(claimed)
        self.owner = list(owner)
        self.mask = sum(1 << e for e, who in enumerate(self.claimed) if who >= 0)
        self.n_empty = self.claimed.count(-1)
        self.empties = [
            sum(1 for e in edges if self.claimed[e] < 0) for edges in game.cell_edges
        ]
        self.score = [self.owner.count(0), self.owner.count(1)]
        self.to_move = to_move
        self.history, self._undo = [], []
        self.hashes = self.recompute_hashes()


# --- the two games ------------------------------------------------------------------------------


def _option(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise OptionError(f"{name} must be an integer from {low} to {high}, got {value!r}")
    return value


class HexiFenceRules(EdgeGame):
    """HexiFence of dimension `size` (official sizes 2 and 3)."""

    name = "hexifence"
    title = "HexiFence"
    player_names = ("blue", "red")

    def __init__(self, size: int = 2) -> None:
        size = _option("size", size, 1, 5)
        super().__init__(hex_layout(size), size=size)


class DotsAndBoxesRules(EdgeGame):
    """Dots-and-boxes with `rows` x `cols` boxes."""

    name = "dots"
    title = "Dots and Boxes"
    player_names = ("first", "second")

    def __init__(self, rows: int = 3, cols: int = 3) -> None:
        rows = _option("rows", rows, 1, 12)
        cols = _option("cols", cols, 1, 12)
        super().__init__(square_layout(rows, cols), rows=rows, cols=cols)
