"""Split solving: one exact solve spread over the workers of an executor.

`split_solve(state, executor)` gives the same value and the same optimal
moves (with `all_moves`) as `ai.solving.solve_position(state)`, with the
work shared by the executors of tournaments (`parallel`: local
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

import os
import time as _time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..budget import Budget, Limits, given_limits
from ..errors import OptionError
from ..parallel import executor_slots, local_workers, open_executor, stop_executor
from ..plugins import import_plugins
from ..registry import get_game
from ..solution import EXACT, LOWER, UPPER, SolveResult
from .position import solve_position, solver_info
from .split_tree import INF, Node, SplitTree

if TYPE_CHECKING:
    from ..game import State

#: Seconds between two looks at a stop signal while the tasks run.
STOP_POLL = 0.05
#: The least time a task is given (it gives up at once if that is all).
TASK_FLOOR = 0.001



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
    the principal line when asked and exact, what it cost, and the `pid` of
    the process that ran it."""

    value: int
    bound: str
    nodes: int
    cpu: float
    seconds: float
    line: tuple[int, ...] | None = None
    pid: int = 0


def solve_leaf(task: LeafTask) -> LeafResult:
    """Run one task (the function the executors call)."""
    import_plugins(task.plugins)
    game = get_game(task.game, **dict(task.params))
    state = game.parse_position(task.position)
    for move in task.moves:
        state.make(move)
    solver_info(game, reuse=True)  # imports the game's AI module before the clocks start
    cpu, clock = _time.process_time(), Budget()
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
        clock.elapsed(),
        line,
        os.getpid(),
    )


@dataclass
class SplitReport:
    """`split_solve`'s answer: the `result` (as `solve_position` gives it)
    and how the work went: `tasks` run, open leaves of the split tree and
    its `depth`, the workers' CPU seconds (`cpu`, their sum), and each
    task's moves from the root with its result (`log`, in finishing order).
    `workers` is how many worker processes ran its tasks."""

    result: SolveResult
    tasks: int
    leaves: int
    depth: int
    cpu: float
    log: list[tuple[tuple[int, ...], LeafResult]] = field(default_factory=list)

    @property
    def workers(self) -> int:
        """The number of worker processes that solved tasks."""
        return len({result.pid for _, result in self.log})


def _settle(node: Node, result: LeafResult) -> None:
    """Narrow a leaf's interval with a task's result."""
    if result.bound == EXACT:
        node.lo = node.hi = result.value
        node.line = result.line
    elif result.bound == UPPER:
        node.hi = min(node.hi, result.value)
    elif result.bound == LOWER:
        node.lo = max(node.lo, result.value)
    node.running = False


def split_solve(
    state: State[Any],
    executor: Executor,
    *,
    limits: Limits | None = None,
    time: float | None = None,
    all_moves: bool = False,
    outcome: bool = False,
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
    workers import to know the game.  Raises `SearchStopped` when the
    `limits` (or `time=` seconds; a stop signal is polled here, between the
    tasks' results) are not enough, and a task's exception as it is.
    """
    budget = Budget(given_limits(limits, None, time), what="solve")
    slots = max(1, slots or executor_slots(executor))
    split, depth = plan_split(state, slots, outcome, plugins, tasks, max_depth)
    return _solve_split(state, split, depth, executor, slots, budget, all_moves, outcome, line)


def plan_split(
    state: State[Any],
    slots: int,
    outcome: bool = False,
    plugins: tuple[str, ...] = (),
    tasks: int | None = None,
    max_depth: int = 3,
) -> tuple[SplitTree, int]:
    """The split tree of `state` for `slots` tasks at a time, expanded as
    `split_solve` does it, and its depth."""
    split = SplitTree(state, outcome, plugins)
    return split, split.expand(tasks or (4 if split.sharing else 2) * slots, max_depth)


def _solve_split(
    state: State[Any],
    split: SplitTree,
    depth: int,
    executor: Executor,
    slots: int,
    budget: Budget,
    all_moves: bool,
    outcome: bool,
    line: bool,
) -> SplitReport:
    """`split_solve` once its tree is expanded: run the tasks, then the answer."""
    report = SplitReport(SolveResult(0, None, [], 0, 0.0), 0, split.leaves(), depth, 0.0)
    for future, node in _run(split, executor, all_moves, slots, budget, line):
        result = future.result()
        _settle(node, result)
        report.log.append((node.moves, result))
        report.tasks += 1
        report.result.nodes += result.nodes
        report.cpu += result.cpu
    value, best = split.answer(all_moves)
    pv: list[int] | None = None
    if line:
        pv = _line(split, executor, budget, report)
    if outcome and state.game.scored and not split.task_outcome:
        value = (value > 0) - (value < 0)
    side = state.to_move
    winner = None if value == 0 else side if value > 0 else 1 - side
    if state.is_over() and not state.game.scored:
        winner = state.winner()
    report.result = SolveResult(
        value, winner, best, report.result.nodes, budget.elapsed(), pv
    )
    return report


_Flight = tuple["Future[LeafResult]", Node]


def _task_time(budget: Budget) -> float | None:
    """The seconds a task submitted now may take (None: no time limit)."""
    return None if budget.time is None else budget.remaining(TASK_FLOOR).time


def _run(
    split: SplitTree,
    executor: Executor,
    all_moves: bool,
    slots: int,
    budget: Budget,
    line: bool = False,
) -> Iterator[_Flight]:
    """Submit the needed leaves, `slots` at a time, and yield each finished
    task; ends when nothing more is needed (tasks still running are left).
    With `line`, tasks whose solver gives lines itself return them."""
    flying: dict[Future[LeafResult], Node] = {}
    game = split.game
    params = tuple(sorted(game.params.items()))
    while True:
        needed = split.needed(all_moves)
        for node, alpha, beta in needed.values():
            if len(flying) >= slots:
                break
            if node.running:
                continue
            task = LeafTask(
                game.name, params, split.position, node.moves, (alpha, beta),
                split.task_outcome, _task_time(budget), line and split.native_line,
                split.plugins,
            )  # fmt: skip
            node.running = True
            flying[executor.submit(solve_leaf, task)] = node
        if not needed:
            return
        if not flying:
            raise AssertionError("leaves are needed but none can be solved")
        # With a stop signal, wait a little at a time to see it.
        timeout = None
        if budget.timed:
            left = budget.left()
            timeout = max(0.0, left if budget.stop is None else min(left, STOP_POLL))
        done, _ = wait(list(flying), timeout=timeout, return_when=FIRST_COMPLETED)
        if not done:
            if budget.expired():
                raise budget.gave_up()
            continue
        for future in done:
            yield future, flying.pop(future)


def _line(
    split: SplitTree, executor: Executor, budget: Budget, report: SplitReport
) -> list[int] | None:
    """A principal line: down the split tree, then the line of the leaf
    reached: its task's, or solved once more by a worker."""
    path, leaf = split.principal_path()
    end = split.replay(tuple(path))
    if end.is_over():
        return path
    if leaf.line is not None and end.hashes == split.replay(leaf.moves).hashes:
        return path + list(leaf.line)  # the same position, not only a symmetric one
    game = split.game
    task = LeafTask(
        game.name, tuple(sorted(game.params.items())), split.position, tuple(path),
        (-INF, INF), split.task_outcome, _task_time(budget), True, split.plugins,
    )  # fmt: skip
    result = executor.submit(solve_leaf, task).result()
    report.log.append((tuple(path), result))
    report.tasks += 1
    report.result.nodes += result.nodes
    report.cpu += result.cpu
    return None if result.line is None else path + list(result.line)


def solve_with_workers(
    state: State[Any],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    limits: Limits | None = None,
    time: float | None = None,
    all_moves: bool = False,
    outcome: bool = False,
    line: bool = False,
    plugins: tuple[str, ...] = (),
    tasks: int | None = None,
    max_depth: int = 3,
) -> SplitReport:
    """`split_solve` on `open_executor(workers, scheduler)` (local processes,
    one per core by default, or a Dask cluster); tasks no longer needed when
    the answer is known are stopped rather than waited for.  A time limit
    that runs out, or Ctrl-C, stops the workers too.

    Local processes are started for at most one task per open leaf of the
    split tree (the tree is expanded for the `workers` asked): more could
    only wait.  The report's `workers` says how many ran tasks."""
    budget = Budget(given_limits(limits, None, time), what="solve")
    try:
        if scheduler is not None:
            with open_executor(None, scheduler) as executor:
                assert executor is not None
                report = split_solve(
                    state, executor, limits=budget.remaining(), all_moves=all_moves,
                    outcome=outcome, line=line, plugins=plugins, tasks=tasks, max_depth=max_depth,
                )  # fmt: skip
                stop_executor(executor)
                return report
        wanted = local_workers(workers)
        if wanted == 0:
            raise OptionError("split solving needs at least one worker")
        split, depth = plan_split(state, wanted, outcome, plugins, tasks, max_depth)
        slots = min(wanted, max(1, split.leaves()))
        with open_executor(slots) as executor:
            assert executor is not None
            report = _solve_split(
                state, split, depth, executor, slots, budget, all_moves, outcome, line
            )
            stop_executor(executor)
            return report
    except TimeoutError as exc:
        raise budget.gave_up(getattr(exc, "nodes", None)) from None
