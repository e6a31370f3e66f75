"""The negamax core: minimax, alpha-beta and NegaScout (PVS) over any Game.

Every score is from the side to move.  After a move, if the side to move
changed the child's score is negated (and the window mirrored); if the same
player moves again (an extra turn, as in HexiFence) the child's score and
window are used as they are.  Depth counts moves, extra turns included.

A finished game scores `WIN - ply` for the winner (the negative for the
loser, 0 for a draw), so quicker wins score higher; scored games add the
final margin so that bigger wins are preferred too.

Speed: the node functions are closures over local tables (transposition
table lists, killers, history, bound methods of the state), so the hot
path touches only fast local and cell variables and allocates nothing but
the legal-move list.  `make`/`undo` are the only state changes.
"""

from __future__ import annotations

import gc
import math
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from time import perf_counter
from typing import TYPE_CHECKING

from ..errors import SearchStopped
from .ordering import MAX_PLY, History, Killers, order_moves
from .result import MATE_BOUND, WIN
from .tt import EXACT, KEY_MASK, LOWER, UPPER, TranspositionTable, from_tt, to_tt

if TYPE_CHECKING:
    from ..game import Evaluator, State

INF = math.inf
#: XORed into the key when the second player is to move, so positions that
#: differ only by the side to move (extra turns) never share an entry.
SIDE_KEY = 0x2545F4914F6CDD1D
#: Null-window width of NegaScout; any positive width is correct, and
#: evaluators in this library score in whole units.
NULL_WINDOW = 1
#: Late move reductions: at depth >= LMR_DEPTH, the moves ordered after the
#: first LMR_AFTER (TT move, killers, best history) get a null-window search
#: one ply shallower; one that beats alpha is searched again at full depth.
LMR_AFTER = 3
LMR_DEPTH = 3
EMPTY_PV: tuple[int, ...] = ()
#: Stored depth of an entry whose subtree ended inside the horizon everywhere:
#: its value (or bound) is the game's own, good for any depth.
SOLVED = 1 << 30


def tt_key(state: State, symmetry: bool) -> tuple[int, int]:
    """A position's TT key (canonical over the symmetries when `symmetry`, with
    the side to move mixed in) and the frame the key was taken in."""
    hashes = state.hashes
    if symmetry and len(hashes) > 1:
        key = min(hashes)
        frame = hashes.index(key)
    else:
        key, frame = hashes[0], 0
    if state.to_move:
        key ^= SIDE_KEY
    return key & KEY_MASK, frame


#: Raised inside the tree when the time or node budget runs out (the
#: library's one "stopped early" exception; this name is kept for callers).
SearchAborted = SearchStopped


class Budget:
    """Time and node limits, checked every few nodes.

    With a time limit the clock is read about every TARGET seconds of search,
    so the search stops within a fraction of a millisecond of its deadline
    (plus whatever the operating system takes from it).  The interval in
    nodes follows the measured speed, but it at most doubles from one check
    to the next and never passes MAX_INTERVAL: a run of cheap nodes (TT
    hits) followed by costly ones (evaluations) cannot stretch the time
    between two reads.  A read costs well under a microsecond against 5-100
    µs per node, about 0.1% of the search.  Without a time limit only the
    node limit is checked, with no clock reads at all.
    """

    TARGET = 0.00025
    MAX_INTERVAL = 1024

    def __init__(self, time: float | None, nodes: int | None, start: float) -> None:
        self.start = start
        self.deadline = start + time if time is not None else INF
        self.timed = time is not None
        self.node_limit = nodes if nodes is not None else 1 << 62
        self.interval = 4
        self.last_nodes = 0
        self.last_time = start

    def first_checkpoint(self, nodes: int) -> int:
        if not self.timed:
            return self.node_limit
        return min(nodes + self.interval, self.node_limit)

    def check(self, nodes: int) -> int:
        """Raise SearchAborted when a limit is reached; else the next checkpoint."""
        if nodes >= self.node_limit:
            raise SearchAborted
        if not self.timed:
            return self.node_limit
        now = perf_counter()
        if now >= self.deadline:
            raise SearchAborted
        elapsed = now - self.last_time
        done = nodes - self.last_nodes
        interval = self.interval
        if elapsed > 0 and done > 0:
            wanted = int(done * self.TARGET / elapsed)
            interval = max(1, min(wanted, 2 * interval, self.MAX_INTERVAL))
            self.interval = interval
        self.last_nodes, self.last_time = nodes, now
        return min(nodes + interval, self.node_limit)

    def expired(self) -> bool:
        return perf_counter() >= self.deadline


#: Timed searches up to this long run with the cyclic garbage collector off
#: (see `gc_paused`); for longer ones a collection is far inside the slack.
GC_PAUSE_LIMIT = 10.0

_gc_lock = threading.Lock()
_gc_users = 0
_gc_was_enabled = False


@contextmanager
def gc_paused(active: bool = True) -> Iterator[None]:
    """The cyclic garbage collector off inside the block (when `active`).

    A full collection walks every container in the process and can take
    tens of milliseconds, more on a loaded machine; one that falls inside
    a 0.2 s move costs the time discipline dearly, and a search makes no
    cyclic garbage for it to find (its lists are freed by reference
    counting).  The collector is turned back on afterwards, unless the
    caller had it off; nested and concurrent blocks share one pause.
    """
    global _gc_users, _gc_was_enabled
    if not active:
        yield
        return
    with _gc_lock:
        if _gc_users == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_users += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_users -= 1
            if _gc_users == 0 and _gc_was_enabled:
                gc.enable()


def pause_gc_for(time: float | None) -> bool:
    """Whether a search with this time limit runs with the collector paused."""
    return time is not None and time <= GC_PAUSE_LIMIT


class Core:
    """One search's tree walker: counters plus the node function.

    Build one per `search` call (cheap); `root` searches the root moves at a
    given depth and window, `stats` returns the counters.
    """

    def __init__(
        self,
        state: State,
        evaluator: Evaluator,
        *,
        algorithm: str,
        tt: TranspositionTable | None,
        killers: Killers | None,
        history: History | None,
        order: Callable[[State, list[int]], list[int]] | None,
        symmetry: bool,
        budget: Budget,
        reductions: bool = False,
    ) -> None:
        self.state = state
        self.algorithm = algorithm
        self.reductions = reductions
        self.tt = tt
        self.symmetry = symmetry
        self.budget = budget
        self.killers = killers
        self.history = history
        self.order = order
        self.pv_table: list[tuple[int, ...]] = [EMPTY_PV] * (MAX_PLY + 2)
        if algorithm == "minimax":
            self.node = self._build_minimax(state, evaluator)
        elif algorithm in ("alphabeta", "negascout"):
            self.node = self._build_alphabeta(state, evaluator, pvs=algorithm == "negascout")
        else:
            raise ValueError(f"unknown algorithm {algorithm!r}")

    # --- shared pieces -----------------------------------------------------
    def key_and_frame(self) -> tuple[int, int]:
        """The TT key of the current position and the symmetry it was taken in."""
        return tt_key(self.state, self.symmetry)

    def terminal_score(self, ply: int) -> float:
        """Score of a finished game from the side to move, `ply` moves from the root."""
        state = self.state
        winner = state.winner()
        side = state.to_move
        if winner is None:
            value = 0
        elif winner == side:
            value = WIN - ply
        else:
            value = ply - WIN
        if state.game.scored:
            a, b = state.scores()
            value += a - b if side == 0 else b - a
        return value

    # --- minimax -------------------------------------------------------------
    def _build_minimax(self, state: State, evaluator: Evaluator):
        """Plain negamax without pruning: the reference the others must match.

        It still uses the transposition table (exact values only), so that
        the equality of the three algorithms is also tested with a TT.
        """
        core = self
        budget = self.budget
        check = budget.check
        make, undo = state.make, state.undo
        is_over, legal_moves = state.is_over, state.legal_moves
        terminal = self.terminal_score
        key_and_frame = self.key_and_frame
        pvt = self.pv_table
        tt = self.tt
        use_tt = tt is not None
        if use_tt:
            tdepths, tvalues, tbounds = tt.depths, tt.values, tt.bounds
        game = state.game
        self.nodes = self.tt_probes = self.tt_hits = self.horizon = 0
        checkpoint = budget.first_checkpoint(0)

        def node(depth: int, alpha: float, beta: float, ply: int) -> float:
            nonlocal checkpoint
            core.nodes += 1
            if core.nodes >= checkpoint:
                checkpoint = check(core.nodes)
            pvt[ply] = EMPTY_PV
            if is_over():
                return terminal(ply)
            if depth <= 0:
                core.horizon += 1
                return evaluator(state)
            moves = legal_moves()
            if not moves:
                core.horizon += 1
                return evaluator(state)
            horizon = core.horizon
            if use_tt:
                key, frame = key_and_frame()
                core.tt_probes += 1
                i = tt.probe(key)
                if i >= 0:
                    core.tt_hits += 1
                    if tdepths[i] >= depth and tbounds[i] == EXACT:
                        if tdepths[i] < SOLVED:
                            core.horizon += 1
                        return from_tt(tvalues[i], ply)
            side = state.to_move
            best, best_move = -INF, moves[0]
            for m in moves:
                make(m)
                v = node(depth - 1, -INF, INF, ply + 1)
                if state.to_move != side:
                    v = -v
                undo()
                if v > best:
                    best, best_move = v, m
                    pvt[ply] = (m,) + pvt[ply + 1]
            if use_tt:
                stored = to_tt(best, ply)
                move = game.map_move(best_move, frame) if frame else best_move
                solved = core.horizon == horizon
                tt.store(key, SOLVED if solved else depth, stored, EXACT, move)
            return best

        return node

    # --- alpha-beta and NegaScout ------------------------------------------
    def _build_alphabeta(self, state: State, evaluator: Evaluator, *, pvs: bool):
        """Fail-soft alpha-beta with TT, killers and history; `pvs` adds
        NegaScout's null-window searches of every move after the first."""
        budget = self.budget
        check = budget.check
        make, undo = state.make, state.undo
        is_over, legal_moves = state.is_over, state.legal_moves
        terminal = self.terminal_score
        pvt = self.pv_table
        game = state.game
        map_move, unmap_move = game.map_move, game.unmap_move
        order = self.order
        tt = self.tt
        use_tt = tt is not None
        if use_tt:
            tkeys, tdepths, tvalues = tt.keys, tt.depths, tt.values
            tbounds, tmoves, tages = tt.bounds, tt.moves, tt.ages
            mask = tt.mask
            generation = tt.generation
        symmetry = self.symmetry and len(state.hashes) > 1
        killer_table = self.killers.table if self.killers is not None else None
        hist_tables = self.history.tables if self.history is not None else None
        use_ordering = killer_table is not None or hist_tables is not None or use_tt
        nw = NULL_WINDOW
        # Late move reductions (NegaScout only): see LMR_AFTER.
        lmr = pvs and self.reductions
        nodes = probes = hits = cutoffs = first_cutoffs = horizon = 0
        checkpoint = budget.first_checkpoint(0)

        def node(depth: int, alpha: float, beta: float, ply: int) -> float:
            nonlocal nodes, probes, hits, cutoffs, first_cutoffs, horizon, checkpoint
            nodes += 1
            if nodes >= checkpoint:
                checkpoint = check(nodes)
            pvt[ply] = EMPTY_PV
            if is_over():
                return terminal(ply)
            if depth <= 0:
                horizon += 1
                return evaluator(state)
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
                    hits += 1
                    d = tdepths[i]
                    if d >= depth:
                        v = tvalues[i]
                        if v >= MATE_BOUND:
                            v -= ply
                        elif v <= -MATE_BOUND:
                            v += ply
                        b = tbounds[i]
                        if b == EXACT or (v >= beta if b == LOWER else v <= alpha):
                            if d < SOLVED:
                                horizon += 1
                            return v
                    m = tmoves[i]
                    if m >= 0:
                        tt_move = unmap_move(m, frame) if frame else m
            moves = legal_moves()
            if not moves:
                horizon += 1
                return evaluator(state)
            if order is not None:
                moves = order(state, moves)
            if use_ordering and len(moves) > 1:
                moves = order_moves(
                    moves,
                    tt_move,
                    killer_table[ply] if killer_table is not None else None,
                    hist_tables[side] if hist_tables is not None else None,
                )
            alpha0 = alpha
            best = -INF
            # The first move stands until one scores above -INF (with an
            # evaluator that returns NaN, none ever does).
            best_move = moves[0]
            child_depth = depth - 1
            child_ply = ply + 1
            first = True
            reduce = lmr and depth >= LMR_DEPTH
            # Frontier node: score the leaf children here, without a call each
            # (most nodes of a tree are leaves; this is the hottest loop).
            leaves = child_depth == 0
            if leaves:
                pvt[child_ply] = EMPTY_PV
            for index, m in enumerate(moves):
                make(m)
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
                elif pvs and not first:
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
                undo()
                if v > best:
                    best = v
                    best_move = m
                    if v > alpha:
                        if v >= beta:
                            cutoffs += 1
                            if first:
                                first_cutoffs += 1
                            if killer_table is not None:
                                slot = killer_table[ply]
                                if slot[0] != m:
                                    slot[1] = slot[0]
                                    slot[0] = m
                            if hist_tables is not None:
                                hist_tables[side][m] += depth * depth
                            break
                        alpha = v
                        pvt[ply] = (m,) + pvt[child_ply]
                first = False
            if use_tt:
                if best <= alpha0:
                    bound = UPPER
                elif best >= beta:
                    bound = LOWER
                else:
                    bound = EXACT
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
                tkeys[i] = key
                tdepths[i] = depth
                tvalues[i] = stored
                tbounds[i] = bound
                tmoves[i] = map_move(best_move, frame) if frame else best_move
                tages[i] = generation
            return best

        def stats() -> tuple[int, int, int, int, int, int]:
            return nodes, probes, hits, cutoffs, first_cutoffs, horizon

        self._stats = stats
        return node

    def stats(self) -> tuple[int, int, int, int, int, int]:
        """(nodes, tt_probes, tt_hits, cutoffs, first_move_cutoffs, horizon) so far.

        `horizon` counts the places where the depth limit cut the tree: an
        evaluator call, or a TT answer that was itself depth-limited.  A
        search that adds none saw every line it needed to the end of the
        game, so its result holds at any depth (such TT entries are stored
        with depth SOLVED, and deepening stops).
        """
        if self.algorithm == "minimax":
            return self.nodes, self.tt_probes, self.tt_hits, 0, 0, self.horizon
        return self._stats()

    # --- the root -----------------------------------------------------------------
    def root(
        self, moves: list[int], depth: int, alpha: float, beta: float, progress: list
    ) -> float:
        """Search the root `moves` (in order) to `depth` inside (alpha, beta).

        Returns the fail-soft root score.  `progress` is filled with
        [best move, best score, pv] as soon as the first move is searched,
        so an aborted search still has the best move found so far at this
        depth; the caller decides whether to trust it.
        """
        state = self.state
        node = self.node
        side = state.to_move
        pvs = self.algorithm == "negascout"
        full = self.algorithm == "minimax"
        pvt = self.pv_table
        pvt[0] = EMPTY_PV
        best = -INF
        alpha0 = alpha
        for index, m in enumerate(moves):
            # No try/finally: an abort leaves moves on the board, and the
            # caller takes them back by the length of `state.history`.
            state.make(m)
            same = state.to_move == side
            if full:
                v = node(depth - 1, -INF, INF, 1)
                v = v if same else -v
            elif pvs and index:
                if same:
                    v = node(depth - 1, alpha, alpha + NULL_WINDOW, 1)
                else:
                    v = -node(depth - 1, -alpha - NULL_WINDOW, -alpha, 1)
                if alpha < v < beta:
                    # Proven better than the best so far: if the limit strikes
                    # during the re-search, this is the move to play.
                    saved = progress[:]
                    progress[:] = [m, v, [m], True]
                    if same:
                        v = node(depth - 1, alpha, beta, 1)
                    else:
                        v = -node(depth - 1, -beta, -alpha, 1)
                    if v <= best:
                        progress[:] = saved  # search instability: keep the old best
            elif same:
                v = node(depth - 1, alpha, beta, 1)
            else:
                v = -node(depth - 1, -beta, -alpha, 1)
            state.undo()
            if v > best:
                best = v
                pv = (m,) + pvt[1]
                progress[:] = [m, v, list(pv), v > alpha or full]
                if v > alpha and not full:
                    alpha = v
                    if v >= beta:
                        break
        if not progress:
            # No move scored above -INF: an evaluator returned NaN (every
            # comparison with it is false) or -inf.  The first move stands,
            # so that a search always names a legal move.
            progress[:] = [moves[0], best, [moves[0]], True]
        if self.tt is not None:
            key, frame = self.key_and_frame()
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if full:
                bound = EXACT
            move = progress[0]
            # At ply 0 a proven score needs no distance adjustment.
            move = state.game.map_move(move, frame) if frame else move
            self.tt.store(key, depth, best, bound, move)
        return best
