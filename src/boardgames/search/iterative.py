"""`Searcher`: iterative deepening over the negamax core, under limits.

Each iteration searches one move deeper than the last, starting with the
previous best move, until the depth, time or node limit is reached.  The
transposition table, killers and history carry what earlier iterations
learned, which is why deepening costs little more than the last iteration.

`Searcher.iterate(state, limits)` is the deepening itself, as a generator of
one `SearchResult` per completed depth, so that a caller may stop whenever
it likes; `Searcher.search(state, limits)` runs it to the end and returns
the last result.

Time: the clock is read about every quarter of a millisecond (see
`budget.Budget`), and the search stops as soon as the budget is spent;
the best move of the unfinished iteration is kept when it was found inside
the window.  A timed `search` runs with the cyclic garbage collector paused
(`budget.gc_paused`), so no collection pause lands inside it.  A legal
move is returned whenever one exists, even if depth 1 could not finish
(then the best-ordered move), and even if the evaluator returns NaN.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic

from ..budget import INF, Budget, Limits, gc_paused, given_limits, pause_gc_for
from ..errors import OptionError, SearchStopped
from ..game import S
from ..options import check_real, check_whole
from .negamax import SIDE_KEY, Core
from .ordering import MAX_PLY, History, Killers, Order
from .result import RootBest, SearchResult, is_proven
from .tt import TranspositionTable

if TYPE_CHECKING:
    from ..evaluation import Evaluator
    from ..game import Game, State

ALGORITHMS = ("minimax", "alphabeta", "negascout")
#: Depth used when no limit at all is given.
DEFAULT_DEPTH = 4
#: Deepest iteration ever started (time/node-limited searches of tiny games).
MAX_DEPTH = 200
#: Entries the transposition table starts with (it grows up to `tt_size`).
TT_START = 1 << 12


class Searcher(Generic[S]):
    """Alpha-beta family search with iterative deepening.

    evaluator: `state -> float` from the side to move (default: the game's
        default evaluator).
    algorithm: "minimax" (no pruning, the reference), "alphabeta" or
        "negascout" (principal variation search: null windows + re-search).
    tt_size: transposition-table entries at most (power of two; 0 disables it).
    tt_start: the entries it starts with; it grows four times larger as it
        fills, up to tt_size, so a short search allocates little (tt_start
        >= tt_size: a fixed table of tt_size entries from the start).
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

    Generic in the state type `S`: an evaluator or an order written for one
    game's State makes a `Searcher[ThatState]`.
    """

    def __init__(
        self,
        evaluator: Evaluator[S] | None = None,
        *,
        algorithm: str = "negascout",
        tt_size: int = 1 << 18,
        tt_start: int = TT_START,
        symmetry: bool = True,
        killers: bool = True,
        history: bool = True,
        order: Order[S] | None = None,
        seed: int | None = None,
        aspiration: float | None = None,
        reductions: bool = False,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise OptionError(
                f"unknown search algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}"
            )
        check_whole("tt_size", tt_size, 0)
        check_whole("tt_start", tt_start, 2)
        if aspiration is not None:
            check_real("aspiration", aspiration, 0, open_low=True)
        self.evaluator = evaluator
        self.algorithm = algorithm
        self.tt = TranspositionTable(max(tt_size, 2), tt_start) if tt_size else None
        self.symmetry = symmetry
        self.use_killers = killers
        self.use_history = history
        self.order = order
        self.seed = seed
        self.rng = random.Random(seed)
        self.aspiration = aspiration
        self.reductions = reductions
        self._game: Game[Any] | None = None
        self._evaluator: Evaluator[S] | None = None
        self.killers: Killers | None = None
        self.history: History | None = None
        #: Nodes visited by the last `value` call (the root included).
        self.last_nodes = 0
        #: Called with every completed depth's SearchResult of every `search`
        #: (as its `on_iteration` argument is): a watcher such as the web
        #: page sets it for the length of a player's move.
        self.on_iteration: Callable[[SearchResult], None] | None = None

    def __repr__(self) -> str:
        size = self.tt.cap if self.tt is not None else 0
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

    def _prepare(self, game: Game[Any]) -> Evaluator[S]:
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

    def _core(self, state: S, evaluator: Evaluator[S], budget: Budget) -> Core[S]:
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
    def value(self, state: S, depth: int) -> float:
        """The root value of a fresh fixed-depth search (no deepening, tables cleared).

        The number of nodes it visited is left in `last_nodes`.
        """
        evaluator = self._prepare(state.game)
        self.clear()
        core = self._core(state, evaluator, Budget())
        self.last_nodes = 1
        if state.is_over():
            return core.terminal_score(0)
        moves = state.legal_moves()
        if depth <= 0 or not moves:
            return evaluator(state)
        base = len(state.history)
        try:
            value = core.root(moves, depth, -INF, INF)
        except BaseException:
            restore(state, base)
            raise
        self.last_nodes = core.stats().nodes + 1  # + the root itself
        return value

    def search(
        self,
        state: S,
        limits: Limits | None = None,
        *,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        on_iteration: Callable[[SearchResult], None] | None = None,
    ) -> SearchResult:
        """Iterative deepening until the depth, time (seconds) or node limit runs out.

        The limits come as one `Limits(depth, time, nodes)` value or as the
        keywords `depth=`, `time=`, `nodes=`.  With no limit at all, searches
        to DEFAULT_DEPTH.  `on_iteration` is called with the SearchResult of
        every completed depth (and so is the `on_iteration` attribute, when
        set).  `state` is left as it was.
        """
        budget = Budget(given_limits(limits, depth, time, nodes))
        watchers = [f for f in (on_iteration, self.on_iteration) if f is not None]
        with gc_paused(pause_gc_for(budget.time)):
            result = None
            for result in self._deepen(state, budget):
                if result.completed:
                    for watch in watchers:
                        watch(result)
        assert result is not None  # `_deepen` yields at least once
        return result

    def iterate(self, state: S, limits: Limits | None = None) -> Iterator[SearchResult]:
        """Iterative deepening as a generator: one SearchResult per completed depth.

        Each result has `completed=True` and the depth just finished; break
        out of the loop whenever you like (`state` is whole between two
        results).  When a limit stops the search, a last result with
        `completed=False` carries the move to play.  The generator also ends
        by itself where `search` would stop: the requested depth, a proven
        result, nothing left to deepen, a forced move.  The clock starts at
        this call; unlike `search`, the garbage collector is not paused.
        """
        return self._deepen(state, Budget(given_limits(limits)))

    # --- the deepening loop ----------------------------------------------------------
    def _deepen(self, state: S, budget: Budget) -> Iterator[SearchResult]:
        limits = budget.limits
        evaluator = self._prepare(state.game)
        self._age_tables()
        core = self._core(state, evaluator, budget)
        moves = state.legal_moves()
        if state.is_over() or not moves:
            score = core.terminal_score(0) if state.is_over() else evaluator(state)
            yield SearchResult(None, score, [], 0, 0, budget.elapsed(), algorithm=self.algorithm)
            return
        if limits.depth is not None:
            max_depth = min(limits.depth, MAX_DEPTH)
        else:
            max_depth = DEFAULT_DEPTH if limits.unlimited else MAX_DEPTH
        root_moves = self._root_order(state, moves, core)
        best = RootBest(root_moves[0], 0.0, [root_moves[0]], True)  # before depth 1
        done = 0
        for depth in range(1, max_depth + 1):
            horizon = core.stats().horizon
            finished = self._iteration(core, root_moves, depth, best.score)
            if finished is None:  # a limit struck inside the iteration
                partial = core.root_best
                if partial is not None and partial.inside:
                    best = partial
                yield self._result(core, best, done, budget, completed=False)
                return
            score = finished
            assert core.root_best is not None
            pv = self._extend_pv(state, core.root_best.pv, depth, core)
            best, done = RootBest(core.root_best.move, score, pv, True), depth
            root_moves.remove(best.move)
            root_moves.insert(0, best.move)
            result = self._result(core, best, depth, budget, completed=True)
            yield result
            if (
                (not state.game.scored and is_proven(score))
                or core.stats().horizon == horizon  # no line was cut: deeper adds nothing
                or (len(root_moves) == 1 and limits.depth is None)  # a forced move
            ):
                return
            if budget.expired():
                if depth < max_depth:
                    yield replace(result, completed=False, time=budget.elapsed())
                return

    def _age_tables(self) -> None:
        """What a new search keeps of the last: an aged TT, halved history, no killers."""
        if self.tt is not None:
            self.tt.new_search()
        if self.killers is not None:
            self.killers.clear()
        if self.history is not None:
            self.history.age()

    def _iteration(
        self, core: Core[S], moves: list[int], depth: int, previous: float
    ) -> float | None:
        """One iteration's root score, or None when a limit stopped it.

        The moves of an interrupted line are taken back (also when the
        evaluator raised, or Ctrl-C); `core.root_best` keeps what was found.
        """
        state = core.state
        base = len(state.history)
        core.root_best = None
        try:
            return self._windows(core, moves, depth, previous)
        except SearchStopped:
            restore(state, base)
            return None
        except BaseException:
            restore(state, base)
            raise

    def _windows(self, core: Core[S], moves: list[int], depth: int, previous: float) -> float:
        """One iteration; with aspiration windows, re-searched until inside."""
        delta = self.aspiration
        if delta is None or depth < 3 or self.algorithm == "minimax" or is_proven(previous):
            return core.root(moves, depth, -INF, INF)
        alpha, beta = previous - delta, previous + delta
        while True:
            value = core.root(moves, depth, alpha, beta)
            if value <= alpha and alpha != -INF:
                alpha = -INF
            elif value >= beta and beta != INF:
                beta = INF
            else:
                return value  # inside, or outside an already open side (-inf)

    def _root_order(self, state: S, moves: list[int], core: Core[S]) -> list[int]:
        moves = list(moves)
        if self.seed is not None:
            self.rng.shuffle(moves)
        if self.order is not None:
            moves = list(self.order(state, moves))
        if self.tt is not None:
            key, frame = core.key_and_frame()
            entry = self.tt.entry(key)
            if entry is not None and entry.move >= 0:
                move = state.game.unmap_move(entry.move, frame) if frame else entry.move
                if move in moves:
                    moves.remove(move)
                    moves.insert(0, move)
        return moves

    def _extend_pv(self, state: S, pv: list[int], depth: int, core: Core[S]) -> list[int]:
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
                if entry is None or entry.move < 0:
                    break
                move = state.game.unmap_move(entry.move, frame) if frame else entry.move
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
        self, core: Core[S], best: RootBest, depth: int, budget: Budget, *, completed: bool
    ) -> SearchResult:
        stats = core.stats()
        return SearchResult(
            move=best.move,
            score=best.score,
            pv=list(best.pv),
            depth=depth,
            nodes=stats.nodes,
            time=budget.elapsed(),
            tt_hits=stats.tt_hits,
            tt_probes=stats.tt_probes,
            cutoffs=stats.cutoffs,
            first_move_cutoffs=stats.first_move_cutoffs,
            completed=completed,
            algorithm=self.algorithm,
        )


def restore(state: State[Any], length: int) -> None:
    """Take back the moves an interrupted search left on `state`."""
    while len(state.history) > length:
        state.undo()


__all__ = ["ALGORITHMS", "DEFAULT_DEPTH", "MAX_DEPTH", "SIDE_KEY", "Searcher"]
