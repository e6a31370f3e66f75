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

from typing import Any

from ..game import Game, OptionError, State
from ..games.squatter.experts import Seed001, Seed003, Territory, seed003_order
from ..options import check_flag, check_limits, check_real, check_seed, check_whole
from ..players import Player, SearchPlayer
from ..search import Searcher
from . import register_ai


def depth_schedule(state: State, *, start: int = 4, end: int = 10, exact: int = 11) -> int:
    """Seed 003's depth schedule: `start` on an empty board, rising linearly
    with the filled share of the board to `end`, and the whole remaining game
    once `exact` or fewer free cells are left."""
    free = state.free.bit_count()
    if free <= exact:
        return max(free, 1)
    filled = 1.0 - free / state.game.geometry.cells
    return max(1, min(free, round(start + (end - start) * filled)))


class SeedPlayer(SearchPlayer):
    """A search player whose evaluator scores from its own colour and whose
    depth may follow a schedule."""

    def __init__(
        self,
        engine: Searcher,
        evaluator: Seed001 | Seed003,
        *,
        schedule: Any = None,
        depth: int | None = None,
        time: float | None = None,
        nodes: int | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(engine, depth=depth, time=time, nodes=nodes, name=name)
        self.evaluator = evaluator
        self.schedule = schedule

    def choose(self, state: State, time_limit: float | None = None) -> int:
        if self.evaluator.perspective != state.to_move:
            # The cached values were scored for the other colour.
            self.evaluator.perspective = state.to_move
            self.engine.clear()
        if self.schedule is not None:
            self.depth = self.schedule(state)
        return super().choose(state, time_limit)


@register_ai("seed001", game="squatter", help="seed 001: fixed-depth alpha-beta, linear evaluator")
def seed001_ai(
    game: Game,
    *,
    depth: Any = 3,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    **weights: Any,
) -> Player:
    """Seed 001: alpha-beta to `depth` (3) with its 4-feature linear evaluator."""
    check_limits(depth, time, nodes)
    evaluator = _build(Seed001, weights)
    engine = Searcher(
        evaluator, algorithm="alphabeta", killers=False, history=False, seed=check_seed(seed)
    )
    return SeedPlayer(engine, evaluator, depth=depth, time=time, nodes=nodes, name="seed001")


@register_ai("seed003", game="squatter", help="seed 003: alpha-beta, move order, depth schedule")
def seed003_ai(
    game: Game,
    *,
    depth: Any = None,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    start: Any = 4,
    end: Any = 10,
    exact: Any = 11,
    order: Any = True,
    **weights: Any,
) -> Player:
    """Seed 003: alpha-beta with its evaluator, move order and depth schedule.

    `depth` fixes the depth instead of the schedule (start..end, exact).
    """
    check_limits(depth, time, nodes)
    start, end = check_whole("start", start), check_whole("end", end)
    exact = check_whole("exact", exact, 0)
    evaluator = _build(Seed003, weights)
    engine = Searcher(
        evaluator,
        algorithm="alphabeta",
        killers=False,
        history=False,
        order=seed003_order if check_flag("order", order) else None,
        seed=check_seed(seed),
    )

    def schedule(state: State) -> int:
        return depth_schedule(state, start=start, end=end, exact=exact)

    return SeedPlayer(
        engine,
        evaluator,
        schedule=None if depth is not None else schedule,
        depth=depth,
        time=time,
        nodes=nodes,
        name="seed003",
    )


@register_ai("default", game="squatter", help="negascout + Territory evaluator (strongest)")
def default_ai(
    game: Game,
    *,
    depth: Any = None,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    tt: Any = 1 << 18,
    order: Any = False,
    lmr: Any = False,
    **weights: Any,
) -> Player:
    """NegaScout with iterative deepening and the Territory evaluator.

    `lmr` turns on late move reductions."""
    check_limits(depth, time, nodes)
    evaluator = _build(Territory, weights)
    engine = Searcher(
        evaluator,
        algorithm="negascout",
        tt_size=check_whole("tt", tt, 0),
        order=seed003_order if check_flag("order", order) else None,
        seed=check_seed(seed),
        reductions=check_flag("lmr", lmr),
    )
    return SearchPlayer(engine, depth=depth, time=time, nodes=nodes, name="default")


def _build(factory: Any, weights: dict[str, Any]) -> Any:
    known = factory().weights
    unknown = sorted(set(weights) - set(known))
    if unknown:
        raise OptionError(
            f"unknown option(s) {', '.join(unknown)} for {factory.__name__}; "
            f"weights: {', '.join(known)}; search options: depth, time, nodes, seed"
        )
    return factory(**{name: check_real(name, value) for name, value in weights.items()})
