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
  checked 2 and then `pressure` (default 3) deep; otherwise it checks the
  searched move 2 and then `check` (default 3) deep, and when it is refuted
  searches the moves that hold instead.
  Options: noise, tt, seed, forced, groups, chase, ladders, pressure, check and any
  ThreatEvaluator weight (four, three, two, surround5, surround4,
  surround3, bridge, mobility, danger, tempo).

Both search 1 s per move when given no limit.
"""

from __future__ import annotations

from typing import Any

from ...budget import Budget, Limits
from ...evaluation import with_noise
from ...game import Game
from ...games.andantino.experts import (
    THREAT_WEIGHTS,
    ThreatEvaluator,
    order_moves,
    order_moves_groups,
    seed_evaluator,
)
from ...games.andantino.ladders import Ladders
from ...games.andantino.rules import AndantinoState
from ...options import LIMITS, SEED, THREADS, TT, Option, noise
from ...players import DEFAULT_TIME, Player, SearchPlayer
from ...search import WIN, Searcher, SearchResult
from ...weights import PARAMS
from ..registry import register_ai

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
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    noise: float,
    bridge: float,
    tt: int | None,
) -> Player[Any]:
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
        THREADS,
        Option("forced", "whole", 2, "forced blocks followed at the leaves", low=0, high=50),
        Option("groups", "flag", True, "see cells that enclose whole groups (wins, blocks)"),
        Option("chase", "flag", False, "after a forced block, follow renewed threats (ladders)"),
        Option("ladders", "whole", 7, "threat-space search at the root, in forced blocks (0: off)",
               low=0, high=30),
        Option("pressure", "whole", 3, "depth of the threats-of-ladders check of the moves that "
               "stop a ladder", low=1, high=6),
        Option("check", "whole", 3, "depth of the threats-of-ladders check of the searched move",
               low=2, high=6),
        PARAMS,
        *THREAT_WEIGHTS.options(),
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
    forced: int,
    groups: bool,
    chase: bool,
    ladders: int,
    pressure: int,
    check: int,
    params: str | None,
    **weights: float | None,
) -> Player[Any]:
    """The library's strongest Andantino player: its ThreatEvaluator's weights
    from the params file `params`, then the options given."""
    threats = ThreatEvaluator(forced, groups, chase, **THREAT_WEIGHTS.resolve(params, weights))
    evaluator = with_noise(threats, noise, seed)
    engine = Searcher(
        evaluator,
        algorithm="negascout",
        tt_size=DEFAULT_TT if tt is None else tt,
        order=order_moves_groups if groups else order_moves,
        seed=seed,
        threads=threads,
    )
    if ladders:
        return LadderPlayer(
            engine, Ladders(ladders), pressure, check, limits=_limits(limits), name="default"
        )
    return SearchPlayer(engine, limits=_limits(limits), name="default")


#: Shares of the move's time (the player's budget): checking root moves
#: against the opponent's forcing lines (LADDER_SHARE), and the moves that
#: stop one against threats of forcing lines (up to PRESSURE_SHARE); the
#: search when no forcing line threatens (SEARCH_SHARE), then the check of
#: its move against threats of forcing lines up to CHECK_SHARE of the budget
#: (beyond it: the budget keeps a margin under the per-move limit); when
#: that move is refuted, the check of the other moves (HOLD_SHARE more) and
#: a search of the moves that hold (RESEARCH_SHARE).
LADDER_SHARE = 0.3
PRESSURE_SHARE = 0.6
SEARCH_SHARE = 0.9
CHECK_SHARE = 1.05
HOLD_SHARE = 0.2
RESEARCH_SHARE = 0.1
#: Depths of `Ladders.threat_win` (moves that threaten a forcing line) in
#: the check of the searched move, tried in turn while time is left.
THREAT_DEPTHS = (2, 3)
#: The least time a search of the move is given (it must name a move).
SEARCH_FLOOR = 0.01


class LadderPlayer(SearchPlayer[AndantinoState]):
    """The search player with a threat-space search at the root
    (`games.andantino.ladders`).

    - A forcing line of its own is played at once.
    - When the opponent would have one if it were to move now, only the
      root moves after which it has none are searched; of those, the moves
      after which it wins by threats of forcing lines (`threat_win`, 2 to
      `pressure` deep) are dropped too, when some move is left.  When one
      move is left it is played at once, without a search (`last_result`:
      algorithm "ladders", no nodes).
    - Otherwise the searched move (a search of SEARCH_SHARE of the budget)
      is checked the same way, 2 then 3 deep (THREAT_DEPTHS), up to
      CHECK_SHARE of the budget.  When it is refuted, the other moves are
      checked (all 2 deep, then the ones that hold 3 deep), and the moves
      that hold deeper than it are searched again, briefly
      (RESEARCH_SHARE); when none does, the searched move is kept.

    Every check has a part of the move's budget; a move left unchecked
    stays allowed."""

    def __init__(
        self,
        engine: Searcher[Any],
        ladders: Ladders,
        pressure: int = 3,
        check: int = THREAT_DEPTHS[-1],
        **kwargs: object,
    ) -> None:
        super().__init__(engine, **kwargs)  # type: ignore[arg-type]
        self.ladders = ladders
        #: Depths of the check of the moves that stop a ladder (`pressure`).
        self.pressure = tuple(range(min(2, pressure), pressure + 1))
        #: Depths of the check of the searched move (2 to `check`), and the
        #: share of the budget its search gets (attributes, so that variants
        #: can be measured side by side: tools/andantino_lost.py).
        self.depths: tuple[int, ...] = tuple(range(THREAT_DEPTHS[0], check + 1))
        self.search_share = SEARCH_SHARE
        self.searcher = engine

    def choose(self, state: AndantinoState, limits: Limits | None = None) -> int:
        """The searched move, unless a ladder wins at once or the checks above
        reject it; `state` is left unchanged."""
        budget = Budget(self.limits_for(limits))
        copy = state.copy()
        line = self.ladders.win(copy)
        if line is not None:
            self.last_result = SearchResult(
                line[0], WIN - len(line), line, len(line), self.ladders.nodes,
                budget.elapsed(), algorithm="ladders",
            )
            return line[0]
        allowed = self._safe_moves(
            copy, budget.until(LADDER_SHARE), budget.until(PRESSURE_SHARE)
        )
        if allowed is not None and len(allowed) == 1:  # the one move that stops a forcing line
            (move,) = allowed
            self.last_result = SearchResult(
                move, 0.0, [move], 0, 0, budget.elapsed(), algorithm="ladders"
            )
            return move
        if allowed is not None or budget.time is None:
            return self._search(copy, budget.remaining(SEARCH_FLOOR), allowed)
        searching = budget.until(self.search_share)
        move = self._search(copy, searching.remaining(SEARCH_FLOOR), None)
        depth = self._refuted_at(copy, move, budget.until(CHECK_SHARE), self.depths)
        if depth is None:
            return move
        others = [m for m in copy.legal_moves() if m != move]
        if self.searcher.order is not None:  # the likeliest first
            others = self.searcher.order(copy, others)
        holding, held, cut = self._holding(copy, others, self.depths, budget.part(HOLD_SHARE))
        if held < depth or (held == depth and not cut):
            return move  # no other move is known to hold deeper, or might
        researching = budget.part(RESEARCH_SHARE)
        return self._search(copy, researching.remaining(SEARCH_FLOOR), set(holding))

    def _search(self, state: AndantinoState, limits: Limits, allowed: set[int] | None) -> int:
        """Search the `allowed` root moves (all: None) under `limits`."""
        result = self.searcher.search(state, limits, root_moves=allowed)
        self.last_result = result
        assert result.move is not None
        return result.move

    def _refuted(
        self,
        state: AndantinoState,
        move: int,
        budget: Budget,
        depths: tuple[int, ...] = THREAT_DEPTHS,
    ) -> bool:
        """Whether the opponent wins by threats of forcing lines after `move`
        (found at one of `depths` within the `budget`)."""
        return self._refuted_at(state, move, budget, depths) is not None

    def _refuted_at(
        self,
        state: AndantinoState,
        move: int,
        budget: Budget,
        depths: tuple[int, ...] = THREAT_DEPTHS,
    ) -> int | None:
        """The index in `depths` of the first depth at which the opponent
        wins by threats of forcing lines after `move` (found within the
        `budget`), or None (a move that loses at once: 0)."""
        me = state.to_move
        state.make(move)
        try:
            if state.reason is not None:
                return None if state.winner() == me else 0
            for index, depth in enumerate(depths):
                if self.ladders.threat_win(state, depth, budget):
                    return index
            return None
        finally:
            state.undo()

    def _safe_moves(
        self, state: AndantinoState, budget: Budget, pressed: Budget | None = None
    ) -> set[int] | None:
        """The root moves after which the opponent has no forcing line, when
        it would have one if we passed and some move is safe (checked within
        the `budget`; the moves it also wins after by threats dropped, when
        some are left, checked within `pressed`, else the `budget`); else None."""
        passed = state.copy()
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
            if budget.expired():
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
            holding, held, cut = self._holding(
                state, safe, self.pressure, budget if pressed is None else pressed
            )
            if held or cut:
                safe = holding
        return set(safe)

    def _holding(
        self, state: AndantinoState, moves: list[int], depths: tuple[int, ...],
        budget: Budget,
    ) -> tuple[list[int], int, bool]:
        """The `moves` after which the opponent does not win by threats of
        forcing lines: all of them checked at the first of `depths`, the ones
        that hold at the next, and so on (so that one costly check does not
        leave the others unchecked), until the `budget` is spent.

        Returns (the moves, at how many depths they held, cut): when the
        budget cuts a depth (cut), the moves that held there, or when none
        did yet, the ones it left unchecked; when every move of a depth is
        refuted (not cut), the moves that held at the depth before (all of
        `moves`, with 0, when all are refuted at the first depth)."""
        left = list(moves)
        for number, depth in enumerate(depths):
            held: list[tuple[float, int]] = []
            unchecked: list[int] = []
            for index, move in enumerate(left):
                if budget.expired():
                    unchecked = left[index:]
                    break
                started = budget.elapsed()
                refuted = self._refuted(state, move, budget, (depth,))
                if budget.expired():
                    unchecked = left[index:]  # cut short: not known
                    break
                if not refuted:
                    held.append((budget.elapsed() - started, move))
            if unchecked:
                return ([m for _, m in held], number + 1, True) if held else (
                    unchecked, number, True)
            if not held:
                return left, number, False
            # The next depth checks the cheapest first (a costly check at one
            # depth is costlier at the next; the budget then cuts it, not the rest).
            left = [move for _, move in sorted(held, key=lambda pair: pair[0])]
        return left, len(depths), False
