"""An AI's move off the event loop, with live progress and a stop button.

`think(player, state, stop, on_info)` runs `player.choose` (call it in a
worker thread).  When the player searches through an engine (a
`SearchPlayer` and its subclasses hold one in `player.engine`), the engine
is wrapped for the length of the call:

- *live progress*: an engine whose `search` takes `on_iteration` (the
  alpha-beta family's `Searcher`) reports every finished depth to
  `on_info`, as a JSON-ready dict (depth, score, PV in notation, nodes, nps);
- *stop*: `Searcher` calls its public `order(state, moves)` hook at every
  inner node; for the call it gets one that raises `SearchStopped` once
  `stop` is set (and otherwise defers to the engine's own order).  The
  search treats that like a spent time budget: it unwinds and returns the
  best move found so far, so "stop" means "move now".

Players without such an engine (MCTS has no `on_iteration`; HexiFence's
chain player and Hadron's solver run their own loops) still think in the
worker thread and report what they did when they are done (their
`last_result`); a stop request makes them move at their time limit, which
the page says.  A proper library hook would be a `stop` event (or
`should_stop()` callable) and an `on_iteration` callback taken by
`Player.choose`, `Searcher.search` and `MCTS.search` alike.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable
from typing import Any

from ..errors import SearchStopped
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
    search = getattr(engine, "search", None)
    if search is None:
        return {"live": False, "stoppable": False}
    return {"live": _takes(search, "on_iteration"), "stoppable": hasattr(engine, "order")}


class LiveEngine:
    """Stands in for a player's engine during one `choose`: streams iterations
    to `on_info` and stops the search when `stop` is set."""

    def __init__(
        self, engine: Any, game: Game, side: int, stop: threading.Event, on_info: OnInfo
    ) -> None:
        self.engine = engine
        self.game = game
        self.side = side
        self.stop = stop
        self.on_info = on_info
        self.last: Any = None

    def __getattr__(self, name: str) -> Any:  # clear(), tt, ... reach the real engine
        return getattr(self.engine, name)

    def _iteration(self, result: Any) -> None:
        self.last = result
        info = describe(self.game, result, self.side)
        if info is not None:
            self.on_info(info)

    def _stoppable(self, order: Callable[..., Any] | None) -> Callable[..., Any]:
        stop = self.stop

        def stoppable(state: State, moves: list[int]) -> list[int]:
            if stop.is_set():
                raise SearchStopped("stopped from the web page")
            return order(state, moves) if order is not None else moves

        return stoppable

    def search(self, state: State, *args: Any, **limits: Any) -> Any:
        """The engine's search with the caller's limits (a `Limits` or keywords)."""
        engine = self.engine
        if _takes(engine.search, "on_iteration"):
            limits["on_iteration"] = self._iteration
        stoppable = hasattr(engine, "order")
        original = getattr(engine, "order", None)
        if stoppable:
            engine.order = self._stoppable(original)
        try:
            return engine.search(state, *args, **limits)
        except SearchStopped:
            # Stopped before the deepening loop began (in the root ordering):
            # the last finished iteration, or the first legal move.
            if self.last is not None:
                return self.last
            from ..search import SearchResult

            return SearchResult(state.legal_moves()[0], completed=False)
        finally:
            if stoppable:
                engine.order = original


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
    engine = getattr(player, "engine", None)
    live = LiveEngine(engine, game, side, stop, on_info) if hasattr(engine, "search") else None
    start = time.perf_counter()
    if live is not None:
        player.engine = live  # type: ignore[attr-defined]  # SearchPlayer and kin
    try:
        move = player.choose(state.copy(), time_limit)
    finally:
        if live is not None:
            player.engine = engine  # type: ignore[attr-defined]
    info = describe(game, getattr(player, "last_result", None), side)
    if info is None or info["move"] != game.format_move(move):
        info = {"move": game.format_move(move), "time": round(time.perf_counter() - start, 3)}
    info["stopped"] = stop.is_set()
    return move, info
