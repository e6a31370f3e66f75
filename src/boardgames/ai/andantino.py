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
  leaves.  Options: noise, tt, seed, forced and any ThreatEvaluator weight
  (four, three, two, surround5, surround4, surround3, bridge, mobility,
  danger, tempo).

Both search 1 s per move when given no limit.
"""

from __future__ import annotations

from typing import Any

from ..evaluation import with_noise
from ..game import Game, OptionError
from ..games.andantino.experts import DEFAULT_WEIGHTS, ThreatEvaluator, order_moves, seed_evaluator
from ..options import check_limits, check_number, check_seed, check_tt
from ..players import Player, SearchPlayer
from ..search import Searcher
from . import register_ai

#: Per-move budget when neither depth, time nor nodes is given.
DEFAULT_TIME = 1.0
#: The seed's table was small; 2^16 entries keeps its spirit without its
#: 272-slot collisions.
SEED_TT = 1 << 16
DEFAULT_TT = 1 << 18


def _limits(depth: Any, time: Any, nodes: Any) -> tuple[Any, Any, Any]:
    check_limits(depth, time, nodes)
    if depth is None and time is None and nodes is None:
        time = DEFAULT_TIME
    return depth, time, nodes


@register_ai(
    "seed",
    game="andantino",
    help="seed 000: negascout + iterative deepening + TT, BridgeExpert + RandomExpert",
)
def seed_ai(
    game: Game,
    *,
    depth: Any = None,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    noise: Any = 0.5,
    bridge: Any = 1.0,
    tt: Any = None,
) -> Player:
    """The seed's NegaScout bot with BridgeExpert and RandomExpert."""
    depth, time, nodes = _limits(depth, time, nodes)
    seed = check_seed(seed)
    evaluator = seed_evaluator(check_number("noise", noise), seed, check_number("bridge", bridge))
    engine = Searcher(
        evaluator,
        algorithm="negascout",
        tt_size=check_tt(tt, SEED_TT),
        symmetry=False,
        killers=False,
        history=False,
        seed=seed,
    )
    return SearchPlayer(engine, depth=depth, time=time, nodes=nodes, name="seed")


@register_ai(
    "default",
    game="andantino",
    help="negascout, symmetric TT, win/block ordering, threat evaluator (lines, enclosures)",
)
def default_ai(
    game: Game,
    *,
    depth: Any = None,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    noise: Any = 0.0,
    tt: Any = None,
    forced: Any = 2,
    **weights: Any,
) -> Player:
    """The library's strongest Andantino player."""
    depth, time, nodes = _limits(depth, time, nodes)
    seed = check_seed(seed)
    unknown = set(weights) - set(DEFAULT_WEIGHTS)
    if unknown:
        raise OptionError(
            f"unknown option(s) {', '.join(sorted(unknown))} for the andantino default AI; "
            f"weights: {', '.join(DEFAULT_WEIGHTS)}"
        )
    checked = {k: check_number(k, v) for k, v in weights.items()}
    if not isinstance(forced, int) or isinstance(forced, bool) or forced < 0:
        raise OptionError(f"forced must be a whole number >= 0, not {forced!r}")
    evaluator = with_noise(ThreatEvaluator(forced, **checked), check_number("noise", noise), seed)
    engine = Searcher(
        evaluator,
        algorithm="negascout",
        tt_size=check_tt(tt, DEFAULT_TT),
        order=order_moves,
        seed=seed,
    )
    return SearchPlayer(engine, depth=depth, time=time, nodes=nodes, name="default")
