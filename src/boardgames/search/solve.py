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

from time import perf_counter
from typing import TYPE_CHECKING

from ..errors import SearchStopped
from .negamax import INF, Budget, SearchAborted, gc_paused, pause_gc_for, tt_key
from .ordering import MAX_PLY, History, Killers, order_moves
from .result import SolveResult
from .tt import EXACT, LOWER, UPPER, TranspositionTable

if TYPE_CHECKING:
    from ..game import State


#: `solve` ran out of its time budget before proving the value (the
#: library's one "stopped early" exception, under the name it always had here).
SearchTimeout = SearchStopped


def solve(
    state: State,
    *,
    all_moves: bool = False,
    time: float | None = None,
    tt_size: int = 1 << 18,
    symmetry: bool = True,
    etc: bool = True,
    outcome: bool = False,
) -> SolveResult:
    """Solve `state` exactly (leaving it unchanged).

    Returns SolveResult(value, winner, best, nodes, time): `value` from the
    side to move at the root (see the module docstring), `winner` the
    winning player's index or None for a draw, `best` every optimal root
    move when `all_moves` else one optimal move ([] if the game is over).
    Raises SearchTimeout (`errors.SearchStopped`) when `time` seconds are
    not enough, with the message "solve gave up after S s (N nodes)".
    `etc` turns enhanced transposition cutoffs on or off; `outcome` asks only
    for win, draw or loss (value +1, 0, -1) in scored games too.
    """
    start = perf_counter()
    with gc_paused(pause_gc_for(time)):
        return _solve(state, all_moves, time, tt_size, symmetry, etc, outcome, start)


def _solve(
    state: State,
    all_moves: bool,
    time: float | None,
    tt_size: int,
    symmetry: bool,
    etc: bool,
    outcome: bool,
    start: float,
) -> SolveResult:
    solver = _Solver(
        state,
        tt_size=tt_size,
        symmetry=symmetry,
        etc=etc,
        time=time,
        start=start,
        outcome=outcome,
    )
    base = len(state.history)
    side = state.to_move
    try:
        if state.is_over():
            value = solver.terminal()
            if outcome:
                value = (value > 0) - (value < 0)
            best: list[int] = []
        else:
            value, move = solver.root()
            best = [move]
            if all_moves:
                best = solver.optimal_moves(value)
    except BaseException as exc:
        while len(state.history) > base:
            state.undo()
        if not isinstance(exc, SearchAborted):
            raise
        raise SearchStopped.gave_up(perf_counter() - start, solver.nodes) from None
    if value > 0:
        winner: int | None = side
    elif value < 0:
        winner = 1 - side
    else:
        winner = None
    if state.is_over() and not state.game.scored:
        winner = state.winner()
    return SolveResult(int(value), winner, best, solver.nodes, perf_counter() - start)


class _Solver:
    def __init__(
        self,
        state: State,
        *,
        tt_size: int,
        symmetry: bool,
        etc: bool,
        time: float | None,
        start: float,
        outcome: bool = False,
    ) -> None:
        self.state = state
        self.scored = state.game.scored
        self.outcome = outcome
        self.tt = TranspositionTable(max(tt_size, 2)) if tt_size else None
        self.symmetry = symmetry and len(state.hashes) > 1
        self.etc = etc and self.tt is not None
        self.killers = Killers(MAX_PLY)
        self.history = History(max(state.game.num_moves, 1))
        self.budget = Budget(time, None, start)
        self.nodes = 0
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

    def root(self) -> tuple[int, int]:
        """(value, one optimal move) of the root."""
        alpha, beta = self.window()
        value = self.node(alpha, beta, 0)
        if self.outcome:
            # Fail-soft values outside (-1, 1) only bound the margin.
            value = (value > 0) - (value < 0)
        return value, self.best_root_move

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

    def _build(self):
        solver = self
        state = self.state
        make, undo = state.make, state.undo
        is_over, legal_moves = state.is_over, state.legal_moves
        terminal = self.terminal
        check = self.budget.check
        game = state.game
        map_move, unmap_move = game.map_move, game.unmap_move
        tt = self.tt
        use_tt = tt is not None
        if use_tt:
            tkeys, tdepths, tvalues = tt.keys, tt.depths, tt.values
            tbounds, tmoves, tages = tt.bounds, tt.moves, tt.ages
            mask = tt.mask
        symmetry = self.symmetry
        etc = self.etc
        killer_table = self.killers.table
        hist_tables = self.history.tables
        checkpoint = self.budget.first_checkpoint(0)

        def key_of() -> tuple[int, int]:
            return tt_key(state, symmetry)

        def lookup(key: int) -> int:
            i = (key & mask) << 1
            if tkeys[i] == key:
                return i
            if tkeys[i + 1] == key:
                return i + 1
            return -1

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
            if use_tt:
                key, frame = key_of()
                i = lookup(key)
                if i >= 0:
                    v = tvalues[i]
                    b = tbounds[i]
                    # Never cut at the root: it must still name its best move.
                    if ply and (b == EXACT or (v >= beta if b == LOWER else v <= alpha)):
                        return v
                    m = tmoves[i]
                    if m >= 0:
                        tt_move = unmap_move(m, frame) if frame else m
                if etc and ply:
                    # Enhanced transposition cutoff: a child already known to
                    # refute this node (from the TT, or because it ends the
                    # game) saves searching the others first.
                    for m in moves:
                        make(m)
                        same = state.to_move == side
                        j = -1
                        if is_over():
                            v = terminal()
                            undo()
                            if not same:
                                v = -v
                            if v >= beta:
                                return v
                            continue
                        ckey, _ = key_of()
                        j = lookup(ckey)
                        undo()
                        if j >= 0:
                            b = tbounds[j]
                            v = tvalues[j]
                            if same and b != UPPER and v >= beta:
                                return v
                            if not same and b != LOWER and -v >= beta:
                                return -v
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
                            slot = killer_table[ply]
                            if slot[0] != m:
                                slot[1] = slot[0]
                                slot[0] = m
                            hist_tables[side][m] += 1 + (solver.nodes - start_nodes).bit_length()
                            break
            if ply == 0:
                solver.best_root_move = best_move
            if use_tt:
                bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
                # Depth-preferred slot keeps the entries of the biggest subtrees.
                work = (solver.nodes - start_nodes).bit_length()
                i = (key & mask) << 1
                if not (tkeys[i] == key or work >= tdepths[i] or tages[i] != 0):
                    i += 1
                tkeys[i] = key
                tdepths[i] = work
                tvalues[i] = best
                tbounds[i] = bound
                tmoves[i] = map_move(best_move, frame) if frame else best_move
            return best

        return node
