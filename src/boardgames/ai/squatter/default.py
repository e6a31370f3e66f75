"""Squatter's default player: an opening book, the exact solver once the
board is small enough, and NegaScout with the Territory evaluator otherwise.

- **Book** (`games.squatter.book`): positions solved ahead of time, each
  with the move to play there.  Looked up through the canonical key of the
  8 board symmetries, so a mirrored or rotated game finds it too.
- **Endgame**: with `solve_at` or fewer live free cells (free cells that
  are not dead, `potential.dead_cells`) the exact solver gets a share of the
  move's time for the outcome and every move that keeps it.  A win is
  played at once.  A draw is a choice among the drawing moves: with `traps`
  or fewer live cells, the one after which most of the opponent's replies
  lose (a trap for a fallible opponent), ties broken by the search; else the
  search's choice among them.  A loss, or a solve that ran out of time,
  leaves the choice to the search with the rest of the move's time.  The
  solver's table lives as long as the player: later moves reuse earlier
  proofs.  After a solve that ran out of time the next try waits until two
  fewer live cells are left.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...budget import Budget, Limits
from ...errors import SearchStopped
from ...games.squatter import SquatterState
from ...games.squatter.book import book_move
from ...games.squatter.potential import dead_cells
from ...games.squatter.solver import SquatterSolver
from ...players import DEFAULT_TIME, SearchPlayer, move_limits
from ...search import Searcher, SearchResult

#: Time the endgame may take when the player has no limit at all (s).
SOLVE_ALONE = 10.0
#: Table entries the player's solver keeps at most.
SOLVER_CAP = 1 << 21


class SquatterPlayer(SearchPlayer[Any]):
    """Book, exact endgame, then NegaScout (see the module docstring)."""

    def __init__(
        self,
        engine: Searcher[Any],
        *,
        solve_at: int = 20,
        solve_share: float = 0.6,
        traps: int = 16,
        book: bool = True,
        limits: Limits | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(engine, limits=limits, name=name)
        self.solve_at = solve_at
        self.solve_share = solve_share
        self.traps = traps
        self.book = book
        self.solver: SquatterSolver | None = None
        #: Live cells of the last solve that ran out of time (and the game
        #: length then): the next try waits until two fewer are left.
        self._failed: tuple[int, int] | None = None

    def choose(self, state: SquatterState, limits: Limits | None = None) -> int:
        """The book's move, the solver's once it proves the position, or the
        search's; `state` is left unchanged."""
        # No limit at all: the solver may take SOLVE_ALONE, the search DEFAULT_TIME.
        budget = Budget(move_limits(self.limits, limits))
        if self.book and state.free:
            move = book_move(state)
            if move is not None:
                self.last_result = SearchResult(move, 0.0, [move], 0, 0, 0.0, algorithm="book")
                return move
        allowed: list[int] | None = None
        live = (state.free & ~dead_cells(state)).bit_count() if state.free else 0
        if self._failed is not None and len(state.history) < self._failed[1]:
            self._failed = None  # a new game
        limit = self.solve_at if self._failed is None else min(self.solve_at, self._failed[0] - 2)
        if 0 < live <= limit and not budget.stopped():
            move, allowed = self._endgame(state, budget)
            if move is not None:
                return move
        return self._search(state, budget, allowed)

    # --- the endgame ---------------------------------------------------------------------
    def _endgame(
        self, state: SquatterState, budget: Budget
    ) -> tuple[int | None, list[int] | None]:
        """(the move, None) when the solver decides; (None, the moves that
        keep a proven draw or None) when the search should choose."""
        if self.solver is None or self.solver.game is not state.game:
            self.solver = SquatterSolver(state.game, tt_cap=SOLVER_CAP)
        solving = budget.with_default_time(SOLVE_ALONE).until(self.solve_share)
        try:
            result = self.solver.solve(
                state, solving.remaining(), outcome=True, all_moves=True
            )
        except SearchStopped:
            live = (state.free & ~dead_cells(state)).bit_count()
            self._failed = (live, len(state.history))
            return None, None
        self._failed = None
        if result.value > 0 or len(result.best) == 1:
            move = result.best[0]
            self.last_result = SearchResult(
                move, result.value, [move], 0, result.nodes, budget.elapsed(), algorithm="solver"
            )
            return move, None
        if result.value < 0:
            return None, None
        live = (state.free & ~dead_cells(state)).bit_count()
        if live <= self.traps:
            trapped = self._traps(state, result.best, solving)
            if trapped is not None and len(trapped) == 1:
                move = trapped[0]
                self.last_result = SearchResult(
                    move, 0.0, [move], 0, result.nodes, budget.elapsed(), algorithm="traps"
                )
                return move, None
            if trapped is not None:
                return None, trapped
        return None, result.best

    def _traps(
        self, state: SquatterState, drawing: list[int], budget: Budget
    ) -> list[int] | None:
        """The drawing moves after which the most replies lose for the
        opponent (None when the time runs out first)."""
        assert self.solver is not None
        solver = self.solver
        scores: dict[int, int] = {}
        dead = dead_cells(state)
        seen_pass = False
        base = len(state.history)
        try:
            for move in drawing:
                if dead >> move & 1:
                    if seen_pass:  # dead cells are all alike: score one
                        continue
                    seen_pass = True
                state.make(move)
                losing = 0
                for reply in _distinct_replies(state):
                    state.make(reply)
                    value = solver.solve(state, budget.remaining(), outcome=True)
                    state.undo()
                    losing += value.value > 0
                state.undo()
                scores[move] = losing
        except SearchStopped:
            while len(state.history) > base:
                state.undo()
            return None
        best = max(scores.values())
        if best == 0:
            return drawing
        top = [m for m, s in scores.items() if s == best]
        if any(dead >> m & 1 for m in top):
            top = [m for m in drawing if m in top or dead >> m & 1]
        return top

    # --- the search ------------------------------------------------------------------------
    def _search(self, state: SquatterState, budget: Budget, allowed: list[int] | None) -> int:
        """NegaScout's move (among `allowed` when given) with the time left."""
        engine = self.engine
        assert isinstance(engine, Searcher)
        limits = budget.remaining(floor=0.01)
        if limits.unlimited:  # no limit at all: DEFAULT_TIME, as any search player's
            limits = replace(limits, time=DEFAULT_TIME)
        result = engine.search(state.copy(), limits, root_moves=allowed)
        self.last_result = result
        assert result.move is not None  # the game is not over here
        return result.move


def _distinct_replies(state: SquatterState) -> list[int]:
    """The legal moves, with a single dead cell standing for all of them."""
    dead = dead_cells(state)
    moves = [m for m in state.legal_moves() if not dead >> m & 1]
    if dead:
        moves.append((dead & -dead).bit_length() - 1)
    return moves
