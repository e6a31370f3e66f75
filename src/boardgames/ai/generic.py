"""AIs that work for every game: random, minimax, alphabeta, negascout, mcts, default.

Options (in a spec "alphabeta:depth=4,eval=material,noise=0.5"):
  depth, time, nodes   search limits (moves, seconds, nodes); none -> 1 s
  eval                 evaluator name from `game.evaluators()` (default "default")
  noise                scale of seeded random tie-break noise (RandomExpert)
  seed                 seed for the noise, MCTS playouts and random moves
  tt                   transposition table entries (0 disables it)
  threads              processes searching each move, sharing the table (not minimax)
  c, playout           MCTS only: exploration constant, "random" or "evaluator"
Any other option goes to the evaluator factory (e.g. a feature weight).

The search package is imported when a player is built, not when this module
loads, so `boardgames list` stays fast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..budget import Limits
from ..errors import OptionError, UnknownNameError
from ..evaluation import Evaluator
from ..game import Game
from ..options import LIMITS, LMR, SEED, THREADS, TT, Option
from ..players import Player, RandomPlayer, SearchPlayer
from .registry import register_ai

EVAL = Option("eval", "text", "default", "evaluator name (game.evaluators())")
#: What every generic search AI declares; other options go to the evaluator.
SEARCH = (*LIMITS, SEED, EVAL, Option("noise", "number", None, "random tie-break scale", low=0),
          TT, LMR, THREADS)
SEARCH_OPTIONS = tuple(option.name for option in SEARCH)


def search_options(algorithm: str) -> tuple[Option, ...]:
    """What a generic search AI of `algorithm` declares: late move reductions
    (`lmr`) only for NegaScout, whose null windows they need; `threads` not
    for minimax, which keeps no table to share."""
    if algorithm == "negascout":
        return SEARCH
    left_out = (LMR, THREADS) if algorithm == "minimax" else (LMR,)
    return tuple(o for o in SEARCH if o not in left_out)


def build_evaluator(
    game: Game[Any], name: str = "default", noise: float | None = None, seed: int | None = None,
    *, ai_options: Sequence[str] = SEARCH_OPTIONS, **options: Any,
) -> Evaluator[Any]:
    """`game.evaluator(name, noise=..., seed=..., **options)`, naming the AI's own
    options (`ai_options`) too when an option is unknown."""
    try:
        return game.evaluator(name, noise=noise, seed=seed, **options)
    except UnknownNameError as exc:
        raise OptionError(f"eval: {exc}") from None
    except OptionError as exc:
        if "unknown option" not in str(exc):
            raise
        raise OptionError(f"{exc}; AI options: {', '.join(ai_options)}") from None


def searcher_player(
    game: Game[Any],
    algorithm: str,
    *,
    limits: Limits,
    seed: int | None,
    eval: str,
    noise: float | None,
    tt: int | None,
    lmr: bool = False,
    threads: int = 1,
    **weights: Any,
) -> Player[Any]:
    """A SearchPlayer over `boardgames.search.Searcher` with `algorithm`
    (`lmr`: late move reductions, NegaScout only; `threads`: processes
    searching each move); `weights` go to the evaluator."""
    from ..search import Searcher

    own = [option.name for option in search_options(algorithm)]
    evaluator = build_evaluator(game, eval, noise, seed, ai_options=own, **weights)
    kwargs: dict[str, Any] = {
        "algorithm": algorithm, "seed": seed, "reductions": lmr, "threads": threads,
    }
    if tt is not None:
        kwargs["tt_size"] = tt
    engine = Searcher(evaluator, **kwargs)
    return SearchPlayer(engine, limits=limits)


@register_ai(
    "random",
    help="uniformly random legal moves (seed=N for reproducible games)",
    options=(*LIMITS, SEED),
)
def random_ai(game: Game[Any], *, seed: int | None, limits: Limits) -> Player[Any]:
    """Limits are accepted (callers pass them uniformly) and have no effect."""
    return RandomPlayer(seed=seed)


def _search_ai(name: str, algorithm: str, help: str) -> None:
    def factory(game: Game[Any], **options: Any) -> Player[Any]:
        if "lmr" in options and algorithm != "negascout":
            # Late move reductions need NegaScout's null windows: here the
            # option would be accepted and do nothing.
            raise OptionError(f"lmr: late move reductions are for negascout, not {name}")
        return searcher_player(game, algorithm, **options)

    factory.__name__ = f"{name}_ai"
    register_ai(name, help=help, options=search_options(algorithm), extra=True)(factory)


_search_ai("minimax", "minimax", "plain minimax (no pruning): a reference for the others")
_search_ai("alphabeta", "alphabeta", "alpha-beta with iterative deepening, TT and move ordering")
_search_ai("negascout", "negascout", "principal variation search (negascout), TT and move ordering")
_search_ai("default", "negascout", "negascout with the game's default evaluator")


MCTS_OPTIONS = (
    *LIMITS,
    SEED,
    EVAL,
    Option("noise", "number", None, "random tie-break scale", low=0),
    Option("c", "number", 1.4, "exploration constant", low=0, high=1e6),
    Option("playout", "choice", "random", "random or evaluator playouts",
           choices=("random", "evaluator")),
    TT,
)


@register_ai(
    "mcts",
    help="Monte Carlo tree search (UCT); c=1.4, playout=random|evaluator",
    options=MCTS_OPTIONS,
    extra=True,
)
def mcts_ai(
    game: Game[Any],
    *,
    limits: Limits,
    seed: int | None,
    eval: str,
    noise: float | None,
    c: float,
    playout: str,
    tt: int | None,
    **weights: Any,
) -> Player[Any]:
    """UCT; `tt` is accepted for uniformity (MCTS keeps its own tree)."""
    from ..search import MCTS

    evaluator = build_evaluator(
        game, eval, noise, seed, ai_options=[option.name for option in MCTS_OPTIONS], **weights
    )
    engine = MCTS(evaluator, c=c, playout=playout, seed=seed)
    return SearchPlayer(engine, limits=limits)
