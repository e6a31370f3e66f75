"""An AI's move off the event loop, with live progress and a stop button.

`think(player, state, stop, on_info)` runs `player.choose` (call it in a
worker thread) with the library's stop signal in its limits: `stop` (a
threading.Event) is polled by every engine where it polls its clock, so
setting it makes the player move now with the best move found so far
(alpha-beta, MCTS, the edge games' chain player and solver, Hadron's solver
alike).

*Live progress*: when the player searches through an engine with an
`on_iteration` attribute (the alpha-beta family's `Searcher`; a
`SearchPlayer` and its subclasses hold it in `player.engine`), or has one
itself (an external program, whose `info` lines reach it), that attribute
is set for the length of the call, so every finished depth reaches
`on_info` as a JSON-ready dict (depth, score, PV in notation, nodes, nps).
The player keeps its own engine object.  A player whose `stoppable` is
False (a program: the protocol has no "move now") is not offered the
stop button.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from typing import Any

from ..budget import Limits
from ..game import Game, State
from ..players import Player

Info = dict[str, Any]
OnInfo = Callable[[Info], None]


def describe(game: Game[Any], result: Any, side: int) -> Info | None:
    """A search result as JSON-ready facts, the score also from the first
    player's point of view (`first_score`) and in words (`verdict`), or None
    for no result."""
    if result is None or getattr(result, "move", None) is None:
        return None
    from ..search.result import describe_score, is_proven

    score = float(getattr(result, "score", 0.0) or 0.0)
    if not math.isfinite(score) or abs(score) >= 1e300:
        score = 0.0
    elapsed = float(getattr(result, "time", 0.0) or 0.0)
    nodes = int(getattr(result, "nodes", 0) or 0)
    pv = [game.format_move(m) for m in getattr(result, "pv", []) or [] if _is_move(game, m)]
    algorithm = str(getattr(result, "algorithm", "") or "")
    return {
        "move": game.format_move(result.move),
        "score": score,
        "score_text": describe_score(score, game.scored),
        "verdict": verdict(game, score, side, algorithm),
        "proven": is_proven(score),
        "first_score": score if side == 0 else -score,
        "depth": int(getattr(result, "depth", 0) or 0),
        "nodes": nodes,
        "time": round(elapsed, 3),
        "nps": round(nodes / elapsed) if elapsed > 0 else 0,
        "pv": pv,
        "algorithm": algorithm,
        "completed": bool(getattr(result, "completed", True)),
    }


#: Searches whose score is the game's evaluator seen through the search tree.
EVALUATING = ("negascout", "alphabeta", "minimax", "seed001", "")
#: Exact solvers: their score only says who wins (and the margin, in scored games).
EXACT = ("solve", "solver", "proven", "exact")


def verdict(game: Game[Any], score: float, side: int, algorithm: str) -> dict[str, str]:
    """What a search's `score` (from `side`, the side that searched) says, in
    words a player reads: who is ahead or who wins.  `short` fits the page's
    score box; `long` also says what the number is."""
    from ..search.result import WIN, is_proven

    names = [name[:1].upper() + name[1:] for name in game.player_names]
    mine, theirs = names[side], names[1 - side]
    exact = algorithm in EXACT
    if is_proven(score) or (exact and score):
        winner = mine if score > 0 else theirs
        if game.scored or exact:  # the score is (or carries) a margin: no distance
            return {"short": f"{winner} wins",
                    "long": f"proven: {winner} wins with best play from both sides"}
        plies = round(WIN - abs(score))
        return {"short": f"{winner} wins in {plies}",
                "long": f"proven: {winner} wins within {plies} moves (both sides' moves"
                        " counted) with best play"}
    if exact:
        return {"short": "draw", "long": "proven: a draw with best play from both sides"}
    if algorithm == "program":
        if score == 0:
            return {"short": "even", "long": "level, by the program's own score"}
        ahead = mine if score > 0 else theirs
        points = f"{abs(score):.4g}"
        return {"short": f"{ahead} +{points}",
                "long": f"{ahead} is ahead by {points} on the program's own scale (its"
                        " estimate; 0 is even)"}
    if algorithm == "mcts":
        share = (score + 1) / 2
        return {"short": f"{mine} {share:.0%}",
                "long": f"{mine} won {share:.0%} of the search's simulated games"
                        " (MCTS; 50% is even)"}
    if algorithm not in EVALUATING:
        return {"short": "–", "long": f"no score: the move came from the {algorithm} rule"}
    if score == 0:
        return {"short": "even", "long": "level: the evaluation is 0 (an estimate, not proven)"}
    ahead = mine if score > 0 else theirs
    points = f"{abs(score):.4g}"
    return {"short": f"{ahead} +{points}",
            "long": f"{ahead} is ahead by {points} points of the game's evaluator (an"
                    " estimate, not proven; the scale is the evaluator's own, 0 is even)"}


def _is_move(game: Game[Any], move: Any) -> bool:
    return isinstance(move, int) and not isinstance(move, bool) and 0 <= move < game.num_moves


def _reporter(player: Player[Any]) -> Any:
    """What holds the `on_iteration` hook of `player`'s search: its engine, or
    the player itself; None when its search reports nothing."""
    engine = getattr(player, "engine", None)
    if hasattr(engine, "on_iteration"):
        return engine
    return player if hasattr(player, "on_iteration") else None


def capabilities(player: Player[Any]) -> dict[str, bool]:
    """What the page can expect while `player` thinks: live iterations, and a
    stop (every library player's limits carry one; a program has none)."""
    stoppable = bool(getattr(player, "stoppable", True))
    return {"live": _reporter(player) is not None, "stoppable": stoppable}


def think(
    player: Player[Any],
    state: State[Any],
    stop: threading.Event,
    on_info: OnInfo,
    time_limit: float | None = None,
) -> tuple[int, Info | None]:
    """The player's move for `state` (a copy is searched) and what it reported.

    Runs in a worker thread; `on_info` is called from that thread.
    """
    game, side = state.game, state.to_move
    engine: Any = _reporter(player)
    live = engine is not None

    def iteration(result: Any) -> None:
        info = describe(game, result, side)
        if info is not None:
            on_info(info)

    start = time.perf_counter()
    if live:
        saved, engine.on_iteration = engine.on_iteration, iteration
    try:
        move = player.choose(state.copy(), Limits(time=time_limit, stop=stop))
    finally:
        if live:
            engine.on_iteration = saved
    info = describe(game, getattr(player, "last_result", None), side)
    if info is None or info["move"] != game.format_move(move):
        info = {"move": game.format_move(move), "time": round(time.perf_counter() - start, 3)}
    info["stopped"] = stop.is_set()
    return move, info
