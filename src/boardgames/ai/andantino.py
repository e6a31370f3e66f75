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

from ..evaluation import with_noise
from ..game import Game
from ..games.andantino.experts import (
    DEFAULT_WEIGHTS,
    ThreatEvaluator,
    order_moves,
    order_moves_groups,
    seed_evaluator,
)
from ..options import LIMITS, SEED, TT, Limits, Option, noise
from ..players import DEFAULT_TIME, Player, SearchPlayer
from ..search import Searcher
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
    return SearchPlayer(engine, limits=_limits(limits), name="default")
