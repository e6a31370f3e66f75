"""`solve`: the exact value of a position under perfect play.

Alpha-beta to the end of the game with a transposition table keyed by the
canonical symmetric hash, TT-move / killer / history ordering, and
enhanced transposition cutoffs (before searching the children of a node,
look them up in the TT: one of them may already refute the node).

Values are from the side to move at the root:
- unscored games: +1 win, 0 draw, -1 loss;
- scored games (`game.scored`): the final margin (own score minus the
  opponent's) when both sides maximise their margin; with `outcome=True`
  only its sign (+1, 0, -1), proved with the narrow window (-1, 1), which
  is much cheaper than the exact margin.
As everywhere in the library, a child position with the same side to move
(an extra turn) keeps its value; otherwise it is negated.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..budget import INF, Budget, Limits, gc_paused, given_limits, pause_gc_for
from ..errors import SearchStopped
from ..solution import EXACT as EXACT_VALUE
from ..solution import LOWER as LOWER_BOUND
from ..solution import UPPER as UPPER_BOUND
from ..solution import SolveResult
from .negamax import tt_key
from .ordering import MAX_PLY, History, Killers, cutoff_recorder, order_moves
from .tt import EXACT, LOWER, UPPER, TranspositionTable, lookup_function

if TYPE_CHECKING:
    from ..game import State

#: The solver's node function: (alpha, beta, ply) -> value from the side to move.
SolveNodeFn = Callable[[float, float, int], float]

def solve(
    state: State[Any],
    limits: Limits | None = None,
    *,
    time: float | None = None,
    nodes: int | None = None,
    all_moves: bool = False,
    tt_size: int = 1 << 18,
    symmetry: bool = True,
    etc: bool = True,
    outcome: bool = False,
    line: bool = False,
    window: tuple[float, float] | None = None,
    table: TranspositionTable | None = None,
) -> SolveResult:
    """Solve `state` exactly (leaving it unchanged).

    Returns SolveResult(value, winner, best, nodes, time, line, bound):
    `value` from the side to move at the root (see the module docstring),
    `winner` the winning player's index or None for a draw, `best` every
    optimal root move when `all_moves` else one optimal move ([] if the game
    is over), `line` a principal line when `line` is asked (else None).
    `limits` is the budget (`Limits(time=..., nodes=..., stop=...)`; its
    depth means nothing here), or the keywords `time=` and `nodes=`.
    Raises `errors.SearchStopped` when the budget is not enough, with the
    message "solve gave up after S s (N nodes)".
    `etc` turns enhanced transposition cutoffs on or off; `outcome` asks only
    for win, draw or loss (value +1, 0, -1) in scored games too.

    `window=(alpha, beta)` asks only where the value lies against the
    window: inside it the value is exact, otherwise `bound` is "upper"
    (value <= alpha: `value` is an upper bound) or "lower" (value >= beta),
    and then `best` is [] and `line` None.  A narrow window costs less than
    the exact value (split solving gives each task the best value already
    proved elsewhere).  With `outcome`, the window bounds the outcome.

    `table` is a transposition table to use (and keep) instead of a new one
    of `tt_size` entries: solves of positions of the same game can share
    one, since every entry is a bound on a position's exact value.
    """
    budget = Budget(given_limits(limits, None, time, nodes), what="solve")
    with gc_paused(pause_gc_for(budget.time)):
        return _solve(
            state, all_moves, budget, tt_size, symmetry, etc, outcome, line, window, table
        )


def _solve(
    state: State[Any],
    all_moves: bool,
    budget: Budget,
    tt_size: int,
    symmetry: bool,
    etc: bool,
    outcome: bool,
    line: bool = False,
    window: tuple[float, float] | None = None,
    table: TranspositionTable | None = None,
) -> SolveResult:
    solver = _Solver(
        state,
        tt_size=tt_size,
        table=table,
        symmetry=symmetry,
        etc=etc,
        budget=budget,
        outcome=outcome,
    )
    base = len(state.history)
    side = state.to_move
    bound = EXACT_VALUE
    pv: list[int] | None = None
    try:
        if state.is_over():
            value = solver.terminal()
            if outcome:
                value = (value > 0) - (value < 0)
            best: list[int] = []
            pv = [] if line else None
        else:
            value, move, bound = solver.root(window)
            best = [move] if bound == EXACT_VALUE else []
            if all_moves and bound == EXACT_VALUE:
                best = solver.optimal_moves(value)
            if line and bound == EXACT_VALUE:
                pv = solver.principal_line(value, move)
    except SearchStopped:
        _restore(state, base)
        raise budget.gave_up(solver.nodes) from None
    except BaseException:
        _restore(state, base)
        raise
    if value > 0:
        winner: int | None = side
    elif value < 0:
        winner = 1 - side
    else:
        winner = None
    if state.is_over() and not state.game.scored:
        winner = state.winner()
    if bound != EXACT_VALUE:  # only a bound: no winner named
        winner = None
    return SolveResult(int(value), winner, best, solver.nodes, budget.elapsed(), pv, bound)


def _restore(state: State[Any], length: int) -> None:
    while len(state.history) > length:
        state.undo()


class _Solver:
    def __init__(
        self,
        state: State[Any],
        *,
        tt_size: int,
        symmetry: bool,
        etc: bool,
        budget: Budget,
        outcome: bool = False,
        table: TranspositionTable | None = None,
    ) -> None:
        self.state = state
        self.scored = state.game.scored
        self.outcome = outcome
        if table is None and tt_size:
            table = TranspositionTable(max(tt_size, 2))
        self.tt = table
        self.symmetry = symmetry and len(state.hashes) > 1
        self.etc = etc and self.tt is not None
        self.killers = Killers(MAX_PLY)
        self.history = History(max(state.game.num_moves, 1))
        self.budget = budget
        self.nodes = 0
        #: The best move of the root, set when the root's search ends.
        self.best_root_move = -1
        self.node = self._build()

    def terminal(self) -> int:
        state = self.state
        side = state.to_move
        if self.scored:
            a, b = state.scores()
            return a - b if side == 0 else b - a
        winner = state.winner()
        return 0 if winner is None else 1 if winner == side else -1

    def window(self) -> tuple[float, float]:
        return (-INF, INF) if self.scored and not self.outcome else (-1, 1)

    def root(self, window: tuple[float, float] | None = None) -> tuple[int, int, str]:
        """(value, one optimal move, bound) of the root: the bound is EXACT
        unless the value falls outside `window` (see `solve`)."""
        low, high = self.window()
        alpha, beta = low, high
        if window is not None:
            if window[0] >= high and high < INF:  # at most `high`: nothing to search
                return int(high), -1, UPPER_BOUND
            if window[1] <= low and low > -INF:
                return int(low), -1, LOWER_BOUND
            alpha, beta = max(alpha, window[0]), min(beta, window[1])
        value = self.node(alpha, beta, 0)
        bound = UPPER_BOUND if value <= alpha else LOWER_BOUND if value >= beta else EXACT_VALUE
        if self.outcome or not self.scored:
            # Fail-soft values outside (-1, 1) only bound the margin: the sign is
            # the outcome, and an outcome at an end of [-1, 1] is exact.
            value = (value > 0) - (value < 0)
            if (bound == UPPER_BOUND and value <= -1) or (bound == LOWER_BOUND and value >= 1):
                bound = EXACT_VALUE
        return int(value), self.best_root_move, bound

    def optimal_moves(self, value: int) -> list[int]:
        """Every root move whose value equals `value` (each proved by a null window)."""
        state = self.state
        node = self.node
        side = state.to_move
        best = []
        if self.outcome and value < 0:
            return state.legal_moves()  # every move loses: none is worse
        for m in state.legal_moves():
            state.make(m)
            if state.to_move == side:
                ok = node(value - 1, value, 1) >= value
            else:
                ok = -node(-value, -value + 1, 1) >= value
            state.undo()
            if ok:
                best.append(m)
        return best

    def principal_line(self, value: int, first: int) -> list[int]:
        """Optimal play from the root (valued `value`) to the end of the game:
        at each position the first move, the table's best first, that keeps
        the value (proved by a null window, mostly answered by the table)."""
        state, node = self.state, self.node
        line: list[int] = []
        preferred = first
        try:
            while not state.is_over():
                side, ply = state.to_move, len(line) + 1
                moves = state.legal_moves()
                if preferred in moves:
                    moves.remove(preferred)
                    moves.insert(0, preferred)
                for m in moves:
                    state.make(m)
                    line.append(m)
                    same = state.to_move == side
                    if self.outcome and value < 0:
                        break  # every move keeps a lost outcome
                    if same and node(value - 1, value, ply) >= value:
                        break
                    if not same and -node(-value, -value + 1, ply) >= value:
                        break
                    line.pop()
                    state.undo()
                else:  # cannot happen: some move keeps the value
                    raise AssertionError("no move keeps the solved value")
                value = value if same else -value
                preferred = self._table_move()
        finally:
            for _ in line:
                state.undo()
        return line

    def _table_move(self) -> int:
        """The table's best move for the current position, or -1."""
        if self.tt is None:
            return -1
        key, frame = tt_key(self.state, self.symmetry)
        entry = self.tt.entry(key)  # checked against its seal in a shared table
        if entry is None or entry.move < 0:
            return -1
        m = entry.move
        return self.state.game.unmap_move(m, frame) if frame else m

    def _build(self) -> SolveNodeFn:
        """The solver's node function, a documented hot search loop (its TT store
        is written out in place: as a call it cost 3% of the nodes/s)."""
        solver, state = self, self.state
        make, undo, is_over, legal_moves = state.make, state.undo, state.is_over, state.legal_moves
        terminal, check = self.terminal, self.budget.check
        map_move, unmap_move = state.game.map_move, state.game.unmap_move
        symmetry, tt = self.symmetry, self.tt
        if tt is not None:
            tkeys, tdepths, tvalues = tt.keys, tt.depths, tt.values
            tbounds, tmoves, tages, mask = tt.bounds, tt.moves, tt.ages, tt.mask
            lookup = lookup_function(tt)
            tchecks = tt.checks if tt.checks is not None else tkeys  # read when shared only
        # A shared table (tt.py): entries are checked against their seal on
        # reading and sealed on writing, since other processes write too.
        shared = tt is not None and tt.checks is not None
        refute = self._refuter() if self.etc else None
        killer_table, hist_tables = self.killers.table, self.history.tables
        remember = cutoff_recorder(killer_table, hist_tables)
        checkpoint = self.budget.first_checkpoint(0)

        def node(alpha: float, beta: float, ply: int) -> float:
            nonlocal checkpoint
            solver.nodes += 1
            start_nodes = solver.nodes
            if start_nodes >= checkpoint:
                checkpoint = check(start_nodes)
            if is_over():
                return terminal()
            moves = legal_moves()
            side = state.to_move
            tt_move = -1
            if tt is not None:  # the TT may settle the node, or ETC refute it
                key, frame = tt_key(state, symmetry)
                i = lookup(key)
                if i >= 0:
                    v = tvalues[i]
                    b = tbounds[i]
                    m = tmoves[i]
                    if shared and tchecks[i] != key ^ hash(v) ^ (tdepths[i] << 32) ^ (b << 29) ^ (
                        m + 1
                    ):
                        b, m = -1, -1  # two processes' writes mixed: no entry
                    # Never cut at the root: it must still name its best move.
                    elif ply and (b == EXACT or (v >= beta if b == LOWER else v <= alpha)):
                        return v
                    if m >= 0:
                        tt_move = unmap_move(m, frame) if frame else m
                if refute is not None and ply:
                    refuted = refute(moves, side, beta)
                    if refuted is not None:
                        return refuted
            if len(moves) > 1:
                moves = order_moves(moves, tt_move, killer_table[ply], hist_tables[side])
            alpha0 = alpha
            best = -INF
            best_move = moves[0]
            for m in moves:
                make(m)
                if state.to_move == side:
                    v = node(alpha, beta, ply + 1)
                else:
                    v = -node(-beta, -alpha, ply + 1)
                undo()
                if v > best:
                    best = v
                    best_move = m
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            remember(m, ply, side, 1 + (solver.nodes - start_nodes).bit_length())
                            break
            if ply == 0:
                solver.best_root_move = best_move
            if tt is not None:  # the work done (log2 nodes) stands for the depth
                bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
                work = (solver.nodes - start_nodes).bit_length()
                i = (key & mask) << 1
                if not (tkeys[i] == key or work >= tdepths[i] or tages[i] != 0):
                    i += 1
                m = map_move(best_move, frame) if frame else best_move
                tkeys[i] = key
                tdepths[i] = work
                tvalues[i] = best
                tbounds[i] = bound
                tmoves[i] = m
                if shared:
                    tchecks[i] = key ^ hash(best) ^ (work << 32) ^ (bound << 29) ^ (m + 1)
            return best

        return node

    def _refuter(self) -> Callable[[list[int], int, float], float | None]:
        """Enhanced transposition cutoffs: `refute(moves, side, beta)` looks at
        every child before any is searched; a child known to refute the node
        (from the TT, or because it ends the game) saves searching the
        others first.  Returns that child's value (>= beta), or None."""
        state = self.state
        make, undo, is_over = state.make, state.undo, state.is_over
        terminal = self.terminal
        symmetry = self.symmetry
        assert self.tt is not None
        tvalues, tbounds = self.tt.values, self.tt.bounds
        lookup = lookup_function(self.tt)
        entry = self.tt.entry if self.tt.checks is not None else None  # a shared table

        def refute(moves: list[int], side: int, beta: float) -> float | None:
            for m in moves:
                make(m)
                same = state.to_move == side
                if is_over():
                    v: float = terminal()
                    undo()
                    if not same:
                        v = -v
                    if v >= beta:
                        return v
                    continue
                key, _ = tt_key(state, symmetry)
                j = lookup(key)
                undo()
                if j >= 0:
                    b = tbounds[j]
                    v = tvalues[j]
                    if entry is not None:  # shared: read the fields behind their seal
                        found = entry(key)
                        if found is None:
                            continue
                        b, v = found.bound, found.value
                    if same and b != UPPER and v >= beta:
                        return v
                    if not same and b != LOWER and -v >= beta:
                        return -v
            return None

        return refute
