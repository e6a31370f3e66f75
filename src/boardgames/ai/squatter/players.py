"""Squatter AIs: the two seed players and the library's default.

- `seed001`: the original's search (`.seed001`): fail-hard max/min
  alpha-beta to 6 plies in row-major order of the free cells and its
  linear evaluator scored from its own colour, with the program's side
  weight of 0; the symmetry check of the seed text (skip boards, or
  rotations of boards, explored before) only with `skip=true`, as the
  original's final code had it switched off;
- `seed003`: alpha-beta with seed 003's evaluator, its move order (cells
  next to stones first, border and corners last) and its depth schedule
  (deeper as the board fills, the whole remaining game near the end);
- `default` (`.default.SquatterPlayer`): the opening book, the exact
  solver once few live cells are left, otherwise NegaScout with the
  `Territory` evaluator, iterative deepening to the time limit, TT over the
  8 board symmetries, killers and history.

Every search limit (depth, time, nodes) works as for the generic AIs; a
per-move time limit from a match caps the search, but for
`seed001:faithful=true`, which always searches to its depth.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ...budget import Budget, Limits
from ...errors import SearchStopped
from ...game import Game
from ...games.squatter import SquatterState
from ...games.squatter.experts import (
    TERRITORY_WEIGHTS,
    Seed001,
    Seed003,
    seed003_order,
    territory,
)
from ...options import DEPTH, LIMITS, LMR, NODES, ORDER, SEED, THREADS, TIME, TT, Option
from ...players import Player, SearchPlayer, move_limits, no_legal_move
from ...search import Searcher, SearchResult
from ...weights import PARAMS
from ..registry import register_ai
from .default import SquatterPlayer
from .seed001 import Seed001Search


def depth_schedule(state: SquatterState, *, start: int = 4, end: int = 10, exact: int = 11) -> int:
    """Seed 003's depth schedule: `start` on an empty board, rising linearly
    with the filled share of the board to `end`, and the whole remaining game
    once `exact` or fewer free cells are left."""
    free = state.free.bit_count()
    if free <= exact:
        return max(free, 1)
    filled = 1.0 - free / state.game.geometry.cells
    return max(1, min(free, round(start + (end - start) * filled)))


class ScheduledSearchPlayer(SearchPlayer[Any]):
    """The seed players' search player: its evaluator scores from the
    player's own colour (as the seeds' minimax did) and its depth may follow
    a schedule (seed 003's `depth_schedule`) instead of a fixed depth."""

    def __init__(
        self,
        engine: Searcher[Any],
        evaluator: Seed001 | Seed003,
        *,
        schedule: Callable[[SquatterState], int] | None = None,
        limits: Limits | None = None,
        name: str | None = None,
    ) -> None:
        super().__init__(engine, limits=limits, name=name)
        self.evaluator = evaluator
        self.schedule = schedule

    def choose(self, state: SquatterState, limits: Limits | None = None) -> int:
        """The search's move, scored for the side to move, at the depth the
        schedule gives for `state`."""
        if self.evaluator.perspective != state.to_move:
            # The cached values were scored for the other colour.
            self.evaluator.perspective = state.to_move
            self.engine.clear()
        if self.schedule is not None:
            self.depth = self.schedule(state)
        return super().choose(state, limits)


def _weights(evaluator: type, **defaults: float) -> tuple[Option, ...]:
    """Each weight of an evaluator class as an option (any finite number),
    with its default from `defaults` where given."""
    return tuple(
        Option(name, "number", defaults.get(name, weight), f"{evaluator.__name__} weight")
        for name, weight in evaluator().weights.items()
    )


#: The original program's side-stone weight.  The seed text gives 10
#: (`experts.Seed001`'s default), but the program's code sets the weight
#: to 0, so seed 001 plays with 0; `seed001:side=10` is the text's player.
SEED001_SIDE = 0.0


class Seed001Player(Player[Any]):
    """Seed 001 as the original ran it: one fixed-depth search per move.

    Under a time limit (its own `time`, or a match's per-move limit) it
    deepens one ply at a time and plays the move of the deepest search
    that finished (each depth is a whole search of the original's, with
    its own explored set); with `faithful` it ignores every time limit and
    always searches to `depth`, however long that takes, so a referee does
    not time it (`timed` is False) and its moves are the same every time.
    """

    def __init__(
        self,
        evaluator: Seed001,
        *,
        depth: int,
        limits: Limits,
        skip: bool = False,
        faithful: bool = False,
    ) -> None:
        super().__init__("seed001")
        self.search = Seed001Search(evaluator.terms, skip=skip)
        self.depth = depth
        self.limits = limits
        self.faithful = faithful
        self.timed = not faithful

    def choose(self, state: SquatterState, limits: Limits | None = None) -> int:
        """The seed's move: its search deepened one ply at a time within the
        limits; `state` is left unchanged.

        Raises:
            GameOverError: no cell is free."""
        if not state.free:
            raise no_legal_move(state)
        state = state.copy()
        own = move_limits(self.limits, limits)
        budget = Budget(replace(own, time=None) if self.faithful else own)
        if budget.time is None and own.nodes is None:
            depths = [self.depth]
        else:
            depths = list(range(1, self.depth + 1))
        move, value, reached, used = state.legal_moves()[0], 0.0, 0, 0
        for depth in depths:
            left = None if own.nodes is None else own.nodes - used
            if left is not None and left <= 0:
                break
            try:
                move, value = self.search.choose(state, depth, replace(
                    budget.remaining(), nodes=left))
            except SearchStopped:
                break
            finally:
                used += self.search.nodes
            reached = depth
        self.last_result = SearchResult(
            move, value, [move], reached, used, budget.elapsed(),
            completed=reached == self.depth, algorithm="seed001",
        )
        return move


@register_ai(
    "seed001",
    game="squatter",
    help="seed 001: the original's alpha-beta (6 plies, board order, side weight 0; "
    "skip=true: symmetry skips)",
    options=(
        DEPTH.with_default(6),
        TIME,
        NODES,
        SEED,
        Option("skip", "flag", False, "skip boards (or rotations) explored before (the seed text)"),
        Option("faithful", "flag", False,
               "always search to depth, ignoring time limits (untimed in matches)"),
        *_weights(Seed001, side=SEED001_SIDE),
    ),
)
def seed001_ai(
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    skip: bool,
    faithful: bool,
    **weights: float,
) -> Player[Any]:
    """Seed 001: the original's search to `depth` plies with its 4-feature
    evaluator, its side-stone weight the program's 0 (`SEED001_SIDE`).

    `seed` is accepted for uniformity: the original has no random choice.
    """
    depth = limits.depth if limits.depth is not None else 6
    return Seed001Player(
        Seed001(perspective=None, **weights),
        depth=depth,
        limits=limits,
        skip=skip,
        faithful=faithful,
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
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    start: int,
    end: int,
    exact: int,
    order: bool,
    **weights: float,
) -> Player[Any]:
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
    help="book, exact endgame, negascout + Territory evaluator (strongest)",
    options=(
        *LIMITS,
        SEED,
        TT.with_default(1 << 18),
        ORDER,
        LMR,
        THREADS,
        Option("book", "flag", True, "play the opening book's moves"),
        Option("solve_at", "whole", 20, "live free cells from which to solve exactly", low=0),
        Option("solve_share", "number", 0.6, "share of the move's time for the solver",
               low=0.01, high=1),
        Option("traps", "whole", 16, "live free cells from which to set traps in a draw", low=0),
        PARAMS,
        *TERRITORY_WEIGHTS.options(),
    ),
)
def default_ai(
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    tt: int,
    order: bool,
    lmr: bool,
    threads: int,
    book: bool,
    solve_at: int,
    solve_share: float,
    traps: int,
    params: str | None,
    **weights: float,
) -> Player[Any]:
    """The book, the exact endgame solver, then NegaScout with the Territory
    evaluator (`SquatterPlayer`): its weights from the params file `params`,
    then the options given.  `lmr` turns on late move reductions."""
    engine = Searcher(
        territory(params, **weights),
        algorithm="negascout",
        tt_size=tt,
        order=seed003_order if order else None,
        seed=seed,
        reductions=lmr,
        threads=threads,
    )
    return SquatterPlayer(
        engine,
        solve_at=solve_at,
        solve_share=solve_share,
        traps=traps,
        book=book,
        limits=limits,
        name="default",
    )
