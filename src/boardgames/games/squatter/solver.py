"""Squatter's exact solver: the final margin under perfect play.

Fail-soft alpha-beta to the end of the game, driven by null-window tests
(MTD(f): is the value at least v?), over a table of bounds:

- **Dead cells are passes.**  `potential.dead_cells`: a free cell that no
  colour can ever capture and that touches no capturable cell changes
  nothing whatever stone it gets (the corners from the first move, more as
  the board fills).  The search never plays them: it counts them, and the
  side to move may "pass" (fill one) while any is left.  The game is over
  for the search when no live cell is free.
- **Bounds.**  `potential.upper_bound` for each side brackets the final
  margin; a node whose bracket lies outside the window returns at once.
- **Table.**  Keyed by the smallest of the 8 symmetric Zobrist hashes (the
  board's, `SquatterState.packed`) and the number of passes left (which,
  with the board, fixes the side to move); it holds a lower and an upper
  bound of the node's value, the best move (in the canonical frame) and the
  log2 of the work below it.  When it reaches `tt_cap` entries the cheaper
  half is dropped (`solution.SolverBase`, which also keeps the node count
  and polls the budget).
- **Move order.**  The table's move; then moves that may close a loop for
  the mover (its stones split the new stone's neighbours), then those that
  may close one for the enemy (blocking it); then the two killers of the
  ply; then the rest by history, the centre first; a pass last.

The node function (`solver_node.build_node`) is the one hot search loop.
The budget (`limits`: time, nodes, a stop signal) raises
`errors.SearchStopped` when it runs out.  Values are from the side to
move, margins of captured cells.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ...budget import Budget, Limits
from ...solution import EXACT, LOWER, UPPER, SolverBase, SolveResult
from .potential import dead_cells
from .solver_node import PASS, WORK_SHIFT, build_node

if TYPE_CHECKING:
    from .rules import SquatterRules, SquatterState

#: Default cap of the table (entries).
TT_CAP = 1 << 22


class SquatterSolver(SolverBase):
    """Exact values of Squatter positions, one table shared by every call."""

    WORK_SHIFT = WORK_SHIFT

    def __init__(
        self,
        game: SquatterRules,
        *,
        tt_cap: int = TT_CAP,
        symmetry: bool = True,
        passes: bool = True,
        bounds: bool = True,
        order: bool = True,
    ) -> None:
        super().__init__(tt_cap)
        self.game = game
        self.symmetry = symmetry
        self.passes = passes
        self.bounds = bounds
        self.order = order

    def vary(self, index: int) -> bool:
        """Order the moves after each node's first one as helper `index` of a
        parallel solve does (`solution.helper_order`)."""
        self.variant = index
        return True

    # --- the questions --------------------------------------------------------------
    def solve(
        self,
        state: SquatterState,
        limits: Limits | None = None,
        *,
        all_moves: bool = False,
        outcome: bool = False,
        window: tuple[float, float] | None = None,
        line: bool = False,
    ) -> SolveResult:
        """The value of `state` (left unchanged) from the side to move: the
        exact final margin, or with `outcome` only its sign (+1, 0, -1).

        `best` is one optimal move, every one with `all_moves` (a dead cell
        stands for every dead cell: all of them are then optimal).  With
        `window=(alpha, beta)` the value is exact inside the window, else a
        bound (`bound` LOWER or UPPER, no best moves); with `line`, `line`
        is a principal line (`principal_line`) when the value is exact.
        `limits` (time, nodes, a stop signal; the line's solves included)
        raise SearchStopped when they run out first.
        """
        budget = self.begin(limits)
        search = _Search(self, state)
        bound = EXACT
        try:
            if not state.free:
                a, b = state.scores()
                value = a - b if state.to_move == 0 else b - a
                best: list[int] = []
            elif window is not None:
                value, bound = search.window(*window)
                best = [] if bound != EXACT else search.optimal_moves(value, not all_moves)
            else:
                value = search.outcome() if outcome else search.margin()
                if outcome and value < 0:  # every move loses: none is worse
                    best = state.legal_moves()
                    best = best if all_moves else best[:1]
                else:
                    best = search.optimal_moves(value, first_only=not all_moves)
        finally:
            search.restore()
        result = self.result(value, state.to_move, best, bound=bound)
        if line and bound == EXACT:
            result.line = self.principal_line(state, budget.remaining(), outcome=outcome)
            result.time = budget.elapsed()
        return result

    def principal_line(
        self,
        state: SquatterState,
        limits: Limits | None = None,
        *,
        outcome: bool = False,
    ) -> list[int]:
        """One line of optimal moves from `state` to the end of the game
        (keeping the margin, or with `outcome` its sign), by repeated solves
        on the warm table; a dead cell stands as the lowest free one."""
        line: list[int] = []
        copy = state.copy()
        budget = Budget(limits, what="solve")
        while copy.free:
            result = self.solve(copy, budget.remaining(), outcome=outcome)
            line.append(result.best[0])
            copy.make(result.best[0])
        return line


class _Search:
    """One solve: the position, the move-order tables, the node function and
    the drivers (the node count and the budget are the solver's)."""

    def __init__(self, solver: SquatterSolver, state: SquatterState) -> None:
        self.solver, self.state = solver, state
        self.base = len(state.history)
        self.to_move = state.to_move
        self.killers = [[-2, -2] for _ in range(state.game.num_moves + 2)]
        self.history = [0] * state.game.num_moves
        self.node = build_node(self)

    def restore(self) -> None:
        """Take back every move made since the root (passes only changed the
        side to move: each undo is told who made the move it takes back)."""
        state = self.state
        while len(state.history) > self.base:
            last = state.history[-1]
            state.to_move = 0 if state.stones[1] >> last & 1 else 1
            state.undo()
        state.to_move = self.to_move

    # --- drivers ------------------------------------------------------------------------
    def test(self, value: int) -> bool:
        """Is the root's value at least `value`?"""
        return self.node(value - 1, value, 0) >= value

    def window(self, alpha: float, beta: float) -> tuple[int, str]:
        """(value, EXACT) when the value lies inside (alpha, beta), else a
        fail-soft bound and LOWER or UPPER."""
        most = self.state.game.geometry.cells + 1
        low = math.floor(alpha) if math.isfinite(alpha) else (-most if alpha < 0 else most)
        high = math.ceil(beta) if math.isfinite(beta) else (most if beta > 0 else -most)
        low, high = max(low, -most), min(high, most)
        if low >= high:
            raise ValueError(f"empty window ({alpha}, {beta})")
        value = self.node(low, high, 0)
        if value <= low:
            return value, UPPER
        if value >= high:
            return value, LOWER
        return value, EXACT

    def outcome(self) -> int:
        """+1, 0 or -1: two null-window tests at most."""
        if self.test(1):
            return 1
        return 0 if self.test(0) else -1

    def margin(self) -> int:
        """The exact value: MTD(f) from 0, then up or down one step at a time."""
        lower, upper = -(1 << 20), 1 << 20
        guess = 0
        while lower < upper:
            beta = guess + 1 if guess == lower else guess
            bound = self.node(beta - 1, beta, 0)
            if bound >= beta:
                lower = bound
            else:
                upper = bound
            guess = lower if bound >= beta else upper
        return lower

    def root_moves(self) -> list[int]:
        """The root's moves: the live free cells, then one dead cell (a pass)."""
        state = self.state
        dead = dead_cells(state) if self.solver.passes else 0
        live = state.free & ~dead
        moves = [m for m in state.legal_moves() if live >> m & 1]
        if dead:
            moves.append(PASS)
        return moves

    def optimal_moves(self, value: int, first_only: bool) -> list[int]:
        """Root moves that keep `value` (all of them, or the first found).

        With an outcome value (1 or 0) a move is optimal when its result is
        at least as good; a dead cell stands for all the dead cells.
        """
        state = self.state
        me = state.to_move
        dead = dead_cells(state) if self.solver.passes else 0
        best: list[int] = []
        for move in self.root_moves():
            if move == PASS:
                state.to_move = 1 - me
                child = -self.node(-value, -value + 1, 1)
                state.to_move = me
            else:
                state.make(move)
                child = -self.node(-value, -value + 1, 0)
                state.undo()
            if child >= value:
                best.extend(_bits(dead) if move == PASS else [move])
                if first_only:
                    return best[:1]
        return best

    # --- the node function ----------------------------------------------------------------


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
