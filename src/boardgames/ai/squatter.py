"""Squatter AIs: the two seed players and the library's default.

- `seed001`: alpha-beta to a fixed depth with seed 001's linear evaluator,
  scored from its own colour as the original did, a TT keyed by symmetric
  hashes and no dynamic move ordering (the original had none);
- `seed003`: alpha-beta with seed 003's evaluator, its move order (cells
  next to stones first, border and corners last) and its depth schedule
  (deeper as the board fills, the whole remaining game near the end);
- `default`: NegaScout with the `Territory` evaluator, iterative deepening
  to the time limit, TT over the 8 board symmetries, killers and history.

Every search limit (depth, time, nodes) works as for the generic AIs; a
per-move time limit from a match always caps the search.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game import Game
from ..games.squatter import SquatterState
from ..games.squatter.experts import Seed001, Seed003, Territory, seed003_order
from ..options import DEPTH, LIMITS, LMR, NODES, ORDER, SEED, TIME, TT, Limits, Option, Stop
from ..players import Player, SearchPlayer
from ..search import Searcher
from . import register_ai


def depth_schedule(state: SquatterState, *, start: int = 4, end: int = 10, exact: int = 11) -> int:
    """Seed 003's depth schedule: `start` on an empty board, rising linearly
    with the filled share of the board to `end`, and the whole remaining game
    once `exact` or fewer free cells are left."""
    free = state.free.bit_count()
    if free <= exact:
        return max(free, 1)
    filled = 1.0 - free / state.game.geometry.cells
    return max(1, min(free, round(start + (end - start) * filled)))


class ScheduledSearchPlayer(SearchPlayer):
    """The seed players' search player: its evaluator scores from the
    player's own colour (as the seeds' minimax did) and its depth may follow
    a schedule (seed 003's `depth_schedule`) instead of a fixed depth."""

    def __init__(
        self,
        engine: Searcher,
        evaluator: Seed001 | Seed003,
        *,
        schedule: Callable[[SquatterState], int] | None = None,
        limits: Limits | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(engine, limits=limits, name=name)
        self.evaluator = evaluator
        self.schedule = schedule

    def choose(
        self, state: SquatterState, time_limit: float | None = None, stop: Stop | None = None
    ) -> int:
        if self.evaluator.perspective != state.to_move:
            # The cached values were scored for the other colour.
            self.evaluator.perspective = state.to_move
            self.engine.clear()
        if self.schedule is not None:
            self.depth = self.schedule(state)
        return super().choose(state, time_limit, stop)


def _weights(evaluator: type) -> tuple[Option, ...]:
    """Each weight of an evaluator class as an option (any finite number)."""
    return tuple(
        Option(name, "number", weight, f"{evaluator.__name__} weight")
        for name, weight in evaluator().weights.items()
    )


@register_ai(
    "seed001",
    game="squatter",
    help="seed 001: fixed-depth alpha-beta, linear evaluator",
    options=(DEPTH.with_default(3), TIME, NODES, SEED, *_weights(Seed001)),
)
def seed001_ai(
    game: Game,
    *,
    limits: Limits,
    seed: int | None,
    **weights: float,
) -> Player:
    """Seed 001: alpha-beta to `depth` (3) with its 4-feature linear evaluator."""
    evaluator = Seed001(perspective=None, **weights)
    engine = Searcher(evaluator, algorithm="alphabeta", killers=False, history=False, seed=seed)
    return ScheduledSearchPlayer(
        engine, evaluator, limits=limits, name="seed001"
    )


@register_ai(
    "seed003",
    game="squatter",
    help="seed 003: alpha-beta, move order, depth schedule",
    options=(
        *LIMITS,
        SEED,
        Option("start", "whole", 4, "scheduled depth on an empty board", low=1, high=100),
        Option("end", "whole", 10, "scheduled depth on a full board", low=1, high=100),
        Option("exact", "whole", 11, "free cells from which to search to the end", low=0),
        ORDER.with_default(True),
        *_weights(Seed003),
    ),
)
def seed003_ai(
    game: Game,
    *,
    limits: Limits,
    seed: int | None,
    start: int,
    end: int,
    exact: int,
    order: bool,
    **weights: float,
) -> Player:
    """Seed 003: alpha-beta with its evaluator, move order and depth schedule.

    `depth` fixes the depth instead of the schedule (start..end, exact).
    """
    evaluator = Seed003(perspective=None, **weights)
    engine = Searcher(
        evaluator,
        algorithm="alphabeta",
        killers=False,
        history=False,
        order=seed003_order if order else None,
        seed=seed,
    )

    def schedule(state: SquatterState) -> int:
        return depth_schedule(state, start=start, end=end, exact=exact)

    return ScheduledSearchPlayer(
        engine,
        evaluator,
        schedule=None if limits.depth is not None else schedule,
        limits=limits,
        name="seed003",
    )


@register_ai(
    "default",
    game="squatter",
    help="negascout + Territory evaluator (strongest)",
    options=(*LIMITS, SEED, TT.with_default(1 << 18), ORDER, LMR, *_weights(Territory)),
)
def default_ai(
    game: Game,
    *,
    limits: Limits,
    seed: int | None,
    tt: int,
    order: bool,
    lmr: bool,
    **weights: float,
) -> Player:
    """NegaScout with iterative deepening and the Territory evaluator.

    `lmr` turns on late move reductions."""
    engine = Searcher(
        Territory(**weights),
        algorithm="negascout",
        tt_size=tt,
        order=seed003_order if order else None,
        seed=seed,
        reductions=lmr,
    )
    return SearchPlayer(engine, limits=limits, name="default")
