"""Solve a position with the best solver its game has, and give its principal line.

`solve_position(state, ...)` uses the solver its game declares
(`registry.register_game(..., solver=...)`) and the generic `search.solve`
otherwise, and passes each option only to a solver that takes it
(`solver_info`):

- `limits` (or `time=` seconds): the solver gives up when its budget runs
  out (`SearchStopped`);
- `outcome`: win, draw or loss only; a solver without it solves exactly
  and the value is reduced to its sign;
- `window=(alpha, beta)`: a solver without it answers exactly (an exact
  value is a right answer to any window);
- `line`: a solver that takes it fills `SolveResult.line` itself; for one
  that does not, `line_by_solving` finds the line by solving the position
  after each move of it (a real line of optimal play, at the price of
  those solves).

The generic solver takes all four.

A solver is an object made for one game, and its table outlives each of its
solves.  Each `solve_position` call makes a fresh one; with `reuse=True`
(split solving's tasks: many solves of one game in each worker) one object
per game is kept in the process (for the generic solver: one transposition
table per game).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..budget import Budget, Limits, given_limits
from ..errors import OptionError
from ..options import MAX_THREADS, check_whole
from ..registry import game_entry
from ..search import solve as generic_solve
from ..search.tt import TranspositionTable
from ..solution import EXACT, SolveResult, line_by_solving
from .shared import SHARED_TABLE, solving_helpers

if TYPE_CHECKING:
    from ..game import Game, State

#: A solver: `solve(state, all_moves=False, **options) -> SolveResult`.
SolverFn = Callable[..., SolveResult]

#: This process's solvers kept between solves (`reuse`), one per game.
_KEPT: dict[Game[Any], Any] = {}
#: Entries of the generic solver's table kept between solves (as one solve's default).
GENERIC_TABLE = 1 << 18
#: Most entries of a shared table (32 or 49 bytes each).
MAX_SHARED_TABLE = 1 << 28


class GenericSolver:
    """The generic solver (`search.solve`) with one transposition table kept
    between solves."""

    def __init__(self, game: Game[Any]) -> None:
        self.table = TranspositionTable(GENERIC_TABLE)

    def share(self, entries: int) -> None:
        """Keep the table in shared memory (for forked helpers) from now on."""
        self.table = TranspositionTable(entries, shared=True)

    def solve(self, state: State[Any], **options: Any) -> SolveResult:
        """Solve `state` with the generic solver, keeping the table between calls."""
        return generic_solve(state, table=self.table, **options)


def solver_for(game: Game[Any], reuse: bool = False) -> Any:
    """A solver object for `game`: its own, else the generic one; with `reuse`,
    the one this process keeps for the game (made on first use)."""
    kept = _KEPT.get(game) if reuse else None
    if kept is not None:
        return kept
    factory = game_entry(game.name).part("solver") or GenericSolver
    solver = factory(game)
    if reuse:
        _KEPT[game] = solver
    return solver


@dataclass(frozen=True)
class SolverInfo:
    """A game's solver and the options it takes."""

    function: SolverFn
    own: bool  #: the game's own solver (else the generic one)
    limits: bool
    outcome: bool
    window: bool
    line: bool
    session: bool = False  #: an object kept between solves (`reuse`)


def solver_info(game: Game[Any], reuse: bool = False) -> SolverInfo:
    """The solver `solve_position` uses for `game` (see `reuse` there), and what
    it accepts.  Without `reuse` its function makes a fresh solver for each
    call, for the game of the state it is given."""
    factory = game_entry(game.name).part("solver")
    if factory is None and not reuse:
        return SolverInfo(generic_solve, False, True, True, True, True)
    solve = solver_for(game, reuse=True).solve if reuse else functools.partial(_fresh, factory)
    if factory is None:
        return SolverInfo(solve, False, True, True, True, True, True)
    method = factory.solve
    return SolverInfo(
        solve,
        True,
        _accepts(method, "limits"),
        _accepts(method, "outcome"),
        _accepts(method, "window"),
        _accepts(method, "line"),
        reuse,
    )


def _fresh(factory: Any, state: State[Any], **options: Any) -> SolveResult:
    """Solve `state` with a new solver of its game (a table of its own)."""
    result: SolveResult = factory(state.game).solve(state, **options)
    return result


def _accepts(function: Any, name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    return name in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def solve_position(
    state: State[Any],
    limits: Limits | None = None,
    *,
    time: float | None = None,
    all_moves: bool = False,
    outcome: bool = False,
    line: bool = False,
    window: tuple[float, float] | None = None,
    reuse: bool = False,
    threads: int = 1,
    table: int = SHARED_TABLE,
) -> SolveResult:
    """Solve `state` (left unchanged) with its game's solver: see the module
    docstring for the options and for `reuse`.  `value` is from the side to move; with
    `outcome` it is the sign of the margin.  With `line`, `result.line` is a
    principal line whenever the result is exact.  Raises `SearchStopped`
    ("solve gave up after S s (N nodes)") when the `limits` (or `time=`
    seconds) run out.

    `threads` above 1 solves with that many processes sharing one table of
    `table` entries (solving/shared.py; not with `reuse`): the same answer,
    sooner."""
    check_whole("threads", threads, 1, MAX_THREADS)
    check_whole("table", table, 2, MAX_SHARED_TABLE)
    if threads > 1:
        if reuse:
            raise OptionError("threads: a parallel solve makes its own solver (no reuse)")
        solver = solver_for(state.game)
        solver.share(table)
        info = replace(solver_info(state.game, reuse=True), function=solver.solve)
        helper_options = {"outcome": True} if outcome and info.outcome else {}
        with solving_helpers(solver, state, threads, helper_options, info.limits):
            return _solve(info, state, limits, time, all_moves, outcome, line, window)
    return _solve(solver_info(state.game, reuse), state, limits, time, all_moves, outcome, line,
                  window)


def _solve(
    info: SolverInfo,
    state: State[Any],
    limits: Limits | None,
    time: float | None,
    all_moves: bool,
    outcome: bool,
    line: bool,
    window: tuple[float, float] | None,
) -> SolveResult:
    """`solve_position` with the solver `info` describes."""
    budget = Budget(given_limits(limits, None, time), what="solve")
    options: dict[str, Any] = {"all_moves": all_moves}
    if info.limits:
        options["limits"] = budget.limits
    if outcome and info.outcome:
        options["outcome"] = True
    if window is not None and info.window:
        options["window"] = window
    if line and info.line:
        options["line"] = True
    try:
        result = info.function(state, **options)
        if outcome and not info.outcome and result.bound == EXACT:
            result = replace(result, value=(result.value > 0) - (result.value < 0))
        if line and result.line is None and result.bound == EXACT:
            result.line = line_by_solving(state, result, _child_solver(info), budget)
            result.time = budget.elapsed()  # the line's solves included
    except TimeoutError as exc:  # every solver gives up in the documented words
        raise budget.gave_up(getattr(exc, "nodes", None)) from None
    return result


def _child_solver(info: SolverInfo) -> Callable[[State[Any], Limits | None], SolveResult]:
    def solve(state: State[Any], left: Limits | None) -> SolveResult:
        if left is not None and info.limits:
            return info.function(state, limits=left)
        return info.function(state)

    return solve
