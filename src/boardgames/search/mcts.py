"""Monte Carlo tree search (UCT) for games where evaluation is weak.

Each iteration walks down the tree choosing children by UCB1, adds one new
node, plays the game on (a playout) and backs the result up the path.

Rewards are in [0, 1] (1 win, 0.5 draw, 0 loss) and every node holds them
from the point of view of the player who made the move into it, which is
exactly the player who chooses between it and its siblings, so extra
turns (the same player moving twice) need no special case.

Playouts:
- "random": uniformly random moves to the end of the game, or for at most
  `depth` moves when a depth is given, then the evaluator judges the
  position through a sigmoid `1 / (1 + exp(-eval / scale))`;
- "evaluator": the evaluator judges the new node at once (depth 0) or
  after `depth` random moves.

Limits: `search(state, Limits(depth, time, nodes))` or the keywords; `time`
and `nodes` (iterations) stop the search, `depth` cuts the playouts.

Time: the budget (`budget.Budget`) is polled before every iteration.  Nodes hold no link to
their parent (backpropagation follows the path of the iteration), so the
tree has no reference cycles: it is freed the moment the search ends, and
the garbage collector, paused during a timed search, has nothing to trace.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import TYPE_CHECKING, Generic

from ..budget import Budget, Limits, gc_paused, given_limits, pause_gc_for
from ..errors import OptionError
from ..game import S
from ..options import check_real, check_whole
from .result import SearchResult

if TYPE_CHECKING:
    from ..evaluation import Evaluator

PLAYOUTS = ("random", "evaluator")
#: Iterations when no limit is given.
DEFAULT_ITERATIONS = 1000

#: The default cap on the tree's nodes (a few hundred bytes each: with the
#: untried moves of Andantino's nodes, about 100 MB at the cap).
MAX_TREE = 200_000


class Node:
    """One tree node: statistics of the move that led here."""

    __slots__ = ("move", "player", "children", "untried", "visits", "reward")

    def __init__(self, move: int, player: int) -> None:
        self.move = move
        #: The player who made `move` (whose point of view `reward` takes).
        self.player = player
        self.children: list[Node] = []
        self.untried: list[int] | None = None
        self.visits = 0
        self.reward = 0.0


class MCTS(Generic[S]):
    """UCT search; `c` is the exploration constant of UCB1.

    Generic in the state type `S`, as `Searcher` is.
    """

    def __init__(
        self,
        evaluator: Evaluator[S] | None = None,
        *,
        c: float = 1.4,
        playout: str = "random",
        scale: float = 1.0,
        seed: int | None = None,
        max_tree: int = MAX_TREE,
    ) -> None:
        if playout not in PLAYOUTS:
            raise OptionError(f"unknown playout {playout!r}; known: {', '.join(PLAYOUTS)}")
        c = check_real("c", c, 0)
        scale = check_real("scale", scale, 0, open_low=True)
        self.evaluator = evaluator
        self.c = float(c)
        self.playout = playout
        self.scale = float(scale)
        self.seed = seed
        self.rng = random.Random(seed)
        #: The most nodes the tree may hold; past it, iterations go on
        #: (selection and playouts) without adding nodes, so memory is bounded.
        self.max_tree = check_whole("max_tree", max_tree, 1)

    def __repr__(self) -> str:
        return f"MCTS(c={self.c}, playout={self.playout!r})"

    def clear(self) -> None:
        """Nothing persists between searches; here for symmetry with Searcher."""

    def search(
        self,
        state: S,
        limits: Limits | None = None,
        *,
        time: float | None = None,
        nodes: int | None = None,
        depth: int | None = None,
    ) -> SearchResult:
        """Run iterations until `time` seconds or `nodes` iterations are spent.

        The limits come as one `Limits(depth, time, nodes)` value or as the
        keywords.  `depth` cuts playouts after that many moves (the evaluator
        judges the rest; the keyword also takes 0: judge each new node at
        once).  Returns the most visited root move; `score` is its mean
        reward mapped to [-1, 1] from the side to move; `nodes` counts
        iterations.  `state` is left as it was.
        """
        if limits is None:
            limits = given_limits(None, None, time, nodes)
            cutoff = None if depth is None else check_whole("depth", depth, 0)
        else:
            limits = given_limits(limits, depth, time, nodes)
            cutoff = limits.depth
        if limits.time is None and limits.nodes is None:
            limits = replace(limits, nodes=DEFAULT_ITERATIONS)
        with gc_paused(pause_gc_for(limits.time)):
            # The tree dies with `_search`'s frame, before the collector is back.
            return self._search(state, Budget(limits), cutoff)

    def _search(self, state: S, budget: Budget, depth: int | None) -> SearchResult:
        if state.is_over() or not state.legal_moves():
            return SearchResult(None, 0.0, [], 0, 0, budget.elapsed(), algorithm="mcts")
        evaluator = self.evaluator
        if evaluator is None and (self.playout == "evaluator" or depth is not None):
            evaluator = state.game.default_evaluator()
        cutoff = depth if depth is not None else (0 if self.playout == "evaluator" else None)

        win = self._immediate_win(state)
        if win is not None:
            return SearchResult(
                win, 1.0, [win], 1, 1, budget.elapsed(), completed=True, algorithm="mcts"
            )

        root = Node(-1, 1 - state.to_move)
        root.untried = self._moves(state)
        base = len(state.history)
        try:
            iterations, max_depth = self._run(state, root, evaluator, cutoff, budget)
        finally:
            while len(state.history) > base:
                state.undo()
        best = max(root.children, key=lambda n: n.visits)
        pv = [best.move]
        node = best
        while node.children:
            node = max(node.children, key=lambda n: n.visits)
            pv.append(node.move)
        score = 2.0 * best.reward / best.visits - 1.0 if best.visits else 0.0
        return SearchResult(
            move=best.move,
            score=score,
            pv=pv,
            depth=max_depth,
            nodes=iterations,
            time=budget.elapsed(),
            completed=True,
            algorithm="mcts",
        )

    # --- parts -------------------------------------------------------------------
    def _run(
        self,
        state: S,
        root: Node,
        evaluator: Evaluator[S] | None,
        cutoff: int | None,
        budget: Budget,
    ) -> tuple[int, int]:
        """Iterate until a limit or the stop signal; returns (iterations, deepest node)."""
        rng = self.rng
        log, sqrt = math.log, math.sqrt
        c = self.c
        make, undo = state.make, state.undo
        history = state.history
        base = len(history)
        limit, timed, expired = budget.node_limit, budget.timed, budget.expired
        iterations = 0
        max_depth = 0
        room = self.max_tree - 1  # nodes the tree may still take (the root is one)
        while iterations < limit:
            if timed and iterations and expired():
                break
            iterations += 1
            node = root
            path = [root]
            # Selection: descend through fully expanded nodes by UCB1.
            while not node.untried and node.children:
                log_n = log(node.visits)
                best, best_ucb = node, -1.0
                for child in node.children:
                    ucb = child.reward / child.visits + c * sqrt(log_n / child.visits)
                    if ucb > best_ucb:
                        best, best_ucb = child, ucb
                node = best
                path.append(node)
                make(node.move)
            # Expansion: one new child, while the tree has room.
            if node.untried and room > 0:
                room -= 1
                move = node.untried.pop()
                player = state.to_move
                make(move)
                child = Node(move, player)
                child.untried = self._moves(state)
                node.children.append(child)
                path.append(child)
            max_depth = max(max_depth, len(history) - base)
            # Simulation: the first player's reward.
            reward0 = self._playout(state, evaluator, cutoff, rng)
            while len(history) > base:
                undo()
            # Backpropagation.
            for node in path:
                node.visits += 1
                node.reward += reward0 if node.player == 0 else 1.0 - reward0
        return iterations, max_depth

    def _moves(self, state: S) -> list[int]:
        """Untried moves of a new node, shuffled so expansion order is random."""
        if state.is_over():
            return []
        moves = list(state.legal_moves())
        self.rng.shuffle(moves)
        return moves

    @staticmethod
    def _immediate_win(state: S) -> int | None:
        """A move that wins on the spot, if any (UCT would find it, but slowly)."""
        side = state.to_move
        for move in state.legal_moves():
            state.make(move)
            won = state.is_over() and state.winner() == side
            state.undo()
            if won:
                return move
        return None

    def _playout(
        self, state: S, evaluator: Evaluator[S] | None, cutoff: int | None, rng: random.Random
    ) -> float:
        """Play on from `state` (moves are left on it); the first player's reward."""
        make, is_over, legal_moves = state.make, state.is_over, state.legal_moves
        choice = rng.choice
        steps = 0
        while not is_over():
            if cutoff is not None and steps >= cutoff:
                assert evaluator is not None
                value = evaluator(state) / self.scale
                value = max(-60.0, min(60.0, value))
                p = 1.0 / (1.0 + math.exp(-value))
                return p if state.to_move == 0 else 1.0 - p
            moves = legal_moves()
            if not moves:
                break
            make(choice(moves))
            steps += 1
        winner = state.winner()
        if winner is None:
            return 0.5
        return 1.0 if winner == 0 else 0.0
