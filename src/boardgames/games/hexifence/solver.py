"""The exact solver of the edge-capture games (dots-and-boxes, HexiFence).

`EdgeSolver(game).solve(state, limits)` returns a `SolveResult` (the final
margin for the side to move, the winner, the best moves) and raises
`boardgames.errors.SearchStopped` when its budget (time, nodes, a stop
signal) runs out; the node count and the budget's checks are
`solution.SolverBase`'s.
`principal_line` gives a line of optimal play.  The position's arrays and
moves are position.py's `Position`; the search is here.

What it searches (see docs/hexifence.md for measurements of each):

- The value of a position for the side to move is the margin of the cells
  still to be captured: it depends on the claimed edges alone, so the
  table (table.py) is keyed on them, with two bounds per entry.
- Positions are seen as strings and coins (coins.py): the border edges of a
  cell are one move and the key counts them; keys are canonical over the
  board's symmetries.
- Chain rules (chains.py): forced captures, all-but-two, and only "take
  both or double-deal" for the last two cells of a chain; once no cell has
  three empty edges, the value of the independent chains and loops comes
  from Berlekamp's analysis without search.
- Null-window searches (MTD(f) stepping by 2: the margin has the parity of
  the cells left) find the value; best move from the table first, then safe
  moves centre-first, then sacrifices of one cell before two.
- In a parallel solve (`SolverBase.share`), a node with at least
  SHARE_EDGES empty edges also reads and writes the shared table, and one
  with at least EXCLUSIVE_EDGES leaves a move another process is searching
  for after its other moves (busy.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...budget import Budget, Limits
from ...busy import MASK as BUSY_MASK
from ...busy import move_mark
from ...solution import SolverBase, SolveResult, split_order
from .chains import capture_plan, simple_parts
from .experts import simple_loony_value
from .position import Position
from .table import FIELD, HI_SHIFT, MOVE_FIELD, MOVE_SHIFT, OFFSET, pack, unpack

#: A parallel solve shares the entries of nodes with this many empty edges
#: or more (the smaller subtrees cost less to search again than a look in
#: the shared table at every node).
SHARE_EDGES = 8
#: A node of a parallel solve with this many empty edges or more leaves for
#: later a move another process is searching (busy.py).
EXCLUSIVE_EDGES = 20

if TYPE_CHECKING:
    from .rules import EdgeGame, EdgeState


class EdgeSolver(SolverBase, Position):
    """Reusable exact solver for one game; keeps its table between calls.

    The keyword switches turn single techniques off, for measurements and
    for cross-checks: `symmetry` (canonical keys), `forced_captures` (the
    chain rules), `loony` (the chains-and-loops value without search),
    `mtd` (null-window driver instead of one full-window search).

    `safe_only` solves the safe-edge model instead of the game: while a
    safe move (one that offers no cell) is left, only safe moves are
    searched; then every move.  Its values are those of a game in which
    nobody sacrifices early: exact for the loony endgame, a bet before it.
    """

    def __init__(
        self,
        game: EdgeGame,
        *,
        symmetry: bool = True,
        forced_captures: bool = True,
        loony: bool = True,
        mtd: bool = True,
        etc_edges: int = 18,
        max_entries: int = 8_000_000,
        safe_only: bool = False,
    ) -> None:
        Position.__init__(self, game, symmetry, forced_captures, safe_only)
        #: The table: key -> table.pack(lower, upper, best move, work), the current
        #: generation (both generations together hold at most `max_entries`).
        SolverBase.__init__(self, max_entries)
        self.loony = loony
        self.mtd = mtd
        #: enhanced transposition cutoffs at nodes with at least this many empty edges
        self.etc_edges = etc_edges
        #: the previous generation, read but no longer written (see `make_room`)
        self.old: dict[int, int] = {}

    # --- public -----------------------------------------------------------------------
    def solve(
        self,
        state: EdgeState,
        limits: Limits | None = None,
        *,
        all_moves: bool = False,
        line: bool = False,
    ) -> SolveResult:
        """The exact final margin (own minus opponent's) for the side to move.

        `best` holds one best move, or every one with `all_moves` (every
        border edge of a cell when its border move is best); `nodes` counts
        the searched positions; `line` adds a principal line, read from the
        same table.  Raises SearchStopped when the `limits` (time, nodes, a
        stop signal; the line included) run out (`self.nodes` says how many
        were searched).
        """
        budget = self._begin(state, limits)
        rest, best = self._root(all_moves)
        p = state.to_move
        value = state.score[p] - state.score[1 - p] + rest
        edges = self._edges(state, best, all_moves)
        result = self.result(value, p, edges)
        if line:
            result.line = []
            if edges:  # the line starts with the move `best` names
                after = state.copy()
                after.make(edges[0])
                result.line = [edges[0], *self.principal_line(after, budget.remaining())]
            result.time = budget.elapsed()
        return result

    def principal_line(self, state: EdgeState, limits: Limits | None = None) -> list[int]:
        """One line of optimal play from `state` to the end (edges, extra
        turns included): at each step a move that keeps the solved value."""
        self._begin(state, limits)
        line: list[int] = []
        state = state.copy()
        while state.n_empty:
            self._load(state)
            target = self._value()
            move = next(m for m in self._root_moves() if self._child_at_least(m, target))
            edge = self._edges(state, [move], False)[0]
            line.append(edge)
            state.make(edge)
        return line

    def reaches(
        self,
        state: EdgeState,
        target: int,
        limits: Limits | None = None,
    ) -> bool:
        """Does the side to move end at least `target` cells ahead (final
        margin, captured cells included)?  One null-window test; raises
        SearchStopped like `solve`."""
        self._begin(state, limits)
        p = state.to_move
        need = target - (state.score[p] - state.score[1 - p])
        if not self.n_empty:
            return need <= 0
        return self._search(need - 1, need) >= need

    def move_reaching(
        self,
        state: EdgeState,
        target: int,
        limits: Limits | None = None,
    ) -> int | None:
        """An edge after which the side to move still ends at least `target`
        cells ahead (final margin, captured cells included), or None when no
        move does.  Null-window tests only, the table's move first; raises
        SearchStopped like `solve`."""
        self._begin(state, limits)
        p = state.to_move
        need = target - (state.score[p] - state.score[1 - p])
        if not self.n_empty:
            return None
        if self._search(need - 1, need) < need:
            return None
        moves = self._root_moves()
        first = self._table_move()
        if first in moves:
            moves.remove(first)
            moves.insert(0, first)
        move = next(m for m in moves if self._child_at_least(m, need))
        return self._edges(state, [move], False)[0]

    def outlook(self, state: EdgeState) -> list[tuple[int, int, int, int]]:
        """What the table already knows of each move, without searching:
        (edge, low, high, work): bounds of the final margin (captured cells
        included) for the side to move if it plays the edge, from the
        child's entry (all cells lost or won when it has none), and the work
        the entry cost.  After an interrupted search this tells proven wins
        and losses from moves still open."""
        self._begin(state)
        p = state.to_move
        now = state.score[p] - state.score[1 - p]
        out: list[tuple[int, int, int, int]] = []
        for m in self._root_moves():
            done = self._claim(m)
            free = self.free
            entry = self._lookup(min(self.keys)) if free else pack(0, 0, -1, 0)
            self._unclaim(m, done)
            low, high, work = now - self.free, now + self.free, 0
            if entry is not None:
                lo, hi, _, work = unpack(entry)
                low, high = (done + lo, done + hi) if done else (-hi, -lo)
                low, high = now + low, now + high
            out.append((self._edges(state, [m], False)[0], low, high, work))
        return out

    def proven(self, state: EdgeState) -> tuple[int, int] | None:
        """(final margin, edge): the best margin the table already proves for
        the side to move and a move proven to keep it, from earlier searches
        (an interrupted solve included); None when no move has a bound yet."""
        p = state.to_move
        worst = state.score[p] - state.score[1 - p] - sum(1 for e in state.empties if e)
        known = [(low, edge) for edge, low, _, _ in self.outlook(state) if low > worst]
        return max(known) if known else None

    def value(self, state: EdgeState) -> int:
        """The margin of the cells still to capture, for the side to move."""
        self._begin(state)
        return self._value()

    def clear(self) -> None:
        """Forget every solved position (both tables)."""
        self.table.clear()
        self.old.clear()

    # --- loading a position -----------------------------------------------------------
    def _begin(self, state: EdgeState, limits: Limits | None = None) -> Budget:
        """Start a search of `state` under `limits`."""
        budget = self.begin(limits)
        self._load(state)
        return budget

    # --- the drivers ------------------------------------------------------------------
    def _root(self, all_moves: bool) -> tuple[int, list[int]]:
        """(margin of the cells left for the side to move, best solver moves)."""
        if not self.n_empty:
            return 0, []
        value = self._value()
        moves = self._root_moves()
        if all_moves:
            return value, sorted(m for m in moves if self._child_at_least(m, value))
        best = self._table_move()
        if best in moves and self._child_at_least(best, value):
            return value, [best]
        return value, [next(m for m in moves if self._child_at_least(m, value))]

    def _value(self) -> int:
        """The exact value of the loaded position: MTD(f) by null windows."""
        free = self.free
        if not self.mtd:
            return self._search(-free - 1, free + 1)
        lo, hi = -free, free
        guess = 0
        if self.variant:  # a helper: first a share of the main solve's first two tests
            self._split(1 if free % 2 else 0)
        while lo < hi:
            beta = max(guess, lo + 1)
            if (beta - free) % 2:  # the value has the parity of the cells left
                beta += 1
            guess = self._search(beta - 1, beta)
            if guess >= beta:
                lo = guess + (guess - free) % 2
            else:
                hi = guess - (guess - free) % 2
        return lo

    def vary(self, index: int) -> bool:
        """Make this solver helper `index` of a parallel solve: it solves the
        root as the main process does, after taking on a share of the main
        solve's first two null-window tests (`_split`)."""
        self.variant = index
        return True

    def _split(self, beta: int) -> None:
        """A helper's share of the main solve's first two tests, "at least
        `beta`?" and, if that holds, "at least `beta` + 2?", taken from the
        other end of the move lists than the main process takes them.

        Where the first test holds, the main process proves it with its
        first move, and every reply to that move must then be refuted: the
        helper searches those replies, last first, with the windows the
        main search will give them.  Where the second test fails, every
        root move must be refuted: the helper searches them, last first.
        What either proves lands in the shared table, and the two processes
        meet in the middle.  (Other helpers rotate the lists instead.)"""
        first = next(iter(self._ordered(self._table_move())))
        done = self._claim(first)
        try:
            if self.free:
                self._refute_all(*self._child_window(done, beta - 1, beta))
        finally:
            self._unclaim(first, done)
        self._refute_all(beta + 1, beta + 2)

    def _refute_all(self, alpha: int, beta: int) -> None:
        """Search each move of the loaded position in the helper's order
        (last first for odd helpers, rotated for the others) with the window
        (`alpha`, `beta`) given to the node."""
        for m in split_order(list(self._ordered(self._table_move())), self.variant):
            done = self._claim(m)
            try:
                a, b = self._child_window(done, alpha, beta)
                self._search(a, b)
            finally:
                self._unclaim(m, done)

    @staticmethod
    def _child_window(done: int, alpha: int, beta: int) -> tuple[int, int]:
        """The window of the node after a move that completed `done` cells,
        for a node searched with (`alpha`, `beta`): the mover's own window
        less the cells when it moves again, else the opponent's."""
        return (alpha - done, beta - done) if done else (-beta, -alpha)

    def _child_at_least(self, move: int, target: int) -> bool:
        """Does solver move `move` keep at least `target` for the mover?"""
        done = self._claim(move)
        try:
            if done:
                return done + self._search(target - 1 - done, target - done) >= target
            return -self._search(-target, -target + 1) >= target
        finally:
            self._unclaim(move, done)

    def _table_move(self) -> int:
        key = min(self.keys)
        entry = self._lookup(key)
        move = -1 if entry is None else ((entry >> MOVE_SHIFT) & MOVE_FIELD) - 1
        return move if move < 0 else self.coins.from_frame[self.keys.index(key)][move]

    def _lookup(self, key: int) -> int | None:
        entry = self.table.get(key)
        return self.old.get(key) if entry is None else entry

    def make_room(self) -> None:
        """The current generation is full: it becomes the old one (still
        read), the one before is dropped, and a new one starts.  Constant
        work at the switch, where sorting out the cheap entries of a full
        table took 0.4 s of CPU per 2 M entries, inside some move's clock."""
        self.purges += 1
        self.old = self.table
        self.table = {}

    # --- the search -------------------------------------------------------------------
    def _search(self, alpha: int, beta: int) -> int:
        """Fail-soft alpha-beta on the margin of the cells left (hot loop).

        Kept in one function on purpose (documented hot loop): the moves
        are made and taken back inline, because a method call per move
        costs a third of the time.
        """
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.poll()
        inner = self._inner
        emp, ones, claimed, gleft = self.emp, self.ones, self.claimed, self.gleft
        moves: Iterable[int] | None = None
        if ones and self.forced_captures:
            plan = capture_plan(ones, emp, gleft, claimed, self._links, inner)
            if type(plan) is int:
                return self._take_forced(plan, alpha, beta)
            if type(plan) is tuple:
                return self._pair(plan, alpha, beta)
            moves = plan  # type: ignore[assignment]  # narrowed by `type(plan) is` above
        free = self.free
        if not free:
            return 0
        keys = self.keys
        key = min(keys)
        table = self.table
        entry = table.get(key)
        if entry is None and self.old:
            entry = self.old.get(key)
        shared = self.shared
        if entry is None and shared is not None and self.n_empty >= SHARE_EDGES:
            entry = shared.get(key)
        if entry is None:
            if not self.n3 and not ones and self.loony:
                value = simple_loony_value(simple_parts(emp, gleft, claimed, self._links))
                table[key] = pack(value, value, -1, 0)
                return value
            if alpha >= free:
                return free
            if beta <= -free:
                return -free
            lo, hi, best_move = -free, free, -1
        else:
            lo = (entry & FIELD) - OFFSET
            hi = ((entry >> HI_SHIFT) & FIELD) - OFFSET
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            best_move = ((entry >> MOVE_SHIFT) & MOVE_FIELD) - 1
            if best_move >= 0:  # stored in the key's frame
                best_move = self._from_frame[keys.index(key)][best_move]
        if moves is None:
            moves = self._ordered(best_move)
        elif best_move in moves:
            moves = (best_move,) + tuple(m for m in moves if m != best_move)
        a0, b0 = max(alpha, lo), min(beta, hi)
        deltas, move_cells = self._deltas, self._move_cells
        if not ones and self.n_empty >= self.etc_edges:
            moves = list(moves)
            # Enhanced transposition cutoff: a child already known to be bad
            # enough for the opponent settles this node without a search.
            for m in moves:
                child = self._lookup(min([k + d for k, d in zip(keys, deltas[m])]))
                if child is not None and OFFSET - ((child >> HI_SHIFT) & FIELD) >= b0:
                    value = OFFSET - ((child >> HI_SHIFT) & FIELD)
                    if value > lo:
                        move = self._to_frame[keys.index(key)][m]
                        table[key] = pack(value, hi, move, 0)
                    return value
        a = a0
        best, best_move = -free - 1, -1
        start_nodes = self.nodes
        exclusive = shared is not None and self.n_empty >= EXCLUSIVE_EDGES
        if exclusive:  # busy.py: a move another process is on waits
            assert shared is not None
            busy = shared.busy
            moves = list(moves)
            first_pass, tried = len(moves), 0
        for m in moves:
            if exclusive:
                tried += 1
                mark = move_mark(key, m)
                at = mark & BUSY_MASK
                if 1 < tried <= first_pass and busy[at] == mark:
                    moves.append(m)  # type: ignore[attr-defined]  # a list here
                    continue
                busy[at] = mark
            # make m (inline _claim)
            if m < inner:
                claimed[m] = True
            else:
                gleft[m - inner] -= 1
            self.keys = [k + d for k, d in zip(keys, deltas[m])]
            self.n_empty -= 1
            done = 0
            for c in move_cells[m]:
                left = emp[c] - 1
                emp[c] = left
                if left == 2:
                    self.n3 -= 1
                elif left == 1:
                    ones.add(c)
                elif not left:
                    ones.discard(c)
                    done += 1
            if done:
                self.free = free - done
                value = done + self._search(a - done, b0 - done)
                self.free = free
            else:
                value = -self._search(-b0, -a)
            # take m back (inline _unclaim)
            if m < inner:
                claimed[m] = False
            else:
                gleft[m - inner] += 1
            self.keys = keys
            self.n_empty += 1
            for c in move_cells[m]:
                left = emp[c] + 1
                emp[c] = left
                if left == 3:
                    self.n3 += 1
                elif left == 2:
                    ones.discard(c)
                elif left == 1:
                    ones.add(c)
            if exclusive and busy[at] == mark:
                busy[at] = 0
            if value > best:
                best, best_move = value, m
                if value > a:
                    a = value
                    if a >= b0:
                        break
        if best <= a0:
            hi = best
        elif best >= b0:
            lo = best
        else:
            lo = hi = best
        if lo > -free and (lo - free) % 2:
            lo += 1
        if hi < free and (hi - free) % 2:
            hi -= 1
        if best_move >= 0:
            best_move = self._to_frame[keys.index(key)][best_move]
        entry = pack(lo, hi, best_move, (self.nodes - start_nodes).bit_length())
        table = self.table  # a search below may have started a new generation
        if len(table) >= self.max_entries // 2:
            self.make_room()
            table = self.table
        table[key] = entry
        if shared is not None and self.n_empty >= SHARE_EDGES:
            shared.put(key, entry)
        return best

    def _pair(self, hand_out: tuple[int, ...], alpha: int, beta: int) -> int:
        """The last two cells of a chain (or four of a loop) on offer: take
        them all or double-deal.

        Both leave the same position R (the hand-out's edges claimed);
        taking scores n + v(R), declining -n - v(R) for the n cells.
        Fail-soft in (alpha, beta)."""
        done = [self._claim(m) for m in hand_out]
        gained = sum(done)
        if self.free:
            take = gained + self._search(alpha - gained, beta - gained)
            if take < beta:
                decline = -gained - self._search(-beta - gained, -max(alpha, take) - gained)
                take = max(take, decline)
        else:
            take = gained
        for m, cells in zip(reversed(hand_out), reversed(done), strict=True):
            self._unclaim(m, cells)
        return take

    def _take_forced(self, move: int, alpha: int, beta: int) -> int:
        """Make the forced capture `move` and every forced capture after it,
        search what is left, take them back: the taker keeps the move."""
        co = self.coins
        taken = []
        gained = 0
        plan: int | tuple[int, ...] = move
        while type(plan) is int:
            done = self._claim(plan)
            taken.append((plan, done))
            gained += done
            if not self.ones:
                break
            plan = capture_plan(  # type: ignore[assignment]  # a non-int plan ends the loop
                self.ones, self.emp, self.gleft, self.claimed, co.cell_links, co.inner
            )
        value = gained + self._search(alpha - gained, beta - gained) if self.free else gained
        for m, done in reversed(taken):
            self._unclaim(m, done)
        return value
