"""An AI's move off the event loop, with live progress and a stop button.

`think(player, state, stop, on_info)` runs `player.choose` (call it in a
worker thread) with the library's stop signal: `stop` (a threading.Event)
is polled by every engine where it polls its clock, so setting it makes the
player move now with the best move found so far (alpha-beta, MCTS, the edge
games' chain player and solver, Hadron's solver alike).  A plugin player
whose `choose` takes no `stop` still thinks in the worker thread and moves
at its time limit, which the page says.

*Live progress*: when the player searches through an engine with an
`on_iteration` attribute (the alpha-beta family's `Searcher`; a
`SearchPlayer` and its subclasses hold it in `player.engine`), that
attribute is set for the length of the call, so every finished depth
reaches `on_info` as a JSON-ready dict (depth, score, PV in notation,
nodes, nps).  The player keeps its own engine object.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable
from typing import Any

from ..game import Game, State
from ..players import Player

Info = dict[str, Any]
OnInfo = Callable[[Info], None]


def describe(game: Game, result: Any, side: int) -> Info | None:
    """A search result as JSON-ready facts, the score also from the first
    player's point of view (`white_score`), or None for no result."""
    if result is None or getattr(result, "move", None) is None:
        return None
    from ..search.result import describe_score, is_proven

    score = float(getattr(result, "score", 0.0) or 0.0)
    elapsed = float(getattr(result, "time", 0.0) or 0.0)
    nodes = int(getattr(result, "nodes", 0) or 0)
    pv = [game.format_move(m) for m in getattr(result, "pv", []) or [] if _is_move(game, m)]
    return {
        "move": game.format_move(result.move),
        "score": score if abs(score) < 1e300 else 0.0,
        "score_text": describe_score(score, game.scored),
        "proven": is_proven(score),
        "first_score": score if side == 0 else -score,
        "depth": int(getattr(result, "depth", 0) or 0),
        "nodes": nodes,
        "time": round(elapsed, 3),
        "nps": round(nodes / elapsed) if elapsed > 0 else 0,
        "pv": pv,
        "algorithm": str(getattr(result, "algorithm", "") or ""),
        "completed": bool(getattr(result, "completed", True)),
    }


def _is_move(game: Game, move: Any) -> bool:
    return isinstance(move, int) and not isinstance(move, bool) and 0 <= move < game.num_moves


def _takes(function: Callable[..., Any], name: str) -> bool:
    try:
        return name in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False


def capabilities(player: Player) -> dict[str, bool]:
    """What the page can expect while `player` thinks: live iterations, a stop."""
    engine = getattr(player, "engine", None)
    return {"live": hasattr(engine, "on_iteration"), "stoppable": _takes(player.choose, "stop")}


def think(
    player: Player,
    state: State,
    stop: threading.Event,
    on_info: OnInfo,
    time_limit: float | None = None,
) -> tuple[int, Info | None]:
    """The player's move for `state` (a copy is searched) and what it reported.

    Runs in a worker thread; `on_info` is called from that thread.
    """
    game, side = state.game, state.to_move
    engine: Any = getattr(player, "engine", None)
    live = hasattr(engine, "on_iteration")

    def iteration(result: Any) -> None:
        info = describe(game, result, side)
        if info is not None:
            on_info(info)

    start = time.perf_counter()
    if live:
        saved, engine.on_iteration = engine.on_iteration, iteration
    try:
        if _takes(player.choose, "stop"):
            move = player.choose(state.copy(), time_limit, stop)
        else:
            move = player.choose(state.copy(), time_limit)
    finally:
        if live:
            engine.on_iteration = saved
    info = describe(game, getattr(player, "last_result", None), side)
    if info is None or info["move"] != game.format_move(move):
        info = {"move": game.format_move(move), "time": round(time.perf_counter() - start, 3)}
    info["stopped"] = stop.is_set()
    return move, info
