"""Split solving: one exact solve spread over the workers of an executor.

`split_solve(state, executor)` gives the same value and the same optimal
moves (with `all_moves`) as `ai.solving.solve_position(state)`, with the
work shared by the executors of tournaments (`arena.executors`: local
processes, or a Dask cluster).

How (see docs/search.md, "Split solving"):

- The top of the game tree, the *split tree*, is expanded here, level by
  level, until it has enough open leaves for the workers (`tasks`, by
  default four per worker, two when the tasks cannot share work) or
  `max_depth` levels.  Positions equal up to
  the board's symmetries (same canonical hash, side to move and scores)
  are one node, so symmetric root moves are solved once.
- Each open leaf is a task (`solve_leaf`, run by a worker): the leaf's
  position solved by its game's own solver or the generic one, in a
  window.
- The tasks share what they proved through their results.  Each result
  is an interval [lo, hi] on its leaf's value (exact, or a bound when the
  value fell outside the window); the driver keeps the interval of every
  split-tree node (max over the children, from each side's view) and
  gives each new task the window alpha-beta would: the best value its
  siblings already proved, and its parent's window.  A node whose
  interval no longer matters (a sibling is proved better: a cut-off) gets
  no more tasks.  Only `slots` tasks run at a time, so each new one starts
  from all the results in so far.
- It ends when the root is exact and, with `all_moves`, each root move is
  shown equal to the root (optimal) or below it.  Tasks still running then
  are no longer needed; the executor is left to the caller
  (`solve_with_workers` stops them).

Windows need a solver that takes them; for one that does not (Hadron's,
the edge games') each task is an exact solve, and the sharing is in the
cut-offs of the split tree alone.
"""

from __future__ import annotations

import time as _time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..ai.solving import solve_position, solver_info
from ..errors import OptionError, SearchStopped
from ..game import get_game
from ..plugins import import_plugins
from ..solution import EXACT, LOWER, UPPER, SolveResult
from .executors import executor_slots, open_executor, stop_executor

if TYPE_CHECKING:
    from ..game import Game, State

INF = float("inf")


# --- the tasks (run where the workers are) ------------------------------------------------


@dataclass(frozen=True)
class LeafTask:
    """Solve the position after `moves` (indices) from `position` (the split
    root, as `State.to_text` writes it) in `window`."""

    game: str
    params: tuple[tuple[str, int], ...]
    position: str
    moves: tuple[int, ...]
    window: tuple[float, float] = (-INF, INF)
    outcome: bool = False
    time: float | None = None
    line: bool = False
    plugins: tuple[str, ...] = ()


@dataclass(frozen=True)
class LeafResult:
    """A task's answer: `value` with its `bound` (solution.EXACT/LOWER/UPPER),
    the principal line when asked and exact, and what it cost."""

    value: int
    bound: str
    nodes: int
    cpu: float
    seconds: float
    line: tuple[int, ...] | None = None


def solve_leaf(task: LeafTask) -> LeafResult:
    """Run one task (the function the executors call)."""
    import_plugins(task.plugins)
    game = get_game(task.game, **dict(task.params))
    state = game.parse_position(task.position)
    for move in task.moves:
        state.make(move)
    solver_info(game, reuse=True)  # imports the game's AI module before the clocks start
    cpu, started = _time.process_time(), _time.perf_counter()
    result = solve_position(
        state,
        outcome=task.outcome,
        time=task.time,
        line=task.line,
        window=task.window,
        reuse=True,
    )
    line = None if result.line is None else tuple(result.line)
    return LeafResult(
        int(result.value),
        result.bound,
        result.nodes,
        _time.process_time() - cpu,
        _time.perf_counter() - started,
        line,
    )


# --- the split tree -------------------------------------------------------------------------


@dataclass(eq=False)
class _Node:
    """A position of the split tree: a leaf (its interval from the tasks) or
    an inner node (its interval from its children, each with its sign: +1
    when the child has the same side to move, else -1).  `moves` lead to it
    from the split root (the first way found: a transposition or a
    symmetric position shares the node); `side` is its side to move."""

    moves: tuple[int, ...]
    side: int
    lo: float
    hi: float
    children: list[tuple[int, _Node, int]] = field(default_factory=list)
    running: bool = False

    def interval(self, memo: dict[int, tuple[float, float]]) -> tuple[float, float]:
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


@dataclass
class SplitReport:
    """`split_solve`'s answer: the `result` (as `solve_position` gives it)
    and how the work went: `tasks` run, open leaves of the split tree and
    its `depth`, the workers' CPU seconds (`cpu`, their sum), and each
    task's moves from the root with its result (`log`, in finishing order)."""

    result: SolveResult
    tasks: int
    leaves: int
    depth: int
    cpu: float
    log: list[tuple[tuple[int, ...], LeafResult]] = field(default_factory=list)


class _Split:
    """The driver: the split tree, its windows and the tasks in flight."""

    def __init__(self, state: State[Any], outcome: bool, plugins: tuple[str, ...]) -> None:
        game = state.game
        self.state = state.copy()
        self.position = state.to_text()
        self.game: Game = game
        self.plugins = plugins
        info = solver_info(game, reuse=True)
        self.own = solver_info(game).own
        #: Do the tasks share work beyond the split tree's cut-offs (windows, or
        #: a table kept in each worker)?  Without, fewer and bigger tasks cost less.
        self.sharing = info.window or info.session
        #: Tasks ask for the outcome only from a solver that can answer it
        #: (otherwise the exact margin, reduced to its sign at the end).
        self.task_outcome = outcome and game.scored and info.outcome
        small = not game.scored or self.task_outcome
        self.low, self.high = (-1.0, 1.0) if small else (-INF, INF)
        self.nodes: dict[tuple[Any, ...], _Node] = {}
        self.root = self._node(self.state, ())

    # --- building --------------------------------------------------------------------
    def _key(self, state: State[Any]) -> tuple[Any, ...]:
        scores = state.scores() if self.game.scored else ()
        return (state.canonical()[0], state.to_move, scores)

    def _node(self, state: State[Any], moves: tuple[int, ...]) -> _Node:
        key = self._key(state)
        node = self.nodes.get(key)
        if node is None:
            node = _Node(moves, state.to_move, self.low, self.high)
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
            following: list[_Node] = []
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
        return sum(1 for n in self.nodes.values() if not n.children and n.lo < n.hi)

    # --- what is still needed --------------------------------------------------------
    def needed(self, all_moves: bool) -> dict[int, tuple[_Node, float, float]]:
        """The leaves whose interval does not settle their window yet, each
        with the widest window it is needed in, in the order alpha-beta
        would search them."""
        memo: dict[int, tuple[float, float]] = {}
        out: dict[int, tuple[_Node, float, float]] = {}
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
        self, node: _Node, memo: dict[int, tuple[float, float]]
    ) -> list[tuple[float, float]]:
        """The children's intervals from `node`'s side."""
        out = []
        for _, child, sign in node.children:
            lo, hi = child.interval(memo)
            out.append((lo, hi) if sign > 0 else (-hi, -lo))
        return out

    def _visit(
        self,
        node: _Node,
        sign: int,
        alpha: float,
        beta: float,
        memo: dict[int, tuple[float, float]],
        out: dict[int, tuple[_Node, float, float]],
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

    def principal_path(self) -> list[int]:
        """Moves from the root down the split tree, each to a child whose
        exact value is its parent's, to an exact leaf."""
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
        return path


def _settle(node: _Node, result: LeafResult) -> None:
    """Narrow a leaf's interval with a task's result."""
    if result.bound == EXACT:
        node.lo = node.hi = result.value
    elif result.bound == UPPER:
        node.hi = min(node.hi, result.value)
    elif result.bound == LOWER:
        node.lo = max(node.lo, result.value)
    node.running = False


def split_solve(
    state: State[Any],
    executor: Executor,
    *,
    all_moves: bool = False,
    outcome: bool = False,
    time: float | None = None,
    line: bool = False,
    plugins: tuple[str, ...] = (),
    slots: int | None = None,
    tasks: int | None = None,
    max_depth: int = 3,
) -> SplitReport:
    """Solve `state` (left unchanged) with the tasks run by `executor`.

    The answer is `solve_position`'s: `value` from the side to move (the
    sign only with `outcome` in a scored game), `best` every optimal move
    with `all_moves` (else one of them, not always the one a single solve
    names), `line` a principal line when asked.  `slots` is how many tasks
    run at once (default: the executor's workers), `tasks` how many open
    leaves the split tree aims at (default: 4 per slot, 2 when the solver
    neither takes windows nor keeps a table between tasks), `plugins` what the
    workers import to know the game.  Raises `SearchStopped` when `time`
    seconds are not enough, and a task's exception as it is.
    """
    started = _time.perf_counter()
    deadline = None if time is None else started + time
    slots = max(1, slots or executor_slots(executor))
    split = _Split(state, outcome, plugins)
    depth = split.expand(tasks or (4 if split.sharing else 2) * slots, max_depth)
    report = SplitReport(SolveResult(0, None, [], 0, 0.0), 0, split.leaves(), depth, 0.0)
    for future, node in _run(split, executor, all_moves, slots, deadline):
        result = future.result()
        _settle(node, result)
        report.log.append((node.moves, result))
        report.tasks += 1
        report.result.nodes += result.nodes
        report.cpu += result.cpu
    value, best = split.answer(all_moves)
    pv: list[int] | None = None
    if line:
        pv = _line(split, executor, deadline, report)
    if outcome and state.game.scored and not split.task_outcome:
        value = (value > 0) - (value < 0)
    side = state.to_move
    winner = None if value == 0 else side if value > 0 else 1 - side
    if state.is_over() and not state.game.scored:
        winner = state.winner()
    report.result = SolveResult(
        value, winner, best, report.result.nodes, _time.perf_counter() - started, pv
    )
    return report


_Flight = tuple["Future[LeafResult]", _Node]


def _run(
    split: _Split, executor: Executor, all_moves: bool, slots: int, deadline: float | None
) -> Iterator[_Flight]:
    """Submit the needed leaves, `slots` at a time, and yield each finished
    task; ends when nothing more is needed (tasks still running are left)."""
    flying: dict[Future[LeafResult], _Node] = {}
    game = split.game
    params = tuple(sorted(game.params.items()))
    while True:
        needed = split.needed(all_moves)
        for node, alpha, beta in needed.values():
            if len(flying) >= slots:
                break
            if node.running:
                continue
            left = None if deadline is None else max(deadline - _time.perf_counter(), 0.001)
            task = LeafTask(
                game.name, params, split.position, node.moves, (alpha, beta),
                split.task_outcome, left, False, split.plugins,
            )  # fmt: skip
            node.running = True
            flying[executor.submit(solve_leaf, task)] = node
        if not needed:
            return
        if not flying:
            raise AssertionError("leaves are needed but none can be solved")
        timeout = None if deadline is None else max(deadline - _time.perf_counter(), 0.0)
        done, _ = wait(list(flying), timeout=timeout, return_when=FIRST_COMPLETED)
        if not done:
            raise SearchStopped("split solve: out of time")
        for future in done:
            yield future, flying.pop(future)


def _line(
    split: _Split, executor: Executor, deadline: float | None, report: SplitReport
) -> list[int] | None:
    """A principal line: down the split tree, then the line of the leaf
    reached, solved once more by a worker (the tasks did not ask for lines)."""
    path = split.principal_path()
    if split.replay(tuple(path)).is_over():
        return path
    left = None if deadline is None else max(deadline - _time.perf_counter(), 0.001)
    game = split.game
    task = LeafTask(
        game.name, tuple(sorted(game.params.items())), split.position, tuple(path),
        (-INF, INF), split.task_outcome, left, True, split.plugins,
    )  # fmt: skip
    result = executor.submit(solve_leaf, task).result()
    report.tasks += 1
    report.result.nodes += result.nodes
    report.cpu += result.cpu
    return None if result.line is None else path + list(result.line)


def solve_with_workers(
    state: State[Any],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    **options: Any,
) -> SplitReport:
    """`split_solve` on `open_executor(workers, scheduler)` (local processes,
    one per core by default, or a Dask cluster); tasks no longer needed when
    the answer is known are stopped rather than waited for.  A time limit
    that runs out, or Ctrl-C, stops the workers too."""
    started = _time.perf_counter()
    try:
        with open_executor(workers, scheduler) as executor:
            if executor is None:
                raise OptionError("split solving needs at least one worker")
            report = split_solve(state, executor, **options)
            stop_executor(executor)
            return report
    except TimeoutError as exc:
        raise SearchStopped.gave_up(
            _time.perf_counter() - started, getattr(exc, "nodes", None)
        ) from None
