"""The exact solver's own position: the coins view (coins.py) as arrays.

`Position` keeps, for the position being searched: `emp[c]` the empty edges
of cell c, `gleft[c]` those on the border, `claimed[m]` for the inner
moves, `ones` the capturable cells, `keys` one key per symmetry frame,
`free` the uncaptured cells, `n3` the cells with three or more empty edges
(none left: the chains-and-loops value applies) and `n_empty`.  It loads a
game state, makes and takes back solver moves (the search inlines the
same code in its hot loop), and orders the moves.  `solver.EdgeSolver`
searches on top of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .chains import redundant_openings
from .coins import coins_of

if TYPE_CHECKING:
    from .rules import EdgeGame, EdgeState


class Position:
    """The solver's arrays for one game, and moves on them."""

    def __init__(
        self, game: EdgeGame, symmetry: bool, forced_captures: bool, safe_only: bool = False
    ) -> None:
        self.game = game
        self.coins = co = coins_of(game.layout, symmetry and len(game.symmetries) > 1)
        self.forced_captures = forced_captures
        #: the safe-edge model: only safe moves while any is left (see `_ordered`)
        self.safe_only = safe_only
        self._inner, self._links, self._deltas = co.inner, co.cell_links, co.deltas
        self._order = tuple(
            (m, *co.inner_cells[m]) if m < co.inner else (m, m - co.inner, -1)
            for m in co.centre_order
        )
        self._move_cells, self._to_frame, self._from_frame = (
            co.move_cells,
            co.to_frame,
            co.from_frame,
        )
        n = co.num_cells
        self.emp = [0] * n
        self.gleft = [0] * n
        self.claimed = [False] * co.inner
        self.ones: set[int] = set()
        self.keys = [0] * co.frames
        self.free = 0
        self.n3 = 0
        self.n_empty = 0

    def _load(self, state: EdgeState) -> None:
        co = self.coins
        claimed = [who >= 0 for who in state.claimed]
        self.emp = [sum(1 for e in edges if not claimed[e]) for edges in self.game.cell_edges]
        self.gleft = [sum(1 for e in edges if not claimed[e]) for edges in co.ground_edges]
        self.claimed = [claimed[e] for e in co.inner_edges]
        self.ones = {c for c, left in enumerate(self.emp) if left == 1}
        self.free = sum(1 for left in self.emp if left)
        self.n3 = sum(1 for left in self.emp if left >= 3)
        self.n_empty = state.n_empty
        keys = [0] * co.frames
        moves = [m for m in range(co.inner) if self.claimed[m]]
        for c, edges in enumerate(co.ground_edges):
            moves += [co.inner + c] * (len(edges) - self.gleft[c])
        for m in moves:
            keys = [k + d for k, d in zip(keys, co.deltas[m], strict=True)]
        self.keys = keys

    def canonical(self, state: EdgeState) -> tuple[int, int]:
        """(key, frame): the key of the state's symmetry class (the solver's
        table key) and the frame that gives it."""
        self._load(state)
        key = min(self.keys)
        return key, self.keys.index(key)

    def to_frame(self, frame: int, edge: int) -> int:
        """The solver move of layout `edge`, in `frame`."""
        return self._to_frame[frame][self.coins.edge_move[edge]]

    def from_frame(self, state: EdgeState, frame: int, move: int) -> int:
        """The layout edge of solver move `move` of `frame` (back in `state`)."""
        return self._edges(state, [self._from_frame[frame][move]], False)[0]

    def _edges(self, state: EdgeState, moves: list[int], every: bool) -> list[int]:
        """The layout edges of solver moves in `state` (border moves: the
        first empty border edge of the cell, or each of them with `every`)."""
        co = self.coins
        out = []
        for m in moves:
            if m < co.inner:
                out.append(co.inner_edges[m])
            else:
                empty = [e for e in co.ground_edges[m - co.inner] if state.claimed[e] < 0]
                out += empty if every else empty[:1]
        return sorted(out) if every else out

    # --- making moves (outside the hot loop) ------------------------------------------
    def _claim(self, m: int) -> int:
        """Make solver move m; return the number of cells it completes."""
        emp, ones = self.emp, self.ones
        if m < self._inner:
            self.claimed[m] = True
        else:
            self.gleft[m - self._inner] -= 1
        self.keys = [k + d for k, d in zip(self.keys, self._deltas[m])]
        self.n_empty -= 1
        done = 0
        for c in self._move_cells[m]:
            left = emp[c] - 1
            emp[c] = left
            if left == 2:
                self.n3 -= 1
            elif left == 1:
                ones.add(c)
            elif not left:
                ones.discard(c)
                done += 1
        self.free -= done
        return done

    def _unclaim(self, m: int, done: int) -> None:
        emp, ones = self.emp, self.ones
        if m < self._inner:
            self.claimed[m] = False
        else:
            self.gleft[m - self._inner] += 1
        self.keys = [k - d for k, d in zip(self.keys, self._deltas[m])]
        self.n_empty += 1
        for c in self._move_cells[m]:
            left = emp[c] + 1
            emp[c] = left
            if left == 3:
                self.n3 += 1
            elif left == 2:
                ones.discard(c)
            elif left == 1:
                ones.add(c)
        self.free += done

    def _root_moves(self) -> list[int]:
        """Every legal solver move of the loaded position (one per border cell);
        in the safe-edge model only the safe ones while any is left."""
        co = self.coins
        moves = [m for m in range(co.inner) if not self.claimed[m]]
        moves += [co.inner + c for c in range(co.num_cells) if self.gleft[c]]
        if self.safe_only and not self.ones:
            emp, cells = self.emp, self._move_cells
            safe = [m for m in moves if all(emp[c] >= 3 for c in cells[m])]
            return safe or moves
        return moves

    def _ordered(self, first: int) -> Iterator[int]:
        """Legal moves, made lazily (a cut-off on the table's move costs no
        move generation): `first` (the table's), then safe moves centre
        first, then sacrifices of one cell, then of two, each independent
        chain or loop opened once.  In the safe-edge model (`safe_only`) the
        sacrifices only come when no move is safe."""
        if first >= 0:
            yield first
        emp, claimed, gleft = self.emp, self.claimed, self.gleft
        one, two = [], []
        safe = self.safe_only and first >= 0 and min(emp[c] for c in self._move_cells[first]) >= 3
        for m, a, b in self._order:
            if m == first:
                continue
            if b >= 0:
                if claimed[m]:
                    continue
                ea, eb = emp[a], emp[b]
                if ea >= 3 and eb >= 3:
                    safe = True
                    yield m
                elif ea >= 3 or eb >= 3:
                    one.append(m)
                else:
                    two.append(m)
            elif gleft[a]:
                if emp[a] >= 3:
                    safe = True
                    yield m
                else:
                    one.append(m)
        if safe and self.safe_only:
            return
        if self.forced_captures and (one or two):
            drop = redundant_openings(emp, gleft, claimed, self._links, self._inner)
            yield from (m for m in one if m not in drop)
            yield from (m for m in two if m not in drop)
        else:
            yield from one
            yield from two
