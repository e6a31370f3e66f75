"""'farrugiulian': a sparring partner modelled on the design of AgentFarrugiulian.

AgentFarrugiulian (Matt Farrugia and Julian Tran, COMP30024 2016) was graded
22/22 in the course.  This is our own player built to the design
describes, not a port of its code.  It plays in three stages:

1. Opening, while more than `safe` safe edges (edges that offer no cell)
   remain: take any cell on offer, else a random safe edge.
2. Midgame, `safe` or fewer safe edges: take any cell on offer, else search
   to the end of the game for a winning move within `time` seconds (3 s by
   default, its own budget; a smaller per-move limit wins).  The search
   tries only safe edges while any remain; where none is left (a "loony"
   position: every edge gives something away) the rest of the game is
   chains, loops and sacrifices, and the edge solver settles it exactly
   (with no safe edge its move set is just those: captures, the
   double-dealing hand-outs and the openings of each chain or loop).  When
   the time runs out first it plays a safe edge not yet proven to lose.
3. Endgame, no safe edge left: an exact search to the end.  In a won
   position, a move that keeps the win (the largest margin); in a lost one,
   a move that gives the opponent a chance to err: one after which taking
   every cell offered (the natural reply) loses for the opponent, the
   cheapest such bait first; without one, the move that loses by least.

The midgame search is a win/loss test ("does the side to move end with
at least one cell more?") of the edge solver in its safe-edge mode
(`EdgeSolver(safe_only=True)`: only safe edges while any is left, every
move after), whose table is kept for the match: the strongest form of the
search the design describes that we have (our first version, a plain
negamax with its own table, took 12 s of CPU where this takes 0.7 s, on
six N=3 positions with 21 safe edges).  `last_result` says which stage
chose the move (`algorithm`: "capture", "random", "search", "fallback",
"endgame", "bait").
"""

from __future__ import annotations

import random
from typing import Any

from ...budget import Budget, Limits
from ...errors import SearchStopped
from ...game import Game
from ...games.hexifence import EdgeGame, EdgeState
from ...games.hexifence.solver import EdgeSolver
from ...options import LIMITS, SEED, Option
from ...players import Player, move_limits, no_legal_move
from ...search import SearchResult
from ..registry import register_ai

#: Seconds its midgame and endgame searches take at most (the original's ~3 s).
SEARCH_TIME = 3.0
#: Safe edges left when the midgame search starts.
SAFE_EDGES = 30


class FarrugiulianPlayer(Player[EdgeState]):
    """Greedy captures and random safe edges, then a win/loss search over
    safe edges with exact loony leaves, then exact endgame play that baits
    a greedy opponent when the position is lost."""

    def __init__(
        self,
        time: float | None = None,
        safe: int = SAFE_EDGES,
        seed: int | None = None,
        name: str = "farrugiulian",
    ) -> None:
        super().__init__(name)
        self.time = SEARCH_TIME if time is None else time
        self.safe = safe
        self.rng = random.Random(seed)
        self.solvers: dict[EdgeGame, EdgeSolver] = {}
        #: the safe-edge model of each game (only safe edges while any is left)
        self.models: dict[EdgeGame, EdgeSolver] = {}
        self.nodes = 0
        self._budget = Budget()

    def _solver(self, game: EdgeGame) -> EdgeSolver:
        if game not in self.solvers:
            self.solvers[game] = EdgeSolver(game)
        return self.solvers[game]

    def choose(self, state: EdgeState, limits: Limits | None = None) -> int:
        """A random safe edge while enough are left, then the search's move;
        `state` is left unchanged.

        Raises:
            GameOverError: the game is over."""
        self._budget = Budget(move_limits(Limits(time=self.time), limits))
        if state.is_over():
            raise no_legal_move(state)
        state = state.copy()
        self.nodes = 0
        safe = state.safe_moves()
        if safe:
            caps = state.captures()
            if caps:
                return self._done(caps[0], "capture")
            if len(safe) > self.safe:
                return self._done(self.rng.choice(safe), "random")
            move, how = self._midgame(state, safe)
            return self._done(move, how)
        move, how = self._endgame(state)
        return self._done(move, how)

    def _done(self, move: int, how: str) -> int:
        self.last_result = SearchResult(
            move=move,
            score=0.0,
            pv=[move],
            depth=0,
            nodes=self.nodes,
            time=self._budget.elapsed(),
            completed=how not in ("fallback",),
            algorithm=how,
        )
        return move

    # --- stage 2: win/loss search over safe edges ---------------------------------------
    def _midgame(self, state: EdgeState, safe: list[int]) -> tuple[int, str]:
        """A safe edge proven to win; else one not proven to lose (time ran out)."""
        model = self._model(state.game)
        try:
            move = model.move_reaching(state, 1, self._left())
        except SearchStopped:
            self.nodes += model.nodes
            known = model.outlook(state)
            open_moves = [m for m, _, high, _ in known if high > 0 and m in safe]
            return self.rng.choice(open_moves or safe), "fallback"
        self.nodes += model.nodes
        return (self.rng.choice(safe) if move is None else move), "search"

    def _model(self, game: EdgeGame) -> EdgeSolver:
        if game not in self.models:
            self.models[game] = EdgeSolver(game, safe_only=True, max_entries=2_000_000)
        return self.models[game]

    # --- stage 3: exact endgame ----------------------------------------------------------
    def _endgame(self, state: EdgeState) -> tuple[int, str]:
        solver = self._solver(state.game)
        try:
            result = solver.solve(state, self._left())
            self.nodes += result.nodes
            if result.value > 0 or state.captures():
                return result.best[0], "endgame"
            bait = self._bait(state, solver)
        except SearchStopped:
            caps = state.captures()
            return (caps[0] if caps else self._cheapest(state)), "fallback"
        return (bait, "bait") if bait is not None else (result.best[0], "endgame")

    def _bait(self, state: EdgeState, solver: EdgeSolver) -> int | None:
        """In a lost position: the sacrifice after which the opponent's greedy
        reply (take every cell offered) loses for it, losing least otherwise."""
        best, best_value = None, None
        me = state.to_move
        for move in range(state.game.num_moves):
            if state.claimed[move] >= 0:
                continue
            base = len(state.history)
            try:  # a spent budget raises with the bait's moves on the board: undo them
                state.make(move)
                while state.to_move != me and state.n_empty and state.captures():
                    state.make(state.captures()[0])
                if state.to_move != me and state.n_empty:
                    # the greedy opponent must now give something away: does it lose?
                    greedy = -solver.solve(state, self._left()).value
                else:
                    greedy = state.score[me] - state.score[1 - me]
                while len(state.history) > base:
                    state.undo()
                if greedy <= 0:
                    continue
                state.make(move)
                honest = solver.solve(state, self._left()).value
                honest = honest if state.to_move == me else -honest
            finally:
                while len(state.history) > base:
                    state.undo()
            if best_value is None or honest > best_value:
                best, best_value = move, honest
        return best

    def _left(self) -> Limits:
        """What is left of the move's budget; SearchStopped once it is spent."""
        self._budget.poll()
        return self._budget.remaining()

    @staticmethod
    def _cheapest(state: EdgeState) -> int:
        """The empty edge that offers the fewest cells (a quick count)."""
        empty = [m for m in range(state.game.num_moves) if state.claimed[m] < 0]
        edge_cells, empties = state.game.edge_cells, state.empties
        return min(empty, key=lambda m: sum(1 for c in edge_cells[m] if empties[c] <= 2))


def register_for(game_name: str) -> None:
    """Register "farrugiulian" for `game_name` (hexifence, dots)."""

    @register_ai(
        "farrugiulian",
        game=game_name,
        help="modelled on AgentFarrugiulian: random safe edges, then a win/loss search",
        options=(
            *LIMITS,
            SEED,
            Option("safe", "whole", SAFE_EDGES, "safe edges left when it starts searching", low=0),
        ),
    )
    def farrugiulian_factory(
        game: Game[Any], *, limits: Limits, seed: int | None, safe: int
    ) -> Player[EdgeState]:
        """`time` is its search time (3 s when not given); depth and nodes are
        accepted for uniformity."""
        return FarrugiulianPlayer(time=limits.time, safe=safe, seed=seed)

