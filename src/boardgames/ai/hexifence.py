"""HexiFence AIs: the seed's staged player, the chain-aware default, the solver.

Both players also serve dots-and-boxes (`boardgames.ai.dots` registers them
there): the rules are the same edge-capture game on another layout.

- "seed" (seed 004): always take a capture; random safe moves while more
  than `threshold` safe moves remain; then alpha-beta with the history
  heuristic over safe moves only, scoring the end of the safe phase with the
  seed's f(n) after a greedy play-out; with no safe move left, the move that
  gives away the fewest cells.  It never declines cells, so it never plays
  the double-dealing sacrifice.
- "default": exact play once few edges remain (`exact` empty edges), chain
  play before that: alpha-beta over safe moves whose leaves are scored by
  the loony-endgame value of chains and loops, the cheapest opening in the
  loony phase, and the double-dealing hand-out when keeping control pays.

Why two hand-written searches and not the generic `Searcher`: both search
only the *safe* moves (edges that give nothing away), stop where the safe
moves run out and score that frontier with a rule of their own (the seed's
greedy play-out and f(n); the loony-endgame value), which a depth-limited
search over every legal move does not express.  `StagedPlayer._alphabeta` is
a faithful port of the seed (max/min from its own colour, its history
heuristic, no table), kept so that "seed" plays as the seed did;
`ChainPlayer._negamax` is the chain player's, with a table keyed by the
canonical hash and a deadline shared with the exact solver.
"""

from __future__ import annotations

import random
import time as _time

from ..errors import SearchStopped
from ..game import Game
from ..games.hexifence import EdgeGame, EdgeState
from ..games.hexifence.experts import (
    giveaway,
    hand_out_values,
    loony_value,
    margin,
    plain_capture,
    seed_utility,
    single_hand_out,
)
from ..games.hexifence.solver import EdgeSolver
from ..options import LIMITS, SEED, Limits, Option, Stop
from ..players import Player, no_legal_move, time_budget
from ..search import SearchResult, SolveResult
from . import register_ai, register_solver
from .farrugiulian import register_for as register_farrugiulian

# --- the seed's staged player -------------------------------------------------------------


def _greedy_finish(state: EdgeState) -> int:
    """Play the loony phase out greedily (take everything, open the cheapest
    sacrifice); return the number of moves made so the caller can undo them."""
    made = 0
    while state.n_empty:
        caps = state.captures()
        if caps:
            move = caps[0]
        else:
            safe = state.safe_moves()
            move = safe[0] if safe else min(
                (m for m in range(state.game.num_moves) if state.claimed[m] < 0),
                key=lambda m: giveaway(state, m),
            )
        state.make(move)
        made += 1
    return made


class StagedPlayer(Player):
    """Seed 004's staged player: always capture; a random safe move while
    more than `threshold` remain; then alpha-beta over the safe moves; with
    none left, the sacrifice that gives away the fewest cells."""

    def __init__(self, threshold: int = 7, seed: int | None = None, name: str = "seed") -> None:
        super().__init__(name)
        self.threshold = threshold
        self.rng = random.Random(seed)
        self.history: dict[int, int] = {}
        self.nodes = 0

    def choose(
        self, state: EdgeState, time_limit: float | None = None, stop: Stop | None = None
    ) -> int:
        state = state.copy()
        caps = state.captures()
        if caps:
            return caps[0]
        safe = state.safe_moves()
        if len(safe) > self.threshold:
            return self.rng.choice(safe)
        if safe:
            return self._alphabeta_root(state, safe)
        return min(
            (m for m in range(state.game.num_moves) if state.claimed[m] < 0),
            key=lambda m: giveaway(state, m),
        )

    def _alphabeta_root(self, state: EdgeState, safe: list[int]) -> int:
        me = state.to_move
        best_move, best = safe[0], None
        alpha, beta = -(10**6), 10**6
        for move in sorted(safe, key=lambda m: -self.history.get(m, 0)):
            state.make(move)
            value = self._alphabeta(state, me, alpha, beta, 1)
            state.undo()
            if best is None or value > best:
                best, best_move = value, move
            alpha = max(alpha, value)
        return best_move

    def _alphabeta(self, state: EdgeState, me: int, alpha: int, beta: int, depth: int) -> int:
        """Max for `me`, min for the opponent, over safe moves only; the end
        of the safe phase is played out greedily and scored by seed_utility."""
        self.nodes += 1
        safe = state.safe_moves()
        if not safe:
            made = _greedy_finish(state)
            value = seed_utility(state, me)
            for _ in range(made):
                state.undo()
            return value
        maximise = state.to_move == me
        best_move = safe[0]
        for move in sorted(safe, key=lambda m: -self.history.get(m, 0)):
            state.make(move)
            value = self._alphabeta(state, me, alpha, beta, depth + 1)
            state.undo()
            if maximise and value > alpha:
                alpha, best_move = value, move
            elif not maximise and value < beta:
                beta, best_move = value, move
            if alpha >= beta:
                break
        # History heuristic: reward the move that decided this node, 2^(height).
        self.history[best_move] = self.history.get(best_move, 0) + (1 << min(len(safe), 30))
        return alpha if maximise else beta

    def reset(self) -> None:
        super().reset()
        self.history.clear()


# --- the chain-aware default -------------------------------------------------------------------


class ChainPlayer(Player):
    """Chain play (control, double-dealing) and exact endgames.

    Time: the move's budget (`players.time_budget` of the per-move limit,
    else `time`, else 30 s) is shared from the start of `choose`: the exact
    solver may use up to SOLVE_SHARE of it, the safe-move search stops at
    SEARCH_SHARE.  `last_result` is a SearchResult saying what was done:
    `algorithm` "solve" (exact: `depth` is every move left, `score` the final
    margin), "chain" (the safe-move search: `depth` its deepest line), or a
    move chosen without search ("capture", "random", "opening"); `nodes`
    counts the solver's and the search's nodes, an abandoned solve included.
    """

    SOLVE_SHARE = 0.55
    SEARCH_SHARE = 0.85

    def __init__(
        self,
        exact: int = 30,
        threshold: int = 10,
        time: float | None = None,
        seed: int | None = None,
        name: str = "default",
        model: int = 0,
    ) -> None:
        super().__init__(name)
        self.exact = exact
        self.threshold = threshold
        self.model = model
        self.models: dict[EdgeGame, EdgeSolver] = {}
        self.time = time
        self.rng = random.Random(seed)
        self.solvers: dict[EdgeGame, EdgeSolver] = {}
        self.table: dict[int, float] = {}
        self.nodes = 0
        self.depth = 0
        self.completed = True
        self._stop: Stop | None = None

    def _solver(self, game: EdgeGame) -> EdgeSolver:
        if game not in self.solvers:
            self.solvers[game] = EdgeSolver(game)
        return self.solvers[game]

    def choose(
        self, state: EdgeState, time_limit: float | None = None, stop: Stop | None = None
    ) -> int:
        start = _time.perf_counter()
        self._stop = stop
        if state.is_over() or not state.n_empty:
            raise no_legal_move(state)
        state = state.copy()
        budget = time_budget(self.time, time_limit)
        if budget is None:
            budget = 30.0
        self.nodes = 0
        self.depth = 0
        self.completed = True
        caps = state.captures()
        safe = state.safe_moves()
        if state.n_empty <= self.exact or (not caps and len(safe) <= self.threshold):
            # Exact whenever the solver finishes in time; chain play otherwise.
            solved = self._solve(state, budget * self.SOLVE_SHARE)
            if solved is not None:
                return self._done(solved.best[0], "solve", start, state.n_empty, solved.value)
        if caps:
            return self._done(capture_choice(state, caps), "capture", start)
        if safe and len(safe) <= self.model:
            left = start + budget * self.SEARCH_SHARE - _time.perf_counter()
            move = self._model_move(state, left)
            if move is not None:
                return self._done(move, "model", start)
        if len(safe) > self.threshold:
            return self._done(self.rng.choice(safe), "random", start)
        if safe:
            deadline = start + budget * self.SEARCH_SHARE
            move, score = self._search_safe(state, safe, deadline)
            return self._done(move, "chain", start, self.depth, score)
        return self._done(cheapest_opening(state), "opening", start)

    def _solve(self, state: EdgeState, seconds: float) -> SolveResult | None:
        """The exact solution, or None when the solver gives up (its nodes count)."""
        solver = self._solver(state.game)
        try:
            result = solver.solve(state, time=seconds, stop=self._stop)
        except SearchStopped:
            self.nodes += solver.nodes
            self.completed = False
            return None
        self.nodes += result.nodes
        return result

    def _model_move(self, state: EdgeState, seconds: float) -> int | None:
        """A safe edge that wins the safe-edge model (nobody sacrifices while a
        safe edge is left, exact afterwards), or None (none, or no time)."""
        if seconds <= 0:
            return None
        game = state.game
        if game not in self.models:
            self.models[game] = EdgeSolver(game, safe_only=True, max_entries=2_000_000)
        model = self.models[game]
        try:
            move = model.move_reaching(state, 1, time=seconds, stop=self._stop)
        except SearchStopped:
            self.completed = False
            move = None
        self.nodes += model.nodes
        return move

    def _done(
        self, move: int, how: str, start: float, depth: int = 0, score: float = 0.0
    ) -> int:
        """Record what `choose` did in `last_result` and return the move."""
        self.last_result = SearchResult(
            move=move,
            score=score,
            pv=[move],
            depth=depth,
            nodes=self.nodes,
            time=_time.perf_counter() - start,
            completed=self.completed,
            algorithm=how,
        )
        return move

    def _search_safe(
        self, state: EdgeState, safe: list[int], deadline: float
    ) -> tuple[int, float]:
        """Negamax over safe moves; leaves scored by the loony-endgame value.

        Returns (best move, its value); `self.nodes` and `self.depth` grow."""
        self.table.clear()
        best_move, best = safe[0], None
        for move in safe:
            state.make(move)
            try:
                value = -self._negamax(
                    state, -(10**6), 10**6 if best is None else -best, deadline, 1
                )
            except SearchStopped:
                state.undo()
                self.completed = False
                break
            state.undo()
            if best is None or value > best:
                best, best_move = value, move
        return best_move, 0.0 if best is None else best

    def _negamax(
        self, state: EdgeState, alpha: float, beta: float, deadline: float, ply: int = 0
    ) -> float:
        if _time.perf_counter() > deadline:
            raise SearchStopped("the safe-move search ran out of time")
        if self._stop is not None and self._stop.is_set():
            raise SearchStopped("the safe-move search was stopped")
        self.nodes += 1
        if ply > self.depth:
            self.depth = ply
        safe = state.safe_moves()
        if not safe:
            return margin(state) + (loony_value(state) if state.n_empty else 0)
        key = min(state.hashes)  # canonical: symmetric positions share entries
        if key in self.table:
            return self.table[key]
        best: float = -(10**6)
        for move in safe:
            state.make(move)
            value = -self._negamax(state, -beta, -max(alpha, best), deadline, ply + 1)
            state.undo()
            if value > best:
                best = value
                if best >= beta:
                    return best
        if best > alpha:
            self.table[key] = best
        return best

    def reset(self) -> None:
        super().reset()
        self.table.clear()


def capture_choice(state: EdgeState, caps: list[int]) -> int:
    """Take what is offered, except the last two cells of a chain (four of an
    opened loop) when handing them back (double-dealing) keeps control
    profitably."""
    single = single_hand_out(state, caps)
    if single is None:
        return plain_capture(state, caps)
    take, decline = hand_out_values(state, single)
    return single[1] if decline > take else single[0][0]


def cheapest_opening(state: EdgeState) -> int:
    """With no safe move: the sacrifice after which the opponent gains least."""
    best_move, best = -1, None
    for move in range(state.game.num_moves):
        if state.claimed[move] >= 0:
            continue
        state.make(move)
        value = -loony_value(state) if state.n_empty else 0
        state.undo()
        if best is None or value > best:
            best, best_move = value, move
    return best_move


# --- solver -------------------------------------------------------------------------------


def solve_edges(
    state: EdgeState, all_moves: bool = False, time: float | None = None
) -> SolveResult:
    """Exact value: the final margin (own minus opponent's) for the side to move."""
    return EdgeSolver(state.game).solve(state, all_moves=all_moves, time=time)


def register_for(game_name: str) -> None:
    """Register the players and the solver for `game_name` (hexifence, dots)."""

    @register_ai(
        "seed",
        game=game_name,
        help="seed 004: random, then alpha-beta over safe moves",
        options=(
            *LIMITS,
            SEED,
            Option("threshold", "whole", 7, "safe moves left when it starts searching", low=0),
        ),
    )
    def seed_factory(game: Game, *, limits: Limits, seed: int | None, threshold: int) -> Player:
        """Limits are accepted for uniformity: the seed plays by stages."""
        return StagedPlayer(threshold=threshold, seed=seed)

    @register_ai(
        "default",
        game=game_name,
        help="chain play and double-dealing, exact endgame",
        options=(
            *LIMITS,
            SEED,
            Option("exact", "whole", 30, "empty edges from which to solve exactly", low=0),
            Option("threshold", "whole", 10, "safe moves left for exact play", low=0),
            Option("model", "whole", 0, "safe moves left for the safe-edge model", low=0),
        ),
    )
    def default_factory(
        game: Game, *, limits: Limits, seed: int | None, exact: int, threshold: int, model: int
    ) -> Player:
        """Depth and nodes are accepted for uniformity: time is what it budgets."""
        return ChainPlayer(
            exact=exact, threshold=threshold, time=limits.time, seed=seed, model=model
        )

    register_farrugiulian(game_name)
    register_solver(game_name, solve_edges)


register_for("hexifence")
