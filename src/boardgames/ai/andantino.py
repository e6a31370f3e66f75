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
  At the root, a threat-space search (`ladders`, default 7 forced blocks
  deep; games/andantino/ladders.py) plays a forcing line of its own at
  once, and when the opponent would have one if it were to move, limits the
  search to the moves after which it has none (`LadderPlayer`), and of
  those drops the moves after which it wins by threats of forcing lines,
  checked 2 and then `pressure` (default 3) deep.
  Options: noise, tt, seed, forced, groups, chase, ladders, pressure and any
  ThreatEvaluator weight (four, three, two, surround5, surround4,
  surround3, bridge, mobility, danger, tempo).

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
        Option("ladders", "whole", 7, "threat-space search at the root, in forced blocks (0: off)",
               low=0, high=30),
        Option("pressure", "whole", 3, "depth of the threats-of-ladders check of the moves that "
               "stop a ladder", low=1, high=6),
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
    pressure: int,
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
        return LadderPlayer(
            engine, Ladders(ladders), pressure, limits=_limits(limits), name="default"
        )
    return SearchPlayer(engine, limits=_limits(limits), name="default")


#: Shares of the move's time (the player's budget): checking root moves
#: against the opponent's forcing lines (LADDER_SHARE); after the search
#: (the rest of the budget), the end of the check of its move against
#: threats of forcing lines (CHECK_SHARE: beyond the budget, which keeps a
#: margin under the per-move limit), and each search again without a
#: refuted move (RESEARCH_SHARE).
LADDER_SHARE = 0.3
CHECK_SHARE = 1.05
RESEARCH_SHARE = 0.15
#: Depths of `Ladders.threat_win` (moves that threaten a forcing line) in
#: the root checks, tried in turn while time is left, and how many
#: searched moves may be refuted by it.
THREAT_DEPTHS = (2,)
RESEARCHES = 1


class LadderPlayer(SearchPlayer[AndantinoState]):
    """The search player with a threat-space search at the root
    (`games.andantino.ladders`).

    - A forcing line of its own is played at once.
    - When the opponent would have one if it were to move now, only the
      root moves after which it has none are searched; of those, the moves
      after which it wins by threats of forcing lines (`threat_win`, 2 to
      `pressure` deep) are dropped too, when some move is left.
    - Otherwise the searched move is checked the same way (after a search
      of the whole budget, in the margin the budget keeps under the
      per-move limit); a refuted move is dropped and the rest searched
      again, briefly (RESEARCH_SHARE), once.

    Every check has a deadline; a move left unchecked stays allowed."""

    def __init__(
        self, engine: Searcher, ladders: Ladders, pressure: int = 3, **kwargs: object
    ) -> None:
        super().__init__(engine, **kwargs)  # type: ignore[arg-type]
        self.ladders = ladders
        #: Depths of the check of the moves that stop a ladder (`pressure`).
        self.pressure = tuple(range(min(2, pressure), pressure + 1))
        self.searcher = engine

    def choose(
        self, state: AndantinoState, time_limit: float | None = None, stop: Stop | None = None
    ) -> int:
        start = perf_counter()
        limits = self.limits_for(time_limit, stop)
        budget = limits.time
        copy = cast(AndantinoState, state.copy())
        line = self.ladders.win(copy)
        if line is not None:
            self.last_result = SearchResult(
                line[0], WIN - len(line), line, len(line), self.ladders.nodes,
                perf_counter() - start, algorithm="ladders",
            )
            return line[0]
        deadline = None if budget is None else start + LADDER_SHARE * budget
        allowed = self._safe_moves(copy, deadline)
        left = None if budget is None else budget - (perf_counter() - start)
        move = self._search(copy, limits, left, allowed)
        if allowed is not None or budget is None:
            return move
        first, refuted = move, set()
        deadline = start + budget * CHECK_SHARE
        for _ in range(RESEARCHES):
            if not self._refuted(copy, move, deadline):
                return move
            refuted.add(move)
            allowed = set(copy.legal_moves()) - refuted
            if not allowed:
                return first
            move = self._search(copy, limits, RESEARCH_SHARE * budget, allowed)
            deadline = perf_counter() + (CHECK_SHARE - 1) * budget
        return first if self._refuted(copy, move, deadline) else move

    def _search(
        self,
        state: AndantinoState,
        limits: Limits,
        time: float | None,
        allowed: set[int] | None,
    ) -> int:
        """Search the `allowed` root moves (all: None) for `time` seconds
        (None: the limits as they are)."""
        if time is not None:
            limits = replace(limits, time=max(0.01, time))
        base = self.searcher.order
        if allowed is not None:
            root = len(state.history)
            chosen = allowed

            def restricted(s: AndantinoState, moves: list[int]) -> list[int]:
                if len(s.history) == root:
                    moves = [m for m in moves if m in chosen]
                return base(s, moves) if base is not None else moves

            self.searcher.order = restricted
        try:
            result = self.engine.search(state, limits)
        finally:
            self.searcher.order = base
        self.last_result = result
        assert result.move is not None
        return result.move

    def _refuted(
        self,
        state: AndantinoState,
        move: int,
        deadline: float | None,
        depths: tuple[int, ...] = THREAT_DEPTHS,
    ) -> bool:
        """Whether the opponent wins by threats of forcing lines after `move`
        (found at one of `depths` before the `deadline`)."""
        me = state.to_move
        end = float("inf") if deadline is None else deadline
        state.make(move)
        try:
            if state.reason is not None:
                return state.winner() != me
            return any(self.ladders.threat_win(state, depth, end) for depth in depths)
        finally:
            state.undo()

    def _safe_moves(self, state: AndantinoState, deadline: float | None) -> set[int] | None:
        """The root moves after which the opponent has no forcing line, when
        it would have one if we passed and some move is safe (the moves it
        also wins after by threats dropped, when some are left); else None."""
        passed = cast(AndantinoState, state.copy())
        passed.to_move = 1 - passed.to_move
        known = self.ladders.win(passed)
        if known is None:
            return None
        if not self.ladders.known:
            known = None
        moves = state.legal_moves()
        safe = []
        ladders = self.ladders
        for index, move in enumerate(moves):
            if deadline is not None and perf_counter() > deadline:
                safe.extend(moves[index:])  # unchecked: kept
                break
            me = state.to_move
            state.make(move)
            if state.reason is not None:
                if state.winner() == me:
                    safe.append(move)
            elif not (known is not None and ladders.follows(state, known)) and (
                ladders.win(state) is None
            ):
                safe.append(move)
            state.undo()
        if not safe or len(safe) == len(moves):
            return None
        if len(safe) > 1:
            holding = [m for m in safe if not self._refuted(state, m, deadline, self.pressure)]
            if holding:
                safe = holding
        return set(safe)
