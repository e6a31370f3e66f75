"""Hadron AIs and solver: the tournament's Aenigma setup and the library's default.

- `aenigma`: seed 002 as it played the 2022/23 Calabria tournament: NegaScout
  with iterative deepening inside a per-move budget (0.93 s of the 2 s limit
  by default) and the Aenigma evaluator (specials, parity, two phases, a
  random tie-break in [-1, 1)).  Options: w1_open, w2_open, w1_end, w2_end, t,
  params=FILE (a tuner result or a parameter file), noise, seed.
- `default`: the same search with the `Sums` evaluator (the position as a
  sum of independent regions, the small ones at their exact partizan value,
  the large ones estimated as `Regions` does), plus the exact solver
  (`HadronSolver`) once few legal and live cells remain: a proven win is
  played at once, a proven loss is met with the move that leaves the
  opponent the most ways to go wrong (`hadron_endgame`); otherwise the
  search decides.  `eval=regions` or `eval=aenigma` (with Aenigma's
  options) swaps the evaluator.
- the solver registered for `boardgames solve hadron` (with --all).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...budget import Budget, Limits, gc_paused, pause_gc_for
from ...errors import OptionError, SearchStopped
from ...evaluation import with_noise
from ...game import Game, State
from ...games.hadron.experts import Aenigma, AenigmaParams, aenigma_evaluator
from ...games.hadron.regions import regions_evaluator
from ...games.hadron.rules import HadronState
from ...games.hadron.solver import HadronSolver
from ...games.hadron.sums import SUMS_WEIGHTS, Sums
from ...options import LIMITS, SEED, THREADS, TT, Option, noise
from ...players import Player, SearchPlayer, move_limits
from ...search import Searcher
from ...solution import SolveResult
from ..registry import register_ai
from .endgame import swindle

#: The share of a lost position's remaining time that the swindle may use (the
#: search gets the rest when no move leaves the opponent a losing reply).
SWINDLE_SHARE = 0.7

#: The tournament player's search budget: 0.93 s of the server's 2 s per move.
AENIGMA_TIME = 0.93


def _tt(tt: int | None, game: Game[Any]) -> int:
    """The TT size: given, or scaled to the board (a big table costs ~50 ms to build,
    which dominates the games on tiny boards that the tests and the tuner play)."""
    return tt if tt is not None else 1 << min(18, 10 + game.num_moves // 4)


#: Aenigma's parameters: a file, and each weight (None: the file's or the default).
AENIGMA = (
    Option("params", "path", None, "JSON file of tuned weights (boardgames tune)"),
    *(Option(name, "number", None, "Aenigma parameter", low=0)
      for name in AenigmaParams().to_dict()),
)


def _aenigma(
    noise: float, seed: int | None, params: str | None, weights: dict[str, Any]
) -> Aenigma:
    given = {name: value for name, value in weights.items() if value is not None}
    return aenigma_evaluator(params=params, noise=noise, seed=seed, **given)


@register_ai(
    "aenigma",
    game="hadron",
    help="seed 002 (Aenigma): negascout in 0.93 s, specials + parity; w1_open.., t, params=FILE",
    options=(*LIMITS, SEED, noise(1.0), TT, *AENIGMA),
)
def aenigma_ai(
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    noise: float,
    tt: int | None,
    params: str | None,
    **weights: float | None,
) -> Player[Any]:
    """Aenigma: NegaScout, iterative deepening, 0.93 s per move unless told otherwise."""
    evaluator = _aenigma(noise, seed, params, weights)
    if limits.unlimited:
        limits = Limits(time=AENIGMA_TIME)
    engine = Searcher(evaluator, algorithm="negascout", tt_size=_tt(tt, game), seed=seed)
    return SearchPlayer(engine, limits=limits, name="aenigma")


#: The solver's time per try when the player has no time limit (a depth- or
#: node-limited search).
SOLVE_ALONE = 1.0


class SolvingPlayer(SearchPlayer[Any]):
    """A search player that first tries to solve the position once the board is tight.

    With `solve_at` or fewer legal cells and `solve_live` or fewer live ones
    (empty cells that may still be played) it gives the exact solver a share
    (`solve_share`) of the move's budget, halved after each timeout in a row
    (down to a quarter).  The live cells measure the work of a proof far
    better than the legal ones: on 9 x 9 the solver proves positions
    of 44 live cells in 0.46 s of CPU (with the table of the game's earlier
    tries), whatever their legal cells (15 to 24 in the measured games).  A
    proven win is played at once.  A proven loss is met with
    `hadron_endgame.swindle`: the move that leaves the opponent the smallest
    share of winning replies.  A timeout leaves the choice to the search,
    with the rest of the move's time.  The solver's table lives for one
    game, so later moves reuse earlier proofs (and a proven loss is solved
    again at every move: the opponent may go wrong).  `threads` are the
    search's: the solver runs in one process (a helper solving the root's
    children beside it saves its proofs almost nothing, see
    docs/results/parallel-search.md).
    """

    def __init__(
        self,
        engine: Searcher[Any],
        *,
        solve_at: int = 24,
        solve_live: int = 48,
        solve_share: float = 0.5,
        limits: Limits | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(engine, limits=limits, name=name)
        self.solve_at = solve_at
        self.solve_live = solve_live
        self.solve_share = solve_share
        self.solver: HadronSolver | None = None
        #: The solver's timeouts in a row this game (each halves its next share).
        self.misses = 0

    def choose(self, state: State[Any], limits: Limits | None = None) -> int:
        """The solver's move when it proves the position in its share of the
        budget, else the search's; `state` is left unchanged."""
        # No limit at all: the solver may take SOLVE_ALONE, the search DEFAULT_TIME.
        budget = Budget(move_limits(self.limits, limits))
        if (
            isinstance(state, HadronState)
            and state.legal.bit_count() <= self.solve_at
            and state.live.bit_count() <= self.solve_live
            and not budget.stopped()
        ):
            # The collector stays off as in a timed search: a full collection
            # inside the move (the solver's and evaluators' tables are large)
            # would cost the time discipline dearly on a loaded machine.
            with gc_paused(pause_gc_for(budget.time)):
                move = self._endgame(state, budget.with_default_time(SOLVE_ALONE))
            if move is not None:
                return move
        return self.search_move(state, budget.remaining(floor=0.01))

    def _endgame(self, state: HadronState, budget: Budget) -> int | None:
        """The solver's move (a proven win, or the best swindle of a proven
        loss), or None when the search should choose."""
        if self.solver is None or self.solver.game is not state.game:
            self.solver = HadronSolver(state.game, max_entries=2_000_000)
        # Each timeout in a row halves the next try's share (down to a quarter):
        # the table keeps what a try proved, so the solver still gains ground,
        # and the search keeps its time while the position is beyond the
        # solver's reach (most of all on a slow or loaded machine).
        share = self.solve_share / (1 << min(self.misses, 2))
        try:
            solution: SolveResult = self.solver.solve(state, budget.part(share).remaining())
        except SearchStopped:
            self.misses += 1
            return None
        self.misses = 0
        self.last_result = None
        if solution.value > 0:
            return solution.best[0]
        move, left = swindle(self.solver, state, budget.share(SWINDLE_SHARE))
        return move if left < 1.0 else None

    def reset(self) -> None:
        """Forget the last game: the search's tables, the solver and its misses."""
        super().reset()
        self.solver = None
        self.misses = 0


@register_ai(
    "default",
    game="hadron",
    help="negascout with the Sums evaluator and the exact solver from 48 live cells",
    options=(
        *LIMITS,
        SEED,
        noise(0.0),
        TT,
        THREADS,
        Option("solve_at", "whole", 24, "legal cells from which the solver is tried", low=0),
        Option("solve_live", "whole", 48, "live cells from which the solver is tried", low=0),
        Option("solve_share", "number", 0.5, "share of the move's time for the solver",
               low=0.01, high=1),
        Option("eval", "choice", "sums", "evaluator", choices=("sums", "regions", "aenigma")),
        *AENIGMA,
        *SUMS_WEIGHTS.options(),
    ),
)
def default_ai(
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    noise: float,
    tt: int | None,
    threads: int,
    solve_at: int,
    solve_live: int,
    solve_share: float,
    eval: str,
    params: str | None,
    **weights: float | None,
) -> Player[Any]:
    """NegaScout with a noise-free evaluator and an endgame solver.  `params`
    and the weights are Aenigma's with eval=aenigma, Sums' (unit, up) with
    eval=sums; regions takes neither."""
    evaluator: Callable[[HadronState], float]
    sums = {name: weights.pop(name) for name in SUMS_WEIGHTS.names}
    given = [name for name, value in weights.items() if value is not None]
    if eval == "aenigma":
        if any(value is not None for value in sums.values()):
            raise OptionError("unit and up are the sums evaluator's weights (use eval=sums)")
        evaluator = _aenigma(noise, seed, params, weights)
    elif eval == "sums":
        if given:
            raise OptionError(
                f"{', '.join(given)}: Aenigma parameters (use eval=aenigma); the sums"
                " evaluator's weights are unit and up"
            )
        chosen = SUMS_WEIGHTS.resolve(params, sums)
        reading = Sums(unit=chosen["unit"], up=chosen["up"])
        evaluator = with_noise(reading, noise, seed)
    elif params is not None or given or any(v is not None for v in sums.values()):
        raise OptionError(f"the {eval} evaluator takes no parameters (use eval=sums or aenigma)")
    else:
        evaluator = with_noise(regions_evaluator(), noise, seed)
    engine = Searcher(
        evaluator, algorithm="negascout", tt_size=_tt(tt, game), seed=seed, threads=threads
    )
    return SolvingPlayer(
        engine, solve_at=solve_at, solve_live=solve_live, solve_share=solve_share, limits=limits,
        name="default",
    )
