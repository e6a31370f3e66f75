"""The split tree of a split solve (`split_solve`): the top of the game tree,
each node's interval on its value, and the windows alpha-beta would give
its open leaves.  Values are from each node's side to move; a child's
sign says whether its side to move is the parent's (+1) or not (-1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .position import solver_info

if TYPE_CHECKING:
    from ..game import Game, State

INF = float("inf")



@dataclass(eq=False)
class Node:
    """A position of the split tree: a leaf (its interval from the tasks) or
    an inner node (its interval from its children, each with its sign: +1
    when the child has the same side to move, else -1).  `moves` lead to it
    from the split root (the first way found: a transposition or a
    symmetric position shares the node); `side` is its side to move."""

    moves: tuple[int, ...]
    side: int
    lo: float
    hi: float
    children: list[tuple[int, Node, int]] = field(default_factory=list)
    running: bool = False
    line: tuple[int, ...] | None = None  #: a leaf's principal line, when its task gave one

    def interval(self, memo: dict[int, tuple[float, float]]) -> tuple[float, float]:
        """The node's interval of values: a leaf's own, an inner node's from its
        children (negamax over the children's intervals); `memo` caches them."""
        if not self.children:
            return self.lo, self.hi
        known = memo.get(id(self))
        if known is None:
            lo = hi = -INF
            for _, child, sign in self.children:
                clo, chi = child.interval(memo)
                if sign < 0:
                    clo, chi = -chi, -clo
                lo, hi = max(lo, clo), max(hi, chi)
            known = memo[id(self)] = (lo, hi)
        return known


class SplitTree:
    """The split tree of one solve: its nodes, their intervals, the leaves still
    needed with their windows, and the answer once the root is exact."""

    def __init__(self, state: State[Any], outcome: bool, plugins: tuple[str, ...]) -> None:
        game = state.game
        self.state = state.copy()
        self.position = state.to_text()
        self.game: Game[Any] = game
        self.plugins = plugins
        info = solver_info(game, reuse=True)
        self.own = solver_info(game).own
        #: Do the tasks share work beyond the split tree's cut-offs (windows, or
        #: a table kept in each worker)?  Without, fewer and bigger tasks cost less.
        self.sharing = info.window or info.session
        #: Lines come almost free from a solver that gives them itself.
        self.native_line = info.line
        #: Tasks ask for the outcome only from a solver that can answer it
        #: (otherwise the exact margin, reduced to its sign at the end).
        self.task_outcome = outcome and game.scored and info.outcome
        small = not game.scored or self.task_outcome
        self.low, self.high = (-1.0, 1.0) if small else (-INF, INF)
        self.nodes: dict[tuple[Any, ...], Node] = {}
        self.root = self._node(self.state, ())

    # --- building --------------------------------------------------------------------
    def _key(self, state: State[Any]) -> tuple[Any, ...]:
        scores = state.scores() if self.game.scored else ()
        return (state.canonical()[0], state.to_move, scores)

    def _node(self, state: State[Any], moves: tuple[int, ...]) -> Node:
        key = self._key(state)
        node = self.nodes.get(key)
        if node is None:
            node = Node(moves, state.to_move, self.low, self.high)
            if state.is_over():
                node.lo = node.hi = self._terminal(state)
            self.nodes[key] = node
        return node

    def _terminal(self, state: State[Any]) -> int:
        side = state.to_move
        if self.game.scored:
            a, b = state.scores()
            margin = a - b if side == 0 else b - a
            return (margin > 0) - (margin < 0) if self.task_outcome else margin
        winner = state.winner()
        return 0 if winner is None else 1 if winner == side else -1

    def expand(self, target: int, max_depth: int) -> int:
        """Grow the tree level by level until it has `target` open leaves (or
        `max_depth` levels); returns the depth reached."""
        level, depth = [self.root] if self.root.lo < self.root.hi else [], 0
        while level and (depth == 0 or len(level) < target) and depth < max(max_depth, 1):
            seen: set[int] = set()
            following: list[Node] = []
            for node in level:
                state = self.replay(node.moves)
                for move in state.legal_moves():
                    state.make(move)
                    child = self._node(state, (*node.moves, move))
                    sign = 1 if state.to_move == node.side else -1
                    state.undo()
                    node.children.append((move, child, sign))
                    if child.lo < child.hi and not child.children and id(child) not in seen:
                        seen.add(id(child))
                        following.append(child)
            level, depth = following, depth + 1
        return depth

    def replay(self, moves: tuple[int, ...]) -> State[Any]:
        """The position after `moves` from the split root."""
        state = self.state.copy()
        for move in moves:
            state.make(move)
        return state

    def leaves(self) -> int:
        """The number of leaves whose value is still open (lo < hi)."""
        return sum(1 for n in self.nodes.values() if not n.children and n.lo < n.hi)

    # --- what is still needed --------------------------------------------------------
    def needed(self, all_moves: bool) -> dict[int, tuple[Node, float, float]]:
        """The leaves whose interval does not settle their window yet, each
        with the widest window it is needed in, in the order alpha-beta
        would search them."""
        memo: dict[int, tuple[float, float]] = {}
        out: dict[int, tuple[Node, float, float]] = {}
        root = self.root
        if root.children:
            lows = self._child_intervals(root, memo)
            for i, (_, child, sign) in enumerate(root.children):
                others = max((lows[j][0] for j in range(len(lows)) if j != i), default=-INF)
                self._visit(child, sign, others - 1 if all_moves else others, INF, memo, out)
        else:
            self._visit(root, 1, -INF, INF, memo, out)
        return out

    def _child_intervals(
        self, node: Node, memo: dict[int, tuple[float, float]]
    ) -> list[tuple[float, float]]:
        """The children's intervals from `node`'s side."""
        out = []
        for _, child, sign in node.children:
            lo, hi = child.interval(memo)
            out.append((lo, hi) if sign > 0 else (-hi, -lo))
        return out

    def _visit(
        self,
        node: Node,
        sign: int,
        alpha: float,
        beta: float,
        memo: dict[int, tuple[float, float]],
        out: dict[int, tuple[Node, float, float]],
    ) -> None:
        """`node` is needed in the window (alpha, beta) of its parent's side."""
        lo, hi = node.interval(memo)
        if sign < 0:
            alpha, beta = -beta, -alpha  # into the node's side
        if lo == hi or lo >= beta or hi <= alpha:
            return
        if not node.children:
            _, a, b = out.get(id(node), (node, INF, -INF))
            out[id(node)] = (node, min(a, alpha), max(b, beta))
            return
        lows = self._child_intervals(node, memo)
        for i, (_, child, child_sign) in enumerate(node.children):
            others = max((lows[j][0] for j in range(len(lows)) if j != i), default=-INF)
            self._visit(child, child_sign, max(alpha, others), beta, memo, out)

    # --- the answer ------------------------------------------------------------------
    def answer(self, all_moves: bool) -> tuple[int, list[int]]:
        """(value of the root, its optimal moves): every one with `all_moves`."""
        memo: dict[int, tuple[float, float]] = {}
        lo, hi = self.root.interval(memo)
        assert lo == hi, "the split solve ended before the root was exact"
        value = int(lo)
        if not self.root.children:
            return value, []
        best = []
        for (move, _, _), (clo, chi) in zip(
            self.root.children, self._child_intervals(self.root, memo), strict=True
        ):
            if clo == chi == value:
                best.append(move)
                if not all_moves:
                    break
        if self.own and not self.game.scored and value < 0:
            best = []  # as the games' own solvers say: no move saves a lost position
        return value, best

    def principal_path(self) -> tuple[list[int], Node]:
        """Moves from the root down the split tree, each to a child whose
        exact value is its parent's, to an exact leaf (returned too)."""
        path: list[int] = []
        node = self.root
        memo: dict[int, tuple[float, float]] = {}
        while node.children:
            value = node.interval(memo)[0]
            for (move, child, _), (clo, chi) in zip(
                node.children, self._child_intervals(node, memo), strict=True
            ):
                if clo == chi == value:
                    path.append(move)
                    node = child
                    break
            else:
                raise AssertionError("an exact node without an exact child of its value")
        return path, node
