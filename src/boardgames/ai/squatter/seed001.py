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

It keeps its own clock (games never import the search package): `time`,
`nodes` and `stop` end the search with `errors.SearchStopped`.
"""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
from typing import TYPE_CHECKING

from ...errors import SearchStopped
from ...games.squatter.geometry import bits

if TYPE_CHECKING:
    from ...games.squatter.rules import Squatter, SquatterState
    from ...options import Stop

#: The original's window: Java's Integer.MIN_VALUE and MAX_VALUE.
JAVA_MIN, JAVA_MAX = -(2.0**31), 2.0**31 - 1
#: Nodes between two reads of the clock and the stop signal.
CHECK_EVERY = 512


def rotation_frames(game: Squatter) -> tuple[int, ...]:
    """Indices of the frame hashes that are the board's four rotations."""
    n = game.size
    quarter = tuple(c * n + (n - 1 - r) for r in range(n) for c in range(n))
    rotations = [tuple(range(game.num_moves))]
    for _ in range(3):
        last = rotations[-1]
        rotations.append(tuple(quarter[x] for x in last))
    return tuple(i for i, sym in enumerate(game.symmetries) if sym in rotations)


class Seed001Search:
    """The original's fixed-depth alpha-beta; `evaluate(state, me)` scores for `me`."""

    def __init__(
        self,
        evaluate: Callable[[SquatterState, int], float],
        *,
        skip: bool = True,
    ) -> None:
        self.evaluate = evaluate
        self.skip = skip
        self.nodes = 0
        self._explored: set[int] = set()
        self._frames: tuple[int, ...] = ()
        self._deadline = float("inf")
        self._node_limit = 1 << 62
        self._next_check = CHECK_EVERY
        self._stop: Stop | None = None
        self._start = 0.0

    def choose(
        self,
        state: SquatterState,
        depth: int,
        *,
        time: float | None = None,
        nodes: int | None = None,
        stop: Stop | None = None,
    ) -> tuple[int, float]:
        """(move, value) of one search to `depth` plies from `state` (left as it was).

        Raises SearchStopped when `time`, `nodes` or `stop` ends it first.
        """
        if not state.free:
            raise ValueError("the game is over")
        self._start = perf_counter()
        self._deadline = self._start + time if time is not None else float("inf")
        self._node_limit = nodes if nodes is not None else 1 << 62
        self._stop = stop
        self._next_check = self.nodes + CHECK_EVERY
        self._frames = rotation_frames(state.game)
        self._explored = set()
        base = len(state.history)
        try:
            return self._root(state, state.to_move, depth)
        finally:
            while len(state.history) > base:
                state.undo()

    def _check(self) -> None:
        if self.nodes >= self._node_limit:
            raise SearchStopped.gave_up(perf_counter() - self._start, self.nodes, "search")
        if perf_counter() > self._deadline or (self._stop is not None and self._stop.is_set()):
            raise SearchStopped.gave_up(perf_counter() - self._start, self.nodes, "search")
        self._next_check = self.nodes + CHECK_EVERY

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
        if self.nodes >= self._next_check:
            self._check()
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
        if self.nodes >= self._next_check:
            self._check()
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
