"""Seed 001's search, as the original program ran it.

Seed 001 (the "Xichangz" player, docs/squatter.md) describes a minimax with
alpha-beta to a cut-off depth, successors taken straight from the board's
list of free cells, a symmetry check that *skips* a board whose hash (or the
hash of one of its four rotations) was already explored, and its linear
evaluator (`experts.Seed001`) scored from its own colour.  The search here
reproduces that, step for step:

- plain max/min alpha-beta, fail-hard as the original (a max node that cuts
  returns beta, a min node alpha); a child replaces the bound only when
  strictly better, so the first best move in board order wins;
- successors in row-major order of the free cells (the board rebuilt its
  list of free cells row by row), no move ordering at all;
- the symmetry check: one set of explored boards per move decision; a
  child board equal to an explored board or to one of its rotations by 90,
  180 or 270 degrees is skipped (not searched and not counted), wherever it
  turns up in the tree: transpositions are skipped too;
- `depth` plies of moves, then the evaluator (or earlier when the board is
  full).

Its budget (`limits`: time, nodes, a stop signal) ends the search with
`errors.SearchStopped`; the node count and the budget's checks are those
of the solvers' skeleton (`solution.SolverBase`, with no table).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ...budget import Limits
from ...games.squatter.geometry import bits
from ...solution import SolverBase

if TYPE_CHECKING:
    from ...games.squatter.rules import SquatterRules, SquatterState

#: The original's window: Java's Integer.MIN_VALUE and MAX_VALUE.
JAVA_MIN, JAVA_MAX = -(2.0**31), 2.0**31 - 1


def rotation_frames(game: SquatterRules) -> tuple[int, ...]:
    """Indices of the frame hashes that are the board's four rotations."""
    n = game.size
    quarter = tuple(c * n + (n - 1 - r) for r in range(n) for c in range(n))
    rotations = [tuple(range(game.num_moves))]
    for _ in range(3):
        last = rotations[-1]
        rotations.append(tuple(quarter[x] for x in last))
    return tuple(i for i, sym in enumerate(game.symmetries) if sym in rotations)


class Seed001Search(SolverBase):
    """The original's fixed-depth alpha-beta; `evaluate(state, me)` scores for `me`."""

    def __init__(
        self,
        evaluate: Callable[[SquatterState, int], float],
        *,
        skip: bool = True,
    ) -> None:
        super().__init__(0)  # no table: the explored set lives for one search
        self.evaluate = evaluate
        self.skip = skip
        self._explored: set[int] = set()
        self._frames: tuple[int, ...] = ()

    def choose(
        self, state: SquatterState, depth: int, limits: Limits | None = None
    ) -> tuple[int, float]:
        """(move, value) of one search to `depth` plies from `state` (left as it was).

        Raises SearchStopped when the `limits` (time, nodes, a stop signal)
        end it first; `nodes` counts the nodes of the search.
        """
        if not state.free:
            raise ValueError("the game is over")
        self.begin(limits, what="search")
        self._frames = rotation_frames(state.game)
        self._explored = set()
        base = len(state.history)
        try:
            return self._root(state, state.to_move, depth)
        finally:
            while len(state.history) > base:
                state.undo()

    def _seen(self, state: SquatterState) -> bool:
        """The original's symmetry check: True (skip) when the board or a
        rotation of it was explored; otherwise remember its rotations."""
        hashes = state.hashes
        if hashes[0] in self._explored:
            return True
        self._explored.update(hashes[i] for i in self._frames)
        return False

    def _root(self, state: SquatterState, me: int, depth: int) -> tuple[int, float]:
        moves = bits(state.free)
        best = moves[0]
        alpha = JAVA_MIN
        for move in moves:
            state.make(move)
            if self.skip and self._seen(state):
                state.undo()
                continue
            value = self._min(state, me, alpha, JAVA_MAX, depth - 1)
            state.undo()
            if alpha < value:
                alpha, best = value, move
        return best, alpha

    def _max(self, state: SquatterState, me: int, alpha: float, beta: float, depth: int) -> float:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll()
        if depth <= 0 or not state.free:
            return self.evaluate(state, me)
        skip = self.skip
        for move in bits(state.free):
            state.make(move)
            if skip and self._seen(state):
                state.undo()
                continue
            value = self._min(state, me, alpha, beta, depth - 1)
            state.undo()
            if alpha < value:
                alpha = value
            if alpha >= beta:
                return beta
        return alpha

    def _min(self, state: SquatterState, me: int, alpha: float, beta: float, depth: int) -> float:
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll()
        if depth <= 0 or not state.free:
            return self.evaluate(state, me)
        skip = self.skip
        for move in bits(state.free):
            state.make(move)
            if skip and self._seen(state):
                state.undo()
                continue
            value = self._max(state, me, alpha, beta, depth - 1)
            state.undo()
            if beta > value:
                beta = value
            if beta <= alpha:
                return alpha
        return beta
