"""Alpha-beta and NegaScout: the node function of the negamax core.

`build_alphabeta(core, evaluator, pvs=...)` returns the node function and
its `stats`.  This is the documented hot search loop of the library: every
node of an alpha-beta or NegaScout search runs through it, so it is one
closure over local tables and plain nonlocal int counters, with its
sections written out in place (see the comments 1-5 in `node`).  Moving the
TT probe, the TT store or NegaScout's re-searches into functions of their
own cost 2-5% of the nodes/s on Connect Four (one more call per node), and
even the killer and history update of a cutoff, run at cut nodes only,
cost 0.4-1% of the instructions as a call, so it stays in place too.

Conventions (see negamax.py): scores from the side to move; a child with
the same side to move (an extra turn) keeps its score and window, others
are negated and mirrored; depth counts moves.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..budget import INF
from ..busy import MASK as BUSY_MASK
from .ordering import order_moves
from .result import MATE_BOUND, SearchStats
from .tt import EXACT, KEY_MASK, LOWER, NEVER, SIDE_KEY, SOLVED, UPPER

if TYPE_CHECKING:
    from ..budget import Budget
    from ..evaluation import Evaluator
    from ..game import State
    from .ordering import History, Killers, Order
    from .tt import TranspositionTable

#: A node function: (depth, alpha, beta, ply) -> score from the side to move.
NodeFn = Callable[[int, float, float, int], float]
#: Null-window width of NegaScout; any positive width is correct, and
#: evaluators in this library score in whole units.
NULL_WINDOW = 1
#: Late move reductions: at depth >= LMR_DEPTH, the moves ordered after the
#: first LMR_AFTER (TT move, killers, best history) get a null-window search
#: one ply shallower; one that beats alpha is searched again at full depth.
LMR_AFTER = 3
LMR_DEPTH = 3
#: Sharing the work of a parallel search (ABDADA, busy.py): at a node at
#: least this deep, a process marks each child it searches in the shared
#: table's `busy` array, and leaves a move (other than the first) whose
#: child another process has marked for after its other moves.
EXCLUSIVE_DEPTH = 3
#: The principal variation of a node with none (a leaf, a TT answer).
EMPTY_PV: tuple[int, ...] = ()


class NodeContext(Protocol):
    """What a node function reads from the search that builds it
    (`negamax.Core`): the position, the budget and the tables."""

    @property
    def state(self) -> State[Any]:
        """The position searched (made and undone in place)."""
    @property
    def budget(self) -> Budget:
        """The search's budget, polled at the nodes."""
    @property
    def tt(self) -> TranspositionTable | None:
        """The transposition table, or None."""
    @property
    def symmetry(self) -> bool:
        """Whether the table's keys are symmetry-canonical."""
    @property
    def killers(self) -> Killers | None:
        """The killer-move table, or None."""
    @property
    def history(self) -> History | None:
        """The history table, or None."""
    @property
    def order(self) -> Order[Any] | None:
        """The static move order (`Searcher(order=...)`), or None."""
    @property
    def reductions(self) -> bool:
        """Whether late moves are searched with reduced depth."""
    @property
    def pv_table(self) -> list[tuple[int, ...]]:
        """The principal variation found at each ply."""
    @property
    def terminal(self) -> Callable[[int], float]:
        """The score of a finished game from the side to move, `ply` moves from
        the root (`negamax.terminal_scorer`)."""


def build_alphabeta(
    core: NodeContext, evaluator: Evaluator[Any], *, pvs: bool
) -> tuple[NodeFn, Callable[[], SearchStats]]:
    """Fail-soft alpha-beta with TT, killers and history over `core`'s state
    and tables; `pvs` adds NegaScout's null-window searches of every move
    after the first.  Returns (node, stats).  The documented hot search
    loop: kept whole for speed (see the module docstring)."""
    state = core.state
    check: Callable[[int], int] = core.budget.check
    make, undo = state.make, state.undo
    is_over, legal_moves = state.is_over, state.legal_moves
    terminal = core.terminal
    pvt = core.pv_table
    map_move, unmap_move = state.game.map_move, state.game.unmap_move
    order = core.order
    tt = core.tt
    if tt is not None:
        tkeys, tdepths, tvalues = tt.keys, tt.depths, tt.values
        tbounds, tmoves, tages = tt.bounds, tt.moves, tt.ages
        mask, generation = tt.mask, tt.generation
        tchecks = tt.checks if tt.checks is not None else tkeys  # read when shared only
    # A shared table (tt.py): entries are checked against their seal on
    # reading and sealed on writing, since other processes write too.
    shared = tt is not None and tt.checks is not None
    marks = tt.busy if tt is not None else None
    busy = marks if marks is not None else array("q")  # read when shared only
    # Below this depth no node marks or defers its children (EXCLUSIVE_DEPTH).
    exclusive_depth = EXCLUSIVE_DEPTH if marks is not None else NEVER
    symmetry = core.symmetry and len(state.hashes) > 1
    killer_table = core.killers.table if core.killers is not None else None
    hist_tables = core.history.tables if core.history is not None else None
    use_tt = tt is not None
    use_ordering = killer_table is not None or hist_tables is not None or use_tt
    lmr = pvs and core.reductions  # late move reductions: see LMR_AFTER
    nw = NULL_WINDOW
    nodes = probes = hits = cutoffs = first_cutoffs = horizon = deferred = 0
    checkpoint = core.budget.first_checkpoint(0)
    if tt is not None and tt.room() < NEVER:
        # A growing table (tt.py): the node checks it at its checkpoints, the
        # ones of the budget and one more whenever it may be due to grow
        # (a node writes at most one new key), so this costs the node nothing.
        budget_check, budget_next = check, checkpoint
        grow_next = tt.room()
        misses = 0  # probes - hits at the last look: the new keys written
        checkpoint = min(budget_next, grow_next)

        def check_and_grow(n: int) -> int:
            """The budget's check, and the table's growth between two nodes."""
            nonlocal budget_next, grow_next, misses, mask
            nonlocal tkeys, tdepths, tvalues, tbounds, tmoves, tages
            if n >= grow_next:
                new = probes - hits - misses
                misses += new
                if tt.added(new):  # it grew: take the new arrays
                    tkeys, tdepths, tvalues = tt.keys, tt.depths, tt.values
                    tbounds, tmoves, tages = tt.bounds, tt.moves, tt.ages
                    mask = tt.mask
                grow_next = n + tt.room()
            if n >= budget_next:
                budget_next = budget_check(n)
            return min(budget_next, grow_next)

        check = check_and_grow

    def node(depth: int, alpha: float, beta: float, ply: int) -> float:
        nonlocal nodes, probes, hits, cutoffs, first_cutoffs, horizon, checkpoint, deferred
        # 1. Count the node, check the budget, score ends and horizon leaves.
        nodes += 1
        if nodes >= checkpoint:
            checkpoint = check(nodes)
        pvt[ply] = EMPTY_PV
        if is_over():
            return terminal(ply)
        if depth <= 0:
            horizon += 1
            return evaluator(state)
        # 2. The transposition table may settle the node or name a move.
        side = state.to_move
        tt_move = -1
        horizon0 = horizon
        if use_tt:
            hashes = state.hashes
            if symmetry:
                key = min(hashes)
                frame = hashes.index(key)
            else:
                key = hashes[0]
                frame = 0
            if side:
                key ^= SIDE_KEY
            key &= KEY_MASK
            probes += 1
            i = (key & mask) << 1
            if tkeys[i] != key:
                i += 1
                if tkeys[i] != key:
                    i = -1
            if i >= 0:
                d, v, b, m = tdepths[i], tvalues[i], tbounds[i], tmoves[i]
                if shared and tchecks[i] != key ^ hash(v) ^ (d << 32) ^ (b << 29) ^ (m + 1):
                    i = -1  # two processes' writes mixed: no entry
            if i >= 0:
                hits += 1
                if d >= depth:
                    if v >= MATE_BOUND:
                        v -= ply
                    elif v <= -MATE_BOUND:
                        v += ply
                    if b == EXACT or (v >= beta if b == LOWER else v <= alpha):
                        if d < SOLVED:
                            horizon += 1
                        return v
                if m >= 0:
                    tt_move = unmap_move(m, frame) if frame else m
        # 3. The moves, best first.
        moves = legal_moves()
        if not moves:
            horizon += 1
            return evaluator(state)
        if order is not None:
            moves = order(state, moves)
        if use_ordering and len(moves) > 1:
            killers = killer_table[ply] if killer_table is not None else None
            history = hist_tables[side] if hist_tables is not None else None
            moves = order_moves(moves, tt_move, killers, history)
        # 4. The children.  At a frontier node (depth 1) they are leaves,
        # scored here without a call each: most nodes of a tree are leaves.
        alpha0 = alpha
        best = -INF
        best_move = moves[0]  # stands if no move beats -INF (a NaN evaluator)
        child_depth = depth - 1
        child_ply = ply + 1
        reduce = lmr and depth >= LMR_DEPTH
        leaves = child_depth == 0
        if leaves:
            pvt[child_ply] = EMPTY_PV
        index = -1  # a counter, not enumerate(): one call less per node (~3%)
        exclusive = depth >= exclusive_depth
        if exclusive:  # a move may be put back at the end: a list of our own
            moves = list(moves)
            first_pass = len(moves)
        for m in moves:
            index += 1
            make(m)
            if exclusive:
                # ABDADA: a later move whose child another process is
                # searching waits at the end; the others are marked busy.
                mark = state.hashes[0] & KEY_MASK
                at = mark & BUSY_MASK
                if busy[at] == mark and 0 < index < first_pass:
                    undo()
                    moves.append(m)
                    deferred += 1
                    continue
                busy[at] = mark
            if leaves:
                nodes += 1
                if nodes >= checkpoint:
                    checkpoint = check(nodes)
                if is_over():
                    v = terminal(child_ply)
                else:
                    horizon += 1
                    v = evaluator(state)
                if state.to_move != side:
                    v = -v
            elif pvs and index:
                # NegaScout: a null window, one ply shallower for a late
                # move (LMR); a move that beats alpha is searched again.
                d = child_depth - 1 if reduce and index >= LMR_AFTER else child_depth
                if state.to_move == side:
                    v = node(d, alpha, alpha + nw, child_ply)
                    if d < child_depth and v > alpha:
                        v = node(child_depth, alpha, alpha + nw, child_ply)
                    if alpha < v < beta:
                        v = node(child_depth, alpha, beta, child_ply)
                else:
                    v = -node(d, -alpha - nw, -alpha, child_ply)
                    if d < child_depth and v > alpha:
                        v = -node(child_depth, -alpha - nw, -alpha, child_ply)
                    if alpha < v < beta:
                        v = -node(child_depth, -beta, -alpha, child_ply)
            elif state.to_move == side:
                v = node(child_depth, alpha, beta, child_ply)
            else:
                v = -node(child_depth, -beta, -alpha, child_ply)
            if exclusive and busy[at] == mark:
                busy[at] = 0
            undo()
            if not v > best:  # `not >`, not `<=`: a NaN score never counts
                continue
            best = v
            best_move = m
            if not v > alpha:
                continue
            if v >= beta:  # a cutoff: remember the move that refuted the node
                cutoffs += 1
                if not index:
                    first_cutoffs += 1
                if killer_table is not None:  # the newest killer of this ply
                    slot = killer_table[ply]
                    if slot[0] != m:
                        slot[1] = slot[0]
                        slot[0] = m
                if hist_tables is not None:
                    hist_tables[side][m] += depth * depth
                break
            alpha = v
            pvt[ply] = (m,) + pvt[child_ply]
        # 5. Remember the result (a subtree that met no horizon is SOLVED).
        if use_tt:
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            stored = best
            if stored >= MATE_BOUND:
                stored += ply
            elif stored <= -MATE_BOUND:
                stored -= ply
            if horizon == horizon0:
                depth = SOLVED
            i = (key & mask) << 1
            if not (tkeys[i] == key or depth >= tdepths[i] or tages[i] != generation):
                i += 1
            m = map_move(best_move, frame) if frame else best_move
            tkeys[i] = key
            tdepths[i] = depth
            tvalues[i] = stored
            tbounds[i] = bound
            tmoves[i] = m
            tages[i] = generation
            if shared:
                tchecks[i] = key ^ hash(stored) ^ (depth << 32) ^ (bound << 29) ^ (m + 1)
        return best

    def stats() -> SearchStats:
        return SearchStats(nodes, probes, hits, cutoffs, first_cutoffs, horizon, deferred)

    return node, stats
