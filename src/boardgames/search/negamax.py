"""The negamax core: minimax, alpha-beta and NegaScout (PVS) over any Game.

Every score is from the side to move.  After a move, if the side to move
changed the child's score is negated (and the window mirrored); if the same
player moves again (an extra turn, as in HexiFence) the child's score and
window are used as they are.  Depth counts moves, extra turns included.

A finished game scores `WIN - ply` for the winner (the negative for the
loser, 0 for a draw), so quicker wins score higher; scored games add the
final margin so that bigger wins are preferred too.

`Core` holds one search's tables and counters, the root loop and the
minimax reference; the alpha-beta / NegaScout node function, the hot loop,
is built in alphabeta.py.

Speed: the node functions are closures over local tables (transposition
table arrays, killers, history, bound methods of the state) and keep their
counters in plain local ints, so the hot path touches only fast local and
cell variables and allocates nothing but the legal-move list.  The named
results (`SearchStats`, `RootBest`) are built once per iteration, never
per node.  `make`/`undo` are the only state changes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic

from ..budget import INF, Budget
from ..game import S
from .alphabeta import EMPTY_PV, NULL_WINDOW, NodeFn, build_alphabeta
from .ordering import MAX_PLY, History, Killers, Order
from .result import WIN, RootBest, SearchStats
from .tt import (
    EXACT,
    KEY_MASK,
    LOWER,
    SIDE_KEY,
    SOLVED,
    UPPER,
    TranspositionTable,
    from_tt,
    lookup_function,
    to_tt,
)

if TYPE_CHECKING:
    from ..evaluation import Evaluator
    from ..game import State

def tt_key(state: State[Any], symmetry: bool) -> tuple[int, int]:
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


def terminal_scorer(state: State[Any]) -> Callable[[int], float]:
    """`score(ply)`: the score of the finished game at `state` (as it is when
    called) from the side to move, `ply` moves from the root: `WIN - ply`
    for a win, the negative for a loss, 0 for a draw, plus the final margin
    in a scored game.  A closure over the state's bound methods, since the
    node functions call it at every finished game they meet."""
    winner = state.winner
    if not state.game.scored:

        def score(ply: int) -> float:
            w = winner()
            if w is None:
                return 0
            return WIN - ply if w == state.to_move else ply - WIN

        return score
    scores = state.scores

    def scored(ply: int) -> float:
        w, side = winner(), state.to_move
        value = 0 if w is None else WIN - ply if w == side else ply - WIN
        a, b = scores()
        return value + (a - b if side == 0 else b - a)

    return scored


class Core(Generic[S]):
    """One search's tree walker: counters plus the node function.

    Build one per `search` call (cheap); `root` searches the root moves at a
    given depth and window, `stats` returns the counters.
    """

    def __init__(
        self,
        state: S,
        evaluator: Evaluator[S],
        *,
        algorithm: str,
        tt: TranspositionTable | None,
        killers: Killers | None,
        history: History | None,
        order: Order[S] | None,
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
        #: `terminal(ply)`: `terminal_score` as a closure, for the node functions.
        self.terminal = terminal_scorer(state)
        #: The best root move of the iteration under way (see `root`).
        self.root_best: RootBest | None = None
        self._stats: Callable[[], SearchStats]
        self.node: NodeFn
        if algorithm == "minimax":
            self.node = self._build_minimax(state, evaluator)
        elif algorithm in ("alphabeta", "negascout"):
            pvs = algorithm == "negascout"
            self.node, self._stats = build_alphabeta(self, evaluator, pvs=pvs)
        else:
            raise ValueError(f"unknown algorithm {algorithm!r}")

    # --- shared pieces -----------------------------------------------------
    def key_and_frame(self) -> tuple[int, int]:
        """The TT key of the current position and the symmetry it was taken in."""
        return tt_key(self.state, self.symmetry)

    def terminal_score(self, ply: int) -> float:
        """Score of a finished game from the side to move, `ply` moves from the root."""
        return self.terminal(ply)

    def stats(self) -> SearchStats:
        """The counters so far (see `SearchStats`; `horizon` tells whether the
        depth limit cut anything, so that deepening can stop)."""
        return self._stats()

    # --- minimax -------------------------------------------------------------
    def _build_minimax(self, state: S, evaluator: Evaluator[S]) -> NodeFn:
        """Plain negamax without pruning: the reference the others must match.

        It still uses the transposition table (exact values only), so that
        the equality of the three algorithms is also tested with a TT.  A
        growing table stays at its start size here (only the alpha-beta
        node lets it grow).
        """
        check = self.budget.check
        make, undo = state.make, state.undo
        is_over, legal_moves = state.is_over, state.legal_moves
        terminal = self.terminal
        key_and_frame = self.key_and_frame
        pvt = self.pv_table
        map_move = state.game.map_move
        tt = self.tt
        if tt is not None:
            tdepths, tvalues, tbounds = tt.depths, tt.values, tt.bounds
            lookup, store = lookup_function(tt), tt.store
        nodes = probes = hits = horizon = 0
        checkpoint = self.budget.first_checkpoint(0)

        def node(depth: int, alpha: float, beta: float, ply: int) -> float:
            nonlocal nodes, probes, hits, horizon, checkpoint
            nodes += 1
            if nodes >= checkpoint:
                checkpoint = check(nodes)
            pvt[ply] = EMPTY_PV
            if is_over():
                return terminal(ply)
            if depth <= 0:
                horizon += 1
                return evaluator(state)
            moves = legal_moves()
            if not moves:
                horizon += 1
                return evaluator(state)
            horizon0 = horizon
            if tt is not None:
                key, frame = key_and_frame()
                probes += 1
                i = lookup(key)
                if i >= 0:
                    hits += 1
                    if tdepths[i] >= depth and tbounds[i] == EXACT:
                        if tdepths[i] < SOLVED:
                            horizon += 1
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
            if tt is not None:
                solved = horizon == horizon0
                move = map_move(best_move, frame) if frame else best_move
                store(key, SOLVED if solved else depth, to_tt(best, ply), EXACT, move)
            return best

        def stats() -> SearchStats:
            return SearchStats(nodes, probes, hits, 0, 0, horizon)

        self._stats = stats
        return node

    # --- the root -----------------------------------------------------------------
    def root(self, moves: list[int], depth: int, alpha: float, beta: float) -> float:
        """Search the root `moves` (in order) to `depth` inside (alpha, beta).

        Returns the fail-soft root score.  `root_best` holds the best move so
        far (`RootBest`) as soon as the first move is searched, so a search
        stopped by a limit still has the best move found at this depth; the
        caller decides whether to trust it (`inside`) and resets it to None
        before each iteration (aspiration re-searches keep it).
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
            # No try/finally: a stop leaves moves on the board, and the
            # caller takes them back by the length of `state.history`.
            state.make(m)
            same = state.to_move == side
            if full:
                v = node(depth - 1, -INF, INF, 1)
                v = v if same else -v
            elif pvs and index:
                v = self._root_scout(m, depth, alpha, beta, best, same)
            elif same:
                v = node(depth - 1, alpha, beta, 1)
            else:
                v = -node(depth - 1, -beta, -alpha, 1)
            state.undo()
            if v > best:
                best = v
                self.root_best = RootBest(m, v, [m, *pvt[1]], v > alpha or full)
                if v > alpha and not full:
                    alpha = v
                    if v >= beta:
                        break
        if self.root_best is None:
            # No move scored above -INF: an evaluator returned NaN (every
            # comparison with it is false) or -inf.  The first move stands,
            # so that a search always names a legal move.
            self.root_best = RootBest(moves[0], best, [moves[0]], True)
        if self.tt is not None:
            key, frame = self.key_and_frame()
            bound = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            move = self.root_best.move
            # At ply 0 a proven score needs no distance adjustment.
            move = state.game.map_move(move, frame) if frame else move
            self.tt.store(key, depth, best, EXACT if full else bound, move)
        return best

    def _root_scout(
        self, move: int, depth: int, alpha: float, beta: float, best: float, same: bool
    ) -> float:
        """NegaScout at the root: a null window, then a full re-search of a move
        that beats alpha.  The move is the one to play if the limit strikes
        during its re-search, unless the re-search finds it no better after all."""
        node = self.node

        def child(low: float, high: float) -> float:
            """The move's value in the window (low, high), from the mover's side."""
            return node(depth - 1, low, high, 1) if same else -node(depth - 1, -high, -low, 1)

        v = child(alpha, alpha + NULL_WINDOW)
        if alpha < v < beta:
            saved = self.root_best
            self.root_best = RootBest(move, v, [move], True)
            v = child(alpha, beta)
            if v <= best:
                self.root_best = saved  # search instability: keep the old best
        return v


__all__ = ["SIDE_KEY", "Core", "tt_key"]
