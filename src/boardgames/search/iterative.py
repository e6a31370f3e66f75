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
from collections.abc import Callable, Collection, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic

from ..budget import INF, Budget, Limits, gc_paused, given_limits, pause_gc_for
from ..errors import BoardgamesError, IllegalMoveError, OptionError, SearchStopped
from ..game import S
from ..options import MAX_THREADS, check_real, check_whole
from .negamax import SIDE_KEY, Core
from .ordering import MAX_PLY, History, Killers, Order
from .result import RootBest, SearchResult, is_proven
from .smp import Helpers, kept_helpers
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
    threads: processes searching each position (Lazy SMP, search/smp.py):
        above 1, the table is a fixed shared one of tt_size entries and
        threads - 1 helper processes are forked at the first search; end
        them with `close()` (they also end with this process).

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
        threads: int = 1,
    ) -> None:
        if algorithm not in ALGORITHMS:
            raise OptionError(
                f"unknown search algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}"
            )
        check_whole("tt_size", tt_size, 0)
        check_whole("tt_start", tt_start, 2)
        check_whole("threads", threads, 1, MAX_THREADS)
        if threads > 1 and not tt_size:
            raise OptionError("threads: a parallel search shares its table; tt must not be 0")
        if threads > 1 and algorithm == "minimax":
            raise OptionError("threads: minimax searches alone (no table to share)")
        if aspiration is not None:
            check_real("aspiration", aspiration, 0, open_low=True)
        self.evaluator = evaluator
        self.algorithm = algorithm
        self.threads = threads
        if threads > 1:
            self.tt: TranspositionTable | None = TranspositionTable(max(tt_size, 2), shared=True)
        else:
            self.tt = TranspositionTable(max(tt_size, 2), tt_start) if tt_size else None
        #: The helper processes of a parallel search (started by the first search).
        self._helpers: Helpers | None = None
        #: `_settings()` when the helpers were forked.
        self._forked_with: tuple[Any, ...] = ()
        #: 0 in the main process; a helper's number in a helper (`become_helper`).
        self.variant = 0
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
        #: `evaluator` when `_evaluator` was made from it.
        self._evaluator_set: Evaluator[S] | None = None
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
        threads = f", threads={self.threads}" if self.threads > 1 else ""
        return f"Searcher(algorithm={self.algorithm!r}, tt_size={size}{threads})"

    # --- tables ----------------------------------------------------------------
    def clear(self) -> None:
        """Forget everything learned: TT, killers, history (the helpers' too)."""
        if self.tt is not None:
            self.tt.clear()
        self.clear_own()
        if self._helpers is not None:
            self._helpers.clear()

    def clear_own(self) -> None:
        """Forget this process's killers and history."""
        if self.killers is not None:
            self.killers.clear()
        if self.history is not None:
            self.history.clear()

    # --- parallel search -------------------------------------------------------------
    def close(self) -> None:
        """End the helper processes of a parallel search (a later search starts
        new ones).  Nothing to do for a single-process search."""
        helpers, self._helpers = self._helpers, None
        if helpers is not None:
            helpers.close()

    def become_helper(self, index: int) -> None:
        """Turn this copy of a searcher (in a forked helper) into helper `index`:
        it searches alone, with its own root order and depths (see
        `_helper_order`, `_deepen` and search/smp.py)."""
        self.threads = 1
        self._helpers = None
        self.variant = index
        self.on_iteration = None

    def game_of_helper(self) -> Game[Any]:
        """The game this searcher was forked for (in a helper)."""
        assert self._game is not None
        return self._game

    def _helpers_for(self, game: Game[Any]) -> Helpers:
        """The helpers, started for `game` (again if the game changed).
        BoardgamesError, with every helper ended, if one of them failed or
        ended: the next search starts new ones."""
        helpers = kept_helpers(self._helpers, game, self.close)
        settings = self._settings()
        if helpers is not None and any(a is not b for a, b in zip(settings, self._forked_with)):
            self.close()  # forked copies: they would search with the old settings
            helpers = None
        if helpers is None:
            self._prepare(game)  # the helpers are forked with the tables made
            helpers = self._helpers = Helpers(self, self.threads - 1, game)
            self._forked_with = settings
        return helpers

    def _settings(self) -> tuple[Any, ...]:
        """What the helpers copy at their fork and a caller may change
        between searches: a change makes the next search fork new ones."""
        return (
            self.evaluator, self.algorithm, self.order, self.symmetry, self.use_killers,
            self.use_history, self.aspiration, self.reductions,
        )

    def _parallel(
        self, state: S, budget: Budget, roots: frozenset[int] | None = None
    ) -> Iterator[SearchResult]:
        """`_deepen` with the helpers searching too (at the same `roots`); its
        last result is the deepest iteration any process completed."""
        helpers = self._helpers_for(state.game)
        assert self.tt is not None
        self.tt.clear_busy()
        helpers.start(state, budget.limits, self.tt.generation + 1, roots)
        result = None
        try:
            for result in self._deepen(state, budget, roots):
                if result.completed:
                    yield result
        finally:
            try:
                completed = helpers.stop()
            except BoardgamesError:
                self.close()
                raise
        assert result is not None
        deepest = max(completed, key=lambda c: c.depth, default=None)
        if deepest is not None and deepest.depth > result.depth:
            yield replace(
                result, move=deepest.move, score=deepest.score, pv=list(deepest.pv),
                depth=deepest.depth, completed=True,
            )
        elif not result.completed:
            yield result

    def _prepare(self, game: Game[Any]) -> Evaluator[S]:
        """Tables sized for `game` (rebuilt when the game changes) and the
        evaluator (the table emptied when `evaluator` was set to another)."""
        new_game = game != self._game
        if new_game:
            self._game = game
            self.killers = Killers(MAX_PLY) if self.use_killers else None
            self.history = History(max(game.num_moves, 1)) if self.use_history else None
        if new_game or self.evaluator is not self._evaluator_set:
            self._evaluator_set = self.evaluator
            self._evaluator = self.evaluator or game.default_evaluator()
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
        root_moves: Collection[int] | None = None,
    ) -> SearchResult:
        """Iterative deepening until the depth, time (seconds) or node limit runs out.

        The limits come as one `Limits(depth, time, nodes)` value or as the
        keywords `depth=`, `time=`, `nodes=`.  With no limit at all, searches
        to DEFAULT_DEPTH.  `on_iteration` is called with the SearchResult of
        every completed depth (and so is the `on_iteration` attribute, when
        set).  `root_moves` keeps the root to those legal moves (a player's
        own checks may have ruled the others out; the helpers of a parallel
        search keep to them too); IllegalMoveError when none of them is
        legal.  `state` is left as it was.
        """
        budget = Budget(given_limits(limits, depth, time, nodes))
        roots = _roots(state, root_moves)
        watchers = [f for f in (on_iteration, self.on_iteration) if f is not None]
        parallel = self.threads > 1 and not state.is_over() and bool(state.legal_moves())
        with gc_paused(pause_gc_for(budget.time)):
            result = None
            deepen = self._parallel if parallel else self._deepen
            for result in deepen(state, budget, roots):
                if result.completed:
                    for watch in watchers:
                        watch(result)
        assert result is not None  # `_deepen` yields at least once
        return result

    def iterate(
        self, state: S, limits: Limits | None = None, *, root_moves: Collection[int] | None = None
    ) -> Iterator[SearchResult]:
        """Iterative deepening as a generator: one SearchResult per completed depth.

        Each result has `completed=True` and the depth just finished; break
        out of the loop whenever you like (`state` is whole between two
        results).  When a limit stops the search, a last result with
        `completed=False` carries the move to play.  The generator also ends
        by itself where `search` would stop: the requested depth, a proven
        result, nothing left to deepen, a forced move.  The clock starts at
        this call; unlike `search`, the garbage collector is not paused.
        `root_moves` keeps the root to those moves, as in `search`.
        """
        return self._deepen(state, Budget(given_limits(limits)), _roots(state, root_moves))

    # --- the deepening loop ----------------------------------------------------------
    def _deepen(
        self, state: S, budget: Budget, roots: frozenset[int] | None = None
    ) -> Iterator[SearchResult]:
        limits = budget.limits
        evaluator = self._prepare(state.game)
        self._age_tables()
        core = self._core(state, evaluator, budget)
        moves = state.legal_moves()
        if roots is not None:
            moves = [m for m in moves if m in roots]
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
        first = min(1 + self.variant // 2 % 2, max_depth)  # helpers 2, 3, 6, 7...: one ahead
        for depth in range(first, max_depth + 1):
            horizon = core.stats().horizon
            finished = self._iteration(core, self._helper_order(root_moves), depth, best.score)
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

    def _helper_order(self, moves: list[int]) -> list[int]:
        """The root moves in a helper's order: the best one first, as the main
        search does, then the others reversed (odd helpers) or rotated by the
        helper's number, so that each meets the others' results in the table
        instead of searching the same moves at the same time."""
        variant = self.variant
        if not variant or len(moves) < 3:
            return moves
        if variant % 2:
            return moves[:1] + moves[:0:-1]
        turn = variant % (len(moves) - 1)
        return moves[:1] + moves[1 + turn:] + moves[1 : 1 + turn]

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
            deferred=stats.deferred,
            threads=self.threads,
        )


def _roots(state: State[Any], root_moves: Collection[int] | None) -> frozenset[int] | None:
    """The legal moves among `root_moves` (None: no restriction);
    IllegalMoveError when none is legal in a game not over."""
    if root_moves is None:
        return None
    legal = state.legal_moves()
    roots = frozenset(root_moves).intersection(legal)
    if legal and not roots:
        raise IllegalMoveError("root_moves: none of the moves given is legal here")
    return roots


def restore(state: State[Any], length: int) -> None:
    """Take back the moves an interrupted search left on `state`."""
    while len(state.history) > length:
        state.undo()


__all__ = ["ALGORITHMS", "DEFAULT_DEPTH", "MAX_DEPTH", "SIDE_KEY", "Searcher"]
