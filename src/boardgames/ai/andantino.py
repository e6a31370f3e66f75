"""Andantino AIs: the seed player (seed 000) and the library's default.

- `seed`: seed 000's bot as its report describes it: NegaScout with
  iterative deepening and a Zobrist transposition table (2 x 271 keys on the
  tile index, no symmetry), evaluating with BridgeExpert plus RandomExpert.
  It had no killer or history ordering.  Options: noise (RandomExpert
  scale, default 0.5), bridge (weight), tt, seed.
- `default`: NegaScout with the 12-fold symmetric transposition table,
  killers, history, a static order that tries winning and blocking cells
  first, and the ThreatEvaluator (lines, enclosure threats, bridges,
  mobility), which follows up to `forced` (default 2) forced blocks at the
  leaves.  With `groups` (on by default) the winning and blocking cells
  include cells that enclose whole groups, not just lone stones; `chase`
  (off: measured no better) follows renewed threats after a forced block.
  Options: noise, tt, seed, forced, groups, chase and any ThreatEvaluator
  weight (four, three, two, surround5, surround4, surround3, bridge,
  mobility, danger, tempo).

Both search 1 s per move when given no limit.
"""

from __future__ import annotations

from dataclasses import replace
from time import perf_counter
from typing import cast

from ..evaluation import with_noise
from ..game import Game
from ..games.andantino.experts import (
    DEFAULT_WEIGHTS,
    ThreatEvaluator,
    order_moves,
    order_moves_groups,
    seed_evaluator,
)
from ..games.andantino.ladders import Ladders
from ..games.andantino.rules import AndantinoState
from ..options import LIMITS, SEED, TT, Limits, Option, Stop, noise
from ..players import DEFAULT_TIME, Player, SearchPlayer
from ..search import WIN, Searcher, SearchResult
from . import register_ai

#: The seed's table was small; 2^16 entries keeps its spirit without its
#: 272-slot collisions.
SEED_TT = 1 << 16
DEFAULT_TT = 1 << 18


def _limits(limits: Limits) -> Limits:
    """The limits as given, or the library's DEFAULT_TIME per move when none is
    (kept as the player's own time, so a longer server limit does not stretch it)."""
    return Limits(time=DEFAULT_TIME) if limits.unlimited else limits


@register_ai(
    "seed",
    game="andantino",
    help="seed 000: negascout + iterative deepening + TT, BridgeExpert + RandomExpert",
    options=(*LIMITS, SEED, noise(0.5), Option("bridge", "number", 1.0, "BridgeExpert weight",
                                               low=0), TT),
)
def seed_ai(
    game: Game,
    *,
    limits: Limits,
    seed: int | None,
    noise: float,
    bridge: float,
    tt: int | None,
) -> Player:
    """The seed's NegaScout bot with BridgeExpert and RandomExpert."""
    engine = Searcher(
        seed_evaluator(noise, seed, bridge),
        algorithm="negascout",
        tt_size=SEED_TT if tt is None else tt,
        symmetry=False,
        killers=False,
        history=False,
        seed=seed,
    )
    return SearchPlayer(engine, limits=_limits(limits), name="seed")


@register_ai(
    "default",
    game="andantino",
    help="negascout, symmetric TT, win/block ordering, threat evaluator (lines, enclosures)",
    options=(
        *LIMITS,
        SEED,
        noise(0.0),
        TT,
        Option("forced", "whole", 2, "forced blocks followed at the leaves", low=0, high=50),
        Option("groups", "flag", True, "see cells that enclose whole groups (wins, blocks)"),
        Option("chase", "flag", False, "after a forced block, follow renewed threats (ladders)"),
        Option("ladders", "whole", 7, "threat-space search at the root, in attacker moves (0: off)",
               low=0, high=30),
        *(Option(name, "number", weight, "ThreatEvaluator weight", low=0)
          for name, weight in DEFAULT_WEIGHTS.items()),
    ),
)
def default_ai(
    game: Game,
    *,
    limits: Limits,
    seed: int | None,
    noise: float,
    tt: int | None,
    forced: int,
    groups: bool,
    chase: bool,
    ladders: int,
    **weights: float,
) -> Player:
    """The library's strongest Andantino player."""
    evaluator = with_noise(ThreatEvaluator(forced, groups, chase, **weights), noise, seed)
    engine = Searcher(
        evaluator,
        algorithm="negascout",
        tt_size=DEFAULT_TT if tt is None else tt,
        order=order_moves_groups if groups else order_moves,
        seed=seed,
    )
    if ladders:
        return LadderPlayer(engine, Ladders(ladders), limits=_limits(limits), name="default")
    return SearchPlayer(engine, limits=_limits(limits), name="default")


#: At most this share of the move's time goes to checking root moves
#: against the opponent's forcing lines.
LADDER_SHARE = 0.3


class LadderPlayer(SearchPlayer[AndantinoState]):
    """The search player with a threat-space search at the root
    (`games.andantino.ladders`): a forcing line of its own is played at once;
    when the opponent would have one if it were to move now, only the root
    moves after which the opponent has none are searched (all of them when
    none is safe, or as many as LADDER_SHARE of the time allows to check)."""

    def __init__(self, engine: Searcher, ladders: Ladders, **kwargs: object) -> None:
        super().__init__(engine, **kwargs)  # type: ignore[arg-type]
        self.ladders = ladders
        self.searcher = engine

    def choose(
        self, state: AndantinoState, time_limit: float | None = None, stop: Stop | None = None
    ) -> int:
        start = perf_counter()
        limits = self.limits_for(time_limit, stop)
        copy = cast(AndantinoState, state.copy())
        line = self.ladders.win(copy) if not copy.is_over() else None
        if line is not None:
            self.last_result = SearchResult(
                line[0], WIN - len(line), line, len(line), self.ladders.nodes,
                perf_counter() - start, algorithm="ladders",
            )
            return line[0]
        safe = self._safe_moves(copy, start, limits.time)
        if limits.time is not None:
            limits = replace(limits, time=max(0.01, limits.time - (perf_counter() - start)))
        if safe is None:
            return self._search(copy, limits)
        base = self.searcher.order
        root = len(copy.history)

        def restricted(s: AndantinoState, moves: list[int]) -> list[int]:
            if len(s.history) == root:
                moves = [m for m in moves if m in safe]
            return base(s, moves) if base is not None else moves

        self.searcher.order = restricted
        try:
            return self._search(copy, limits)
        finally:
            self.searcher.order = base

    def _search(self, state: AndantinoState, limits: Limits) -> int:
        result = self.engine.search(state, limits)
        self.last_result = result
        assert result.move is not None
        return result.move

    def _safe_moves(
        self, state: AndantinoState, start: float, budget: float | None
    ) -> set[int] | None:
        """The root moves after which the opponent has no forcing line, when
        it would have one if we passed and some move is safe; else None."""
        passed = cast(AndantinoState, state.copy())
        passed.to_move = 1 - passed.to_move
        if self.ladders.win(passed) is None:
            return None
        deadline = None if budget is None else start + LADDER_SHARE * budget
        moves = state.legal_moves()
        safe = set()
        for index, move in enumerate(moves):
            if deadline is not None and perf_counter() > deadline:
                safe.update(moves[index:])  # unchecked: kept
                break
            me = state.to_move
            state.make(move)
            if state.winner() == me if state.reason else self.ladders.win(state) is None:
                safe.add(move)
            state.undo()
        return safe if safe and len(safe) < len(moves) else None
