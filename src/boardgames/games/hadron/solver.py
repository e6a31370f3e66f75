"""An exact win/loss solver for Hadron (small boards).

Hadron has no draws and no scores, so the solve is a plain AND/OR search:
a position is a win for the side to move iff some move leads to a loss for
the opponent.  What makes it fast enough for Python:

- a transposition table keyed by the canonical hash over the board's
  symmetries.  (Swapping the colours of all stones is *not* a symmetry: the
  mover is fixed by the stone count, so the swapped position has the same
  mover placing the other colour; a 1 x 7 example in the tests shows the
  values differ.);
- enhanced transposition cutoffs: a child already known as lost wins at once;
- move ordering by the opponent's number of replies (fewest first), which
  finds refutations early, as in other "last player to move wins" games;
- isolated cells: a legal cell whose empty neighbours are all dead for good
  (more surplus of one colour than empty cells around them) can neither be
  changed nor change anything; it is the combinatorial game * (one move for
  whoever takes it).  Since * + * = 0, two such cells are removed by letting
  each player take one, and when every legal cell is isolated the side to
  move wins iff their number is odd.

`solve` returns the library's `SolveResult` (value +1/-1 from the side to
move) and raises the library's `SearchStopped` when its time runs out; the
AI layer (`boardgames.ai.hadron`) registers it for `boardgames solve` and
lets the default player try it in the endgame.
"""

from __future__ import annotations

import sys
import time as _time
from operator import xor
from typing import TYPE_CHECKING

from ...errors import SearchStopped
from ...solution import SolveResult

if TYPE_CHECKING:
    from .rules import Hadron, HadronState


#: The time budget ran out before the proof finished (the library's one
#: "stopped early" exception, `errors.SearchStopped`, under its old name).
SolveTimeout = SearchStopped


class HadronSolver:
    """Solve positions of one Hadron game; the table persists across calls."""

    def __init__(self, game: Hadron, *, max_entries: int = 20_000_000) -> None:
        self.game = game
        #: Canonical key (the state's smallest frame hash) -> win for the side to move.
        self.table: dict[int, bool] = {}
        self.max_entries = max_entries
        self.nodes = 0
        self.deadline: float | None = None
        self.start = 0.0

    # --- the search --------------------------------------------------------------
    def solve(
        self, state: HadronState, *, all_moves: bool = False, time: float | None = None
    ) -> SolveResult:
        """Exact value of `state` for the side to move; `state` is left as it was.

        `value` is +1 (the side to move wins) or -1; `best` is one winning
        move, every winning move with `all_moves`, and [] when the side to
        move loses.  Raises SearchStopped ("solve gave up after S s (N
        nodes)") when `time` seconds pass first.
        """
        side = state.to_move
        if state.is_over():
            return SolveResult(-1, 1 - side, [], 0, 0.0)
        start = self.start = _time.perf_counter()
        self.deadline = None if time is None else start + time
        self.nodes = 0
        work = state.copy()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.game.cells + 200))
        try:
            winning: list[int] = []
            for move in self._ordered(work):
                work.make(move)
                child_wins = self._win(work)
                work.undo()
                if not child_wins:
                    winning.append(move)
                    if not all_moves:
                        break
        finally:
            sys.setrecursionlimit(limit)
        elapsed = _time.perf_counter() - start
        if winning:
            return SolveResult(1, side, winning, self.nodes, elapsed)
        return SolveResult(-1, 1 - side, [], self.nodes, elapsed)

    def _ordered(self, state: HadronState) -> list[int]:
        """Legal moves, fewest opponent replies first (ties by cell index).

        A move's replies are the other legal cells, less its legal neighbours
        (a stone unbalances them), plus its empty neighbours that it balances
        (one stone more of the other colour: `opened`).
        """
        game = state.game
        legal, diff = state.legal, state.diff
        target = 2 * state.to_move - 1  # the diff a stone of the mover's colour balances
        # Empty cells next to a legal cell and not legal themselves (diff != 0).
        near = game.spread(legal) & ~(legal | state.occupied)
        opened = 0
        while near:
            low = near & -near
            near ^= low
            if diff[low.bit_length() - 1] == target:
                opened |= low
        masks = game.neighbour_mask
        n = legal.bit_count() - 1
        scored = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            move = low.bit_length() - 1
            around = masks[move]
            scored.append(
                (n - (around & legal).bit_count() + (around & opened).bit_count(), move)
            )
        scored.sort()
        return [m for _, m in scored]

    def isolated(self, state: HadronState) -> int:
        """Legal cells that are moves on their own: nothing can change them and they
        change nothing (no live neighbour: every empty neighbour is dead for
        good).  Each is the combinatorial game * (one move for whoever takes
        it), and * + * = 0."""
        return state.legal & ~state.game.spread(state.live)

    def _win(self, state: HadronState) -> bool:
        self.nodes += 1
        legal = state.legal
        if not legal:
            return False
        hashes = state.hashes
        key = min(hashes)
        table = self.table
        known = table.get(key)
        if known is not None:
            return known
        if (
            self.deadline is not None
            and not self.nodes & 1023
            and _time.perf_counter() > self.deadline
        ):
            raise SearchStopped.gave_up(_time.perf_counter() - self.start, self.nodes)
        isolated = self.isolated(state)
        if isolated == legal:  # pure counting: the side to move wins iff the count is odd
            result = bool(legal.bit_count() & 1)
            table[key] = result
            return result
        if isolated & (isolated - 1):
            # Two independent single moves cancel (* + * = 0): take one each, same value.
            first = isolated & -isolated
            second = (isolated ^ first) & -(isolated ^ first)
            state.make(first.bit_length() - 1)
            state.make(second.bit_length() - 1)
            result = self._win(state)
            state.undo()
            state.undo()
            table[key] = result
            return result
        keys = state.game.zobrist.keys
        colour = state.to_move
        moves = self._ordered(state)
        # Enhanced transposition cutoff: a child already proven lost.
        for move in moves:
            if table.get(min(map(xor, hashes, keys[move][colour]))) is False:
                table[key] = True
                return True
        result = False
        for move in moves:
            state.make(move)
            lost = not self._win(state)
            state.undo()
            if lost:
                result = True
                break
        if len(table) >= self.max_entries:
            table.clear()
        table[key] = result
        return result
