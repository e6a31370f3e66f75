"""`Searcher`: iterative deepening over the negamax core, under limits.

Each iteration searches one move deeper than the last, starting with the
previous best move, until the depth, time or node limit is reached.  The
transposition table, killers and history carry what earlier iterations
learned, which is why deepening costs little more than the last iteration.

Time: the clock is read about every quarter of a millisecond (see
`negamax.Budget`), and the search stops as soon as the budget is spent;
the best move of the unfinished iteration is kept when it was found inside
the window.  A timed search runs with the cyclic garbage collector paused
(`negamax.gc_paused`), so no collection pause lands inside it.  A legal
move is returned whenever one exists, even if depth 1 could not finish
(then the best-ordered move), and even if the evaluator returns NaN.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from time import perf_counter
from typing import TYPE_CHECKING

from ..errors import OptionError
from ..options import check_limits, check_real, check_whole
from .negamax import INF, SIDE_KEY, Budget, Core, SearchAborted, gc_paused, pause_gc_for
from .ordering import MAX_PLY, History, Killers
from .result import SearchResult, is_proven
from .tt import TranspositionTable

if TYPE_CHECKING:
    from ..game import Evaluator, Game, State

ALGORITHMS = ("minimax", "alphabeta", "negascout")
#: Depth used when no limit at all is given.
DEFAULT_DEPTH = 4
#: Deepest iteration ever started (time/node-limited searches of tiny games).
MAX_DEPTH = 200


class Searcher:
    """Alpha-beta family search with iterative deepening.

    evaluator: `state -> float` from the side to move (default: the game's
        default evaluator).
    algorithm: "minimax" (no pruning, the reference), "alphabeta" or
        "negascout" (principal variation search: null windows + re-search).
    tt_size: transposition-table entries (power of two; 0 disables it).
    symmetry: key the TT by the canonical (smallest) symmetric hash, so
        mirrored positions share entries; False uses `state.key`.
    killers, history: the two dynamic move-ordering heuristics.
    order: optional `order(state, moves) -> moves` replacing the static order.
    seed: shuffles the root moves before ordering, so equal moves are chosen
        at random but reproducibly (no effect on scores).
    aspiration: half-width of the aspiration window around the previous
        iteration's score (None: full windows).  Pays off when the
        evaluator is stable between depths; see docs/search.md.
    reductions: late move reductions (NegaScout only): late, badly ordered
        moves are first searched one ply shallower.  Deeper searches in the
        same time, but the value is no longer the plain minimax value.
    """

    def __init__(
        self,
        evaluator: Evaluator | None = None,
        *,
        algorithm: str = "negascout",
        tt_size: int = 1 << 18,
        symmetry: bool = True,
        killers: bool = True,
        history: bool = True,
        order: Callable[[State, list[int]], list[int]] | None = None,
        seed: int | None = None,
        aspiration: float | None = None,
        reductions: bool = False,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise OptionError(
                f"unknown search algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}"
            )
        check_whole("tt_size", tt_size, 0)
        if aspiration is not None:
            check_real("aspiration", aspiration, 0, open_low=True)
        self.evaluator = evaluator
        self.algorithm = algorithm
        self.tt = TranspositionTable(max(tt_size, 2)) if tt_size else None
        self.symmetry = symmetry
        self.use_killers = killers
        self.use_history = history
        self.order = order
        self.seed = seed
        self.rng = random.Random(seed)
        self.aspiration = aspiration
        self.reductions = reductions
        self._game: Game | None = None
        self._evaluator: Evaluator | None = None
        self.killers: Killers | None = None
        self.history: History | None = None
        #: Nodes visited by the last `value` call (the root included).
        self.last_nodes = 0

    def __repr__(self) -> str:
        size = self.tt.size if self.tt is not None else 0
        return f"Searcher(algorithm={self.algorithm!r}, tt_size={size})"

    # --- tables ----------------------------------------------------------------
    def clear(self) -> None:
        """Forget everything learned: TT, killers, history."""
        if self.tt is not None:
            self.tt.clear()
        if self.killers is not None:
            self.killers.clear()
        if self.history is not None:
            self.history.clear()

    def _prepare(self, game: Game) -> Evaluator:
        """Tables sized for `game` (rebuilt when the game changes)."""
        if game != self._game:
            self._game = game
            self._evaluator = self.evaluator or game.default_evaluator()
            self.killers = Killers(MAX_PLY) if self.use_killers else None
            self.history = History(max(game.num_moves, 1)) if self.use_history else None
            if self.tt is not None:
                self.tt.clear()
        assert self._evaluator is not None
        return self._evaluator

    def _core(self, state: State, evaluator: Evaluator, budget: Budget) -> Core:
        return Core(
            state,
            evaluator,
            algorithm=self.algorithm,
            tt=self.tt,
            killers=self.killers,
            history=self.history,
            order=self.order,
            symmetry=self.symmetry,
            budget=budget,
            reductions=self.reductions,
        )

    # --- public API -----------------------------------------------------------------
    def value(self, state: State, depth: int) -> float:
        """The root value of a fresh fixed-depth search (no deepening, tables cleared).

        The number of nodes it visited is left in `last_nodes`.
        """
        evaluator = self._prepare(state.game)
        self.clear()
        budget = Budget(None, None, perf_counter())
        core = self._core(state, evaluator, budget)
        self.last_nodes = 1
        if state.is_over():
            return core.terminal_score(0)
        moves = state.legal_moves()
        if depth <= 0 or not moves:
            return evaluator(state)
        base = len(state.history)
        try:
            value = core.root(moves, depth, -INF, INF, [])
        except BaseException:
            restore(state, base)
            raise
        self.last_nodes = core.stats()[0] + 1  # + the root itself
        return value

    def search(
        self,
        state: State,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Iterative deepening until `depth`, `time` (seconds) or `nodes` runs out.

        With no limit at all, searches to DEFAULT_DEPTH.  `on_iteration` is
        called with a SearchResult after every completed depth.  `state` is
        left as it was.
        """
        start = perf_counter()
        check_limits(depth, time, nodes)
        with gc_paused(pause_gc_for(time)):
            return self._search(state, depth, time, nodes, on_iteration, start)

    def _search(
        self,
        state: State,
        depth: int | None,
        time: float | None,
        nodes: int | None,
        on_iteration: Callable[[SearchResult], None] | None,
        start: float,
    ) -> SearchResult:
        evaluator = self._prepare(state.game)
        budget = Budget(time, nodes, start)
        if self.tt is not None:
            self.tt.new_search()
        if self.killers is not None:
            self.killers.clear()
        if self.history is not None:
            self.history.age()
        core = self._core(state, evaluator, budget)
        moves = state.legal_moves()
        if state.is_over() or not moves:
            score = core.terminal_score(0) if state.is_over() else evaluator(state)
            elapsed = perf_counter() - start
            return SearchResult(None, score, [], 0, 0, elapsed, algorithm=self.algorithm)

        if depth is None:
            max_depth = MAX_DEPTH if (time is not None or nodes is not None) else DEFAULT_DEPTH
        else:
            max_depth = min(depth, MAX_DEPTH)
        root_moves = self._root_order(state, moves, core)
        scored = state.game.scored
        base = len(state.history)

        best_move, score, pv = root_moves[0], 0.0, [root_moves[0]]
        done_depth = 0
        completed = True
        for d in range(1, max_depth + 1):
            progress: list = []
            horizon = core.stats()[5]
            try:
                iteration_score = self._iterate(core, root_moves, d, score, progress)
            except BaseException as exc:
                # Out of budget (or an evaluator error, Ctrl-C): the moves of
                # the interrupted line are still on the board.
                restore(state, base)
                if not isinstance(exc, SearchAborted):
                    raise
                if progress and progress[3]:
                    best_move, score, pv = progress[0], progress[1], progress[2]
                completed = False
                break
            best_move, score = progress[0], iteration_score
            pv = self._extend_pv(state, progress[2], d, core)
            done_depth = d
            root_moves.remove(best_move)
            root_moves.insert(0, best_move)
            if on_iteration is not None:
                on_iteration(self._result(core, best_move, score, pv, d, start, True))
            if not scored and is_proven(score):
                break
            if core.stats()[5] == horizon:
                break  # every line ended before the depth limit: deeper adds nothing
            if len(root_moves) == 1 and depth is None:
                break  # a forced move: no need to think
            if budget.expired():
                completed = d >= max_depth
                break
        return self._result(core, best_move, score, pv, done_depth, start, completed)

    # --- pieces of the deepening loop ---------------------------------------------
    def _root_order(self, state: State, moves: list[int], core: Core) -> list[int]:
        moves = list(moves)
        if self.seed is not None:
            self.rng.shuffle(moves)
        if self.order is not None:
            moves = list(self.order(state, moves))
        if self.tt is not None:
            key, frame = core.key_and_frame()
            entry = self.tt.entry(key)
            if entry is not None and entry[3] >= 0:
                move = state.game.unmap_move(entry[3], frame) if frame else entry[3]
                if move in moves:
                    moves.remove(move)
                    moves.insert(0, move)
        return moves

    def _iterate(
        self, core: Core, moves: list[int], depth: int, previous: float, progress: list
    ) -> float:
        """One iteration; with aspiration windows, re-searched until inside."""
        delta = self.aspiration
        if delta is None or depth < 3 or self.algorithm == "minimax" or is_proven(previous):
            return core.root(moves, depth, -INF, INF, progress)
        alpha, beta = previous - delta, previous + delta
        while True:
            value = core.root(moves, depth, alpha, beta, progress)
            if value <= alpha and alpha != -INF:
                alpha = -INF
            elif value >= beta and beta != INF:
                beta = INF
            else:
                return value  # inside, or outside an already open side (-inf)

    def _extend_pv(self, state: State, pv: list[int], depth: int, core: Core) -> list[int]:
        """The PV from the tree, continued through TT best moves where it was cut."""
        pv = list(pv)
        tt = self.tt
        if tt is None or len(pv) >= depth:
            return pv
        played = 0
        seen = set()
        try:
            for m in pv:
                if m not in state.legal_moves():
                    return pv[:played]
                state.make(m)
                played += 1
            while len(pv) < depth and not state.is_over():
                key, frame = core.key_and_frame()
                if key in seen:
                    break
                seen.add(key)
                entry = tt.entry(key)
                if entry is None or entry[3] < 0:
                    break
                move = state.game.unmap_move(entry[3], frame) if frame else entry[3]
                if move not in state.legal_moves():
                    break
                state.make(move)
                played += 1
                pv.append(move)
        finally:
            for _ in range(played):
                state.undo()
        return pv

    def _result(
        self,
        core: Core,
        move: int,
        score: float,
        pv: list[int],
        depth: int,
        start: float,
        completed: bool,
    ) -> SearchResult:
        nodes, probes, hits, cutoffs, first, _ = core.stats()
        return SearchResult(
            move=move,
            score=score,
            pv=list(pv),
            depth=depth,
            nodes=nodes,
            time=perf_counter() - start,
            tt_hits=hits,
            tt_probes=probes,
            cutoffs=cutoffs,
            first_move_cutoffs=first,
            completed=completed,
            algorithm=self.algorithm,
        )


def restore(state: State, length: int) -> None:
    """Take back the moves an interrupted search left on `state`."""
    while len(state.history) > length:
        state.undo()


__all__ = ["ALGORITHMS", "DEFAULT_DEPTH", "MAX_DEPTH", "SIDE_KEY", "Searcher"]
