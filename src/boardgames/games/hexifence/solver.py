"""An exact solver for edge-capture games, on bitmasks of claimed edges.

`EdgeSolver(game).solve(state)` returns a `boardgames.search.SolveResult`
(the final margin for the side to move, the winner, the best moves) and
raises `boardgames.errors.SearchStopped` when its time or node budget runs
out.  (The one import from the search layer: its result type.)

Inside, the value of a position for the side to move is the margin of the
cells still to be captured; it depends only on the set of claimed edges (not
on the score so far, nor on who claimed what), so the transposition table is
keyed on that set, in the smallest frame over the board's symmetries, and
stores (lower, upper) bounds of the margin.

Pruning that keeps the value exact:
- alpha-beta on the margin, with bounds narrowed to +-(cells left);
- captures that change nothing else are forced: when the capturing edge
  borders no other cell, completes its other cell too, or leaves that other
  cell with two or more empty edges, taking the cell now is at least as
  good as any alternative (the claim has the same effect whoever makes it,
  and the taker keeps the move), so it is the only move searched;
- move order: captures, then safe edges, then sacrifices of few cells.
"""

from __future__ import annotations

import time as _time
from typing import TYPE_CHECKING

from ...errors import SearchStopped
from ...search.result import SolveResult

if TYPE_CHECKING:
    from .rules import EdgeGame, EdgeState


#: Table entries pack the (lower, upper) bounds into one int, so that the
#: table holds no tuples: a dict of plain ints is never walked by the
#: garbage collector (a million tuples cost ~25 ms a full collection).
BIAS = 1 << 15

#: The old name of `errors.SearchStopped` (the same class), kept for imports.
SolveAborted = SearchStopped


class EdgeSolver:
    """Reusable exact solver for one game; keeps its table between calls."""

    def __init__(
        self,
        game: EdgeGame,
        *,
        symmetry: bool = True,
        forced_captures: bool = True,
        max_entries: int = 4_000_000,
    ) -> None:
        self.game = game
        self.symmetry = symmetry and len(game.symmetries) > 1
        self.forced_captures = forced_captures
        self.max_entries = max_entries
        #: key -> ((lower + BIAS) << 16) | (upper + BIAS)
        self.table: dict[int, int] = {}
        perms = game.symmetries if self.symmetry else (game.symmetries[0],)
        self.sym_bits = [tuple(1 << p[e] for p in perms) for e in range(game.num_moves)]
        self.edge_cells = game.edge_cells
        self.nodes = 0
        self._deadline: float | None = None
        self._node_limit: int | None = None

    # --- public -----------------------------------------------------------------------
    def solve(
        self,
        state: EdgeState,
        *,
        all_moves: bool = False,
        time: float | None = None,
        nodes: int | None = None,
    ) -> SolveResult:
        """The exact final margin (own minus opponent's) for the side to move.

        `best` holds one best move, or every one with `all_moves`; `nodes`
        counts the searched positions.  Raises SearchStopped when `time`
        seconds or `nodes` nodes run out (`self.nodes` says how many were
        searched).
        """
        start = _time.perf_counter()
        rest, best = self._remaining(state, all_moves, time, nodes)
        p = state.to_move
        value = state.score[p] - state.score[1 - p] + rest
        winner = None if value == 0 else (p if value > 0 else 1 - p)
        return SolveResult(value, winner, best, self.nodes, _time.perf_counter() - start)

    def _remaining(
        self, state: EdgeState, all_moves: bool, time: float | None, nodes: int | None
    ) -> tuple[int, list[int]]:
        """(margin of the cells still to capture for the side to move, best moves)."""
        self._load(state)
        self.nodes = 0
        self._start = _time.perf_counter()
        self._deadline = None if time is None else self._start + time
        self._node_limit = nodes
        if not self.n_empty:
            return 0, []
        rem = self.free
        if not all_moves:
            value, move = self._root(-rem, rem)
            return value, [move]
        values = {}
        for move in self._ordered_moves():
            values[move] = self._child_value(move, -rem - 1, rem + 1)
        best = max(values.values())
        return best, [m for m in sorted(values) if values[m] == best]

    def clear(self) -> None:
        self.table.clear()

    # --- internals -----------------------------------------------------------------------
    def _load(self, state: EdgeState) -> None:
        game = self.game
        self.empties = state.empties[:]
        self.claimed = [who >= 0 for who in state.claimed]
        self.n_empty = state.n_empty
        self.free = sum(1 for o in state.owner if o < 0)
        #: cells with exactly one empty edge (capturable now)
        self.ones = {c for c, left in enumerate(self.empties) if left == 1}
        perms = game.symmetries if self.symmetry else (game.symmetries[0],)
        self.smasks = [
            sum(1 << p[e] for e in range(game.num_moves) if self.claimed[e]) for p in perms
        ]

    def _claim(self, e: int) -> int:
        """Claim edge e; return the number of cells it completes."""
        self.claimed[e] = True
        self.n_empty -= 1
        self.smasks = [m | b for m, b in zip(self.smasks, self.sym_bits[e], strict=True)]
        done = 0
        empties, ones = self.empties, self.ones
        for c in self.edge_cells[e]:
            left = empties[c] - 1
            empties[c] = left
            if left == 1:
                ones.add(c)
            elif not left:
                ones.discard(c)
                done += 1
        self.free -= done
        return done

    def _unclaim(self, e: int, done: int) -> None:
        self.claimed[e] = False
        self.n_empty += 1
        self.smasks = [m ^ b for m, b in zip(self.smasks, self.sym_bits[e], strict=True)]
        empties, ones = self.empties, self.ones
        for c in self.edge_cells[e]:
            left = empties[c] + 1
            empties[c] = left
            if left == 1:
                ones.add(c)
            elif left == 2:
                ones.discard(c)
        self.free += done

    def _ordered_moves(self) -> list[int]:
        empties, claimed, edge_cells = self.empties, self.claimed, self.edge_cells
        captures, safe, risky = [], [], []
        for e in range(len(claimed)):
            if not claimed[e]:
                low = min(empties[c] for c in edge_cells[e])
                if low == 1:
                    captures.append(e)
                elif low >= 3:
                    safe.append(e)
                else:
                    risky.append((sum(empties[c] for c in edge_cells[e]), e))
        risky.sort(reverse=True)
        return captures + safe + [e for _, e in risky]

    def _forced_capture(self) -> int:
        """An edge whose capture is provably as good as anything, or -1."""
        if not self.ones:
            return -1
        empties, claimed, edge_cells = self.empties, self.claimed, self.edge_cells
        for c in self.ones:
            e = next(e for e in self.game.cell_edges[c] if not claimed[e])
            cells = edge_cells[e]
            if len(cells) == 1:
                return e
            other = empties[cells[0] if cells[1] == c else cells[1]]
            if other == 1 or other >= 3:
                return e
        return -1

    def _child_value(self, move: int, alpha: int, beta: int) -> int:
        done = self._claim(move)
        if done:
            value = done + self._search(alpha - done, beta - done)
        else:
            value = -self._search(-beta, -alpha)
        self._unclaim(move, done)
        return value

    def _root(self, alpha: int, beta: int) -> tuple[int, int]:
        best_value, best_move = None, -1
        for move in self._ordered_moves():
            value = self._child_value(move, alpha, beta)
            if best_value is None or value > best_value:
                best_value, best_move = value, move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                break
        assert best_value is not None
        return best_value, best_move

    def _search(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.n_empty:
            return 0
        if self._node_limit is not None and self.nodes > self._node_limit:
            raise SearchStopped.gave_up(_time.perf_counter() - self._start, self.nodes)
        deadline = self._deadline
        if deadline is not None and not self.nodes & 127 and _time.perf_counter() > deadline:
            raise SearchStopped.gave_up(_time.perf_counter() - self._start, self.nodes)
        free = self.free
        if self.forced_captures:
            e = self._forced_capture()
            if e >= 0:
                done = self._claim(e)
                value = done + self._search(alpha - done, beta - done)
                self._unclaim(e, done)
                return value
        key = min(self.smasks)
        entry = self.table.get(key)
        if entry is None:
            lo, hi = -free, free
        else:
            lo, hi = (entry >> 16) - BIAS, (entry & 0xFFFF) - BIAS
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a0, b0 = max(alpha, lo), min(beta, hi)
        a = a0
        best = -free - 1
        for move in self._ordered_moves():
            done = self._claim(move)
            value = done + self._search(a - done, b0 - done) if done else -self._search(-b0, -a)
            self._unclaim(move, done)
            if value > best:
                best = value
                if value > a:
                    a = value
                    if a >= b0:
                        break
        if best <= a0:
            hi = min(hi, best)
        if best >= b0:
            lo = max(lo, best)
        if a0 < best < b0:
            lo = hi = best
        if len(self.table) >= self.max_entries:
            self.table.clear()
        self.table[key] = ((lo + BIAS) << 16) | (hi + BIAS)
        return best
