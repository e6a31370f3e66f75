"""Solve a position with the best solver its game has, and give its principal line.

`solve_position(state, ...)` uses the game's own solver when it registers
one (`register_solver`) and the generic `search.solve` otherwise, and
passes each option only to a solver that takes it (`solver_info`):

- `time`: the solver gives up after so many seconds (`SearchStopped`);
- `outcome`: win, draw or loss only; a solver without it solves exactly
  and the value is reduced to its sign;
- `window=(alpha, beta)`: a solver without it answers exactly (an exact
  value is a right answer to any window);
- `line`: a solver that takes it fills `SolveResult.line` itself; for one
  that does not, `line_by_solving` finds the line by solving the position
  after each move of it (a real line of optimal play, at the price of
  those solves).

The generic solver takes all four.

With `reuse=True` (split solving's tasks: many solves of one game in each
worker) a solver object is kept in the process and its table outlives each
solve: a game's *session* (`register_session(game, factory)`, e.g. a solver
class that keeps its table between calls), else, for a game without its
own solver, the generic solver with one transposition table per game.
"""

from __future__ import annotations

import inspect
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..errors import SearchStopped
from ..search import solve as generic_solve
from ..search.tt import TranspositionTable
from ..solution import EXACT, SolveResult
from . import solver_for

if TYPE_CHECKING:
    from ..game import Game, State

#: A solver: `solve(state, all_moves=False, **options) -> SolveResult`.
SolverFn = Callable[..., SolveResult]


#: Game name -> factory(game) of a solver object kept between solves (a session).
_SESSION_FACTORIES: dict[str, Callable[[Game], Any]] = {}
#: This process's sessions, one per game.
_SESSIONS: dict[Game, Any] = {}
#: Entries of the generic solver's table kept between solves (as one solve's default).
GENERIC_TABLE = 1 << 18


def register_session(game_name: str, factory: Callable[[Game], Any]) -> None:
    """Register a game's solver as an object kept between solves in one process:
    `factory(game)` returns an object whose `solve(state, all_moves=False,
    **options)` returns a `SolveResult` and keeps its table from one call to
    the next (the options it takes are found as for a solver function)."""
    _SESSION_FACTORIES[game_name] = factory
    for game in [g for g in _SESSIONS if g.name == game_name]:
        del _SESSIONS[game]


class GenericSession:
    """The generic solver with one transposition table kept between solves."""

    def __init__(self, game: Game) -> None:
        self.table = TranspositionTable(GENERIC_TABLE)

    def solve(self, state: State[Any], **options: Any) -> SolveResult:
        return generic_solve(state, table=self.table, **options)


def session_for(game: Game) -> Any | None:
    """This process's session for `game` (made on first use), or None when the
    game has its own solver but no session."""
    session = _SESSIONS.get(game)
    if session is None:
        factory = _SESSION_FACTORIES.get(game.name)
        if factory is None:
            if solver_for(game) is not None:
                return None
            factory = GenericSession
        session = _SESSIONS[game] = factory(game)
    return session


@dataclass(frozen=True)
class SolverInfo:
    """A game's solver and the options it takes."""

    function: SolverFn
    own: bool  #: the game's own solver (else the generic one)
    time: bool
    outcome: bool
    window: bool
    line: bool
    session: bool = False  #: an object kept between solves (`reuse`)


def solver_info(game: Game, reuse: bool = False) -> SolverInfo:
    """The solver `solve_position` uses for `game` (see `reuse` there), and what
    it accepts."""
    own = solver_for(game)
    session = session_for(game) if reuse else None
    if session is not None:
        if isinstance(session, GenericSession):
            return SolverInfo(session.solve, False, True, True, True, True, True)
        own = session.solve
    if own is None:
        return SolverInfo(generic_solve, False, True, True, True, True)
    return SolverInfo(
        own,
        True,
        _accepts(own, "time"),
        _accepts(own, "outcome"),
        _accepts(own, "window"),
        _accepts(own, "line"),
        session is not None,
    )


def _accepts(function: Any, name: str) -> bool:
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
    return name in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


def solve_position(
    state: State[Any],
    *,
    all_moves: bool = False,
    time: float | None = None,
    outcome: bool = False,
    line: bool = False,
    window: tuple[float, float] | None = None,
    reuse: bool = False,
) -> SolveResult:
    """Solve `state` (left unchanged) with its game's solver: see the module
    docstring for the options and for `reuse`.  `value` is from the side to move; with
    `outcome` it is the sign of the margin.  With `line`, `result.line` is a
    principal line whenever the result is exact.  Raises `SearchStopped`
    ("solve gave up after S s (N nodes)") when `time` runs out."""
    info = solver_info(state.game, reuse)
    started = _time.perf_counter()
    deadline = None if time is None else started + time
    options: dict[str, Any] = {"all_moves": all_moves}
    if time is not None and info.time:
        options["time"] = time
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
            result.line = line_by_solving(state, result, _child_solver(info), deadline)
            result.time = _time.perf_counter() - started  # the line's solves included
    except TimeoutError as exc:  # every solver gives up in the documented words
        raise SearchStopped.gave_up(
            _time.perf_counter() - started, getattr(exc, "nodes", None)
        ) from None
    return result


def _child_solver(info: SolverInfo) -> Callable[[State[Any], float | None], SolveResult]:
    def solve(state: State[Any], left: float | None) -> SolveResult:
        if left is not None and info.time:
            return info.function(state, time=max(left, 0.001))
        return info.function(state)

    return solve


def line_by_solving(
    state: State[Any],
    solved: SolveResult,
    solve: Callable[[State[Any], float | None], SolveResult],
    deadline: float | None = None,
) -> list[int] | None:
    """A principal line from `state`, whose exact solve is `solved`: the first
    move is `solved.best[0]`, each later one the best move of a solve of the
    position reached (`solve(state, seconds_left)`).  Where a solver names no
    best move (a lost position of an unscored game: every move loses) the
    first legal move is played.  None if a solver names no move elsewhere."""
    work = state.copy()
    line: list[int] = []
    result = solved
    scored = state.game.scored
    while not work.is_over():
        if result.best:
            move = result.best[0]
        elif not scored and result.value < 0:
            move = work.legal_moves()[0]  # lost whatever is played
        else:
            return None
        work.make(move)
        line.append(move)
        if work.is_over():
            break
        left = None if deadline is None else deadline - _time.perf_counter()
        if left is not None and left <= 0:
            raise SearchStopped("the principal line ran out of time")
        result = solve(work, left)
    return line
