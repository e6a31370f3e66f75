"""AIs that work for every game: random, minimax, alphabeta, negascout, mcts, default.

Options (in a spec "alphabeta:depth=4,eval=material,noise=0.5"):
  depth, time, nodes   search limits (moves, seconds, nodes); none -> 1 s
  eval                 evaluator name from `game.evaluators()` (default "default")
  noise                scale of seeded random tie-break noise (RandomExpert)
  seed                 seed for the noise, MCTS playouts and random moves
  tt                   transposition table entries (0 disables it)
  c, playout           MCTS only: exploration constant, "random" or "evaluator"
Any other option goes to the evaluator factory (e.g. a feature weight).

The search package is imported when a player is built, not when this module
loads, so `boardgames list` stays fast.
"""

from __future__ import annotations

from typing import Any

from ..errors import OptionError, UnknownNameError
from ..game import Evaluator, Game
from ..options import check_flag, check_limits, check_seed, check_tt
from ..players import Player, RandomPlayer, SearchPlayer
from . import register_ai

SEARCH_OPTIONS = ("depth", "time", "nodes", "eval", "noise", "seed", "tt")


def build_evaluator(
    game: Game, name: Any = "default", noise: Any = None, seed: int | None = None, **options: Any
) -> Evaluator:
    """`game.evaluator(name, noise=..., seed=..., **options)`, naming the AI options
    too when an option is unknown."""
    try:
        return game.evaluator(name, noise=noise, seed=seed, **options)
    except UnknownNameError as exc:
        raise OptionError(f"eval: {exc}") from None
    except OptionError as exc:
        if "unknown option" not in str(exc):
            raise
        raise OptionError(f"{exc}; AI options: {', '.join(SEARCH_OPTIONS)}") from None


def searcher_player(
    game: Game,
    algorithm: str,
    *,
    depth: Any = None,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    eval: Any = "default",
    noise: Any = None,
    tt: Any = None,
    lmr: Any = False,
    name: str | None = None,
    **options: Any,
) -> Player:
    """A SearchPlayer over `boardgames.search.Searcher` with `algorithm`
    (`lmr`: late move reductions, NegaScout only)."""
    from ..search import Searcher

    check_limits(depth, time, nodes)
    seed = check_seed(seed)
    evaluator = build_evaluator(game, eval, noise, seed, **options)
    kwargs: dict[str, Any] = {
        "algorithm": algorithm,
        "seed": seed,
        "reductions": check_flag("lmr", lmr),
    }
    tt = check_tt(tt)
    if tt is not None:
        kwargs["tt_size"] = tt
    engine = Searcher(evaluator, **kwargs)
    return SearchPlayer(engine, depth=depth, time=time, nodes=nodes, name=name)


@register_ai("random", help="uniformly random legal moves (seed=N for reproducible games)")
def random_ai(game: Game, *, seed: Any = None, **options: Any) -> Player:
    _ignore_limits(options)
    if options:
        raise OptionError(f"unknown option(s) for random: {', '.join(sorted(options))}")
    return RandomPlayer(seed=check_seed(seed))


def _ignore_limits(options: dict[str, Any]) -> None:
    """Limits make no sense for a random player, but callers pass them uniformly."""
    check_limits(options.pop("depth", None), options.pop("time", None), options.pop("nodes", None))


@register_ai("minimax", help="plain minimax (no pruning): a reference for the others")
def minimax_ai(game: Game, **options: Any) -> Player:
    return searcher_player(game, "minimax", **options)


@register_ai("alphabeta", help="alpha-beta with iterative deepening, TT and move ordering")
def alphabeta_ai(game: Game, **options: Any) -> Player:
    return searcher_player(game, "alphabeta", **options)


@register_ai("negascout", help="principal variation search (negascout), TT and move ordering")
def negascout_ai(game: Game, **options: Any) -> Player:
    return searcher_player(game, "negascout", **options)


@register_ai("default", help="negascout with the game's default evaluator")
def default_ai(game: Game, **options: Any) -> Player:
    return searcher_player(game, "negascout", **options)


@register_ai("mcts", help="Monte Carlo tree search (UCT); c=1.4, playout=random|evaluator")
def mcts_ai(
    game: Game,
    *,
    depth: Any = None,
    time: Any = None,
    nodes: Any = None,
    seed: Any = None,
    c: Any = 1.4,
    playout: Any = "random",
    eval: Any = "default",
    noise: Any = None,
    **options: Any,
) -> Player:
    from ..search import MCTS

    check_limits(depth, time, nodes)
    seed = check_seed(seed)
    if not isinstance(c, int | float) or isinstance(c, bool) or c < 0:
        raise OptionError(f"c must be a number >= 0, not {c!r}")
    if playout not in ("random", "evaluator"):
        raise OptionError(f"playout must be 'random' or 'evaluator', not {playout!r}")
    options.pop("tt", None)  # MCTS keeps its own tree, not a TT
    evaluator = build_evaluator(game, eval, noise, seed, **options)
    engine = MCTS(evaluator, c=float(c), playout=playout, seed=seed)
    return SearchPlayer(engine, depth=depth, time=time, nodes=nodes)
