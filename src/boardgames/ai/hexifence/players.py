"""HexiFence AIs: the seed's staged player and the default.

Both players also serve dots-and-boxes (registered for both games here):
the rules are the same edge-capture game on another layout.

- "seed" (seed 004): always take a capture; random safe moves while more
  than `threshold` safe moves remain; then alpha-beta with the history
  heuristic over safe moves only, scoring the end of the safe phase with the
  seed's f(n) after a greedy play-out; with no safe move left, the move that
  gives away the fewest cells.  It never declines cells, so it never plays
  the double-dealing sacrifice.
- "default" (`default.ChainPlayer`): exact play once few edges remain,
  and before that the safe-edge model: a safe edge proven to win the game
  in which nobody sacrifices while a safe edge is left.
- "farrugiulian" (`farrugiulian.FarrugiulianPlayer`): the sparring partner
  modelled on AgentFarrugiulian.

Why a hand-written search for the seed and not the generic `Searcher`: it
searches only the *safe* moves (edges that give nothing away), stops where
the safe moves run out and scores that frontier with the seed's greedy
play-out and f(n), which a depth-limited search over every legal move does
not express.  `StagedPlayer._alphabeta` is a faithful port of the seed
(max/min from its own colour, its history heuristic, no table), kept so
that "seed" plays as the seed did.
"""

from __future__ import annotations

import random
from typing import Any

from ...budget import Budget, Limits
from ...errors import SearchStopped
from ...game import Game
from ...games.hexifence import EdgeState
from ...games.hexifence.experts import giveaway, seed_utility
from ...options import LIMITS, SEED, THREADS, Option
from ...players import Player, move_limits
from ..registry import register_ai
from .default import ChainPlayer, capture_choice, cheapest_opening  # noqa: F401
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


class StagedPlayer(Player[Any]):
    """Seed 004's staged player: always capture; a random safe move while
    more than `threshold` remain; then alpha-beta over the safe moves; with
    none left, the sacrifice that gives away the fewest cells.

    The seed had no clock: its search is small while `threshold` is.  The
    move's limits still bound it (a time limit, a stop signal): cut short,
    it plays the best root move searched so far."""

    def __init__(self, threshold: int = 7, seed: int | None = None, name: str = "seed") -> None:
        super().__init__(name)
        self.threshold = threshold
        self.rng = random.Random(seed)
        self.history: dict[int, int] = {}
        self.nodes = 0
        self._budget = Budget()

    def choose(self, state: EdgeState, limits: Limits | None = None) -> int:
        """The move by the stages above; `state` is left unchanged."""
        self._budget = Budget(move_limits(Limits(), limits))
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
        base = len(state.history)
        for move in sorted(safe, key=lambda m: -self.history.get(m, 0)):
            state.make(move)
            try:
                value = self._alphabeta(state, me, alpha, beta, 1)
            except SearchStopped:  # cut short: the best root move so far
                while len(state.history) > base:
                    state.undo()
                break
            state.undo()
            if best is None or value > best:
                best, best_move = value, move
            alpha = max(alpha, value)
        return best_move

    def _alphabeta(self, state: EdgeState, me: int, alpha: int, beta: int, depth: int) -> int:
        """Max for `me`, min for the opponent, over safe moves only; the end
        of the safe phase is played out greedily and scored by seed_utility."""
        self.nodes += 1
        self._budget.poll(self.nodes)
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
        """Forget the last game's history table."""
        super().reset()
        self.history.clear()


def register_for(game_name: str) -> None:
    """Register the players for `game_name` (hexifence, dots)."""

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
    def seed_factory(
        game: Game[Any], *, limits: Limits, seed: int | None, threshold: int
    ) -> Player[Any]:
        """Limits are accepted for uniformity: the seed plays by stages."""
        return StagedPlayer(threshold=threshold, seed=seed)

    @register_ai(
        "default",
        game=game_name,
        help="exact play, and the safe-edge model before it",
        options=(
            *LIMITS,
            SEED,
            Option("exact", "whole", 30, "empty edges from which to solve exactly", low=0),
            Option("threshold", "whole", 10, "safe moves left for exact play", low=0),
            Option("model", "whole", 1000, "safe moves left for the safe-edge model", low=0),
            Option("sacrifice", "whole", 2, "most cells offered to win a lost model", low=0),
            Option(
                "reach", "whole", 40,
                "empty edges from which the time left goes to an exact search for a win (0: off)",
                low=0,
            ),
            THREADS,
        ),
    )
    def default_factory(
        game: Game[Any],
        *,
        limits: Limits,
        seed: int | None,
        exact: int,
        threshold: int,
        model: int,
        sacrifice: int,
        reach: int,
        threads: int,
    ) -> Player[Any]:
        """Depth and nodes are accepted for uniformity: time is what it budgets."""
        return ChainPlayer(
            exact=exact,
            threshold=threshold,
            model=model,
            sacrifice=sacrifice,
            reach=reach,
            time=limits.time,
            seed=seed,
            threads=threads,
        )

    register_farrugiulian(game_name)


for _name in ("hexifence", "dots"):  # the same rules on two layouts
    register_for(_name)
