"""The stop signal: `Limits.stop`, in a search's or a move's limits, makes every AI move now."""

from __future__ import annotations

import pickle
import threading
import time

import pytest

from boardgames import get_game
from boardgames.ai import ai_names, make_player
from boardgames.budget import Budget, Limits
from boardgames.errors import OptionError, SearchStopped
from boardgames.search import MCTS, Searcher
from support.builtin_games import BUILTIN_GAMES

#: Long enough that only the stop signal can end the move in the test's time.
LONG = 60.0


def test_stop_is_not_part_of_the_limits_value():
    event = threading.Event()
    assert Limits(3, 1.0, stop=event) == Limits(3, 1.0)
    assert hash(Limits(3, 1.0, stop=event)) == hash(Limits(3, 1.0))
    assert "stop" not in repr(Limits(3, stop=event))
    assert pickle.loads(pickle.dumps(Limits(3, 1.0))) == Limits(3, 1.0)


def test_a_stop_without_is_set_is_refused():
    with pytest.raises(OptionError, match="stop must have an is_set"):
        Limits(stop=True)  # type: ignore[arg-type]


def test_budget_raises_once_the_stop_is_set():
    event = threading.Event()
    budget = Budget(Limits(stop=event))
    checkpoint = budget.first_checkpoint(0)
    assert checkpoint < 1 << 62  # a stop makes the budget poll like a timed one
    assert budget.check(checkpoint) > checkpoint and not budget.expired()
    event.set()
    assert budget.expired()
    with pytest.raises(SearchStopped):
        budget.check(checkpoint + 1)


@pytest.mark.parametrize("engine", [Searcher, MCTS])
def test_engines_stop_with_a_stop_set_before_they_start(engine):
    game = get_game("squatter")
    state = game.new_state()
    event = threading.Event()
    event.set()
    started = time.perf_counter()
    result = engine().search(state, Limits(time=LONG, stop=event))
    assert time.perf_counter() - started < 1.0
    assert result.move in state.legal_moves() and state.history == []


def _midgame(game):
    positions = game.benchmark_positions()
    state = next(iter(positions.values())) if positions else game.new_state()
    assert not state.is_over()
    return state


CASES = [
    (name, spec)
    for name in BUILTIN_GAMES
    for spec in ai_names(get_game(name))
    if spec not in ("human", "random")
]


@pytest.mark.parametrize("name, spec", CASES)
def test_every_ai_moves_now_when_stopped(name, spec):
    game = get_game(name)
    state = _midgame(game)
    player = make_player(game, spec, time=LONG)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    started = time.perf_counter()
    try:
        move = player.choose(state, Limits(time=LONG, stop=stop))
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 2.0
    assert state.illegal_reason(move) is None


class PluginPlayer:
    """A plugin player (no library base class): choose(state, limits)."""

    name = "plugin"
    timed = True
    last_result = None

    def choose(self, state, limits=None):
        self.given = limits
        return state.legal_moves()[0]


def test_a_plugin_player_gets_the_stop_signal_in_its_limits():
    from boardgames.web.thinking import capabilities, think

    game = get_game("squatter")
    player = PluginPlayer()
    assert capabilities(player) == {"live": False, "stoppable": True}
    stop = threading.Event()
    move, info = think(player, game.new_state(), stop, lambda info: None, time_limit=2.0)
    assert move == game.new_state().legal_moves()[0] and not info["stopped"]
    assert player.given.stop is stop and player.given.time == 2.0


def test_a_watcher_set_on_the_searcher_sees_every_finished_depth():
    searcher = Searcher()
    seen, given = [], []
    searcher.on_iteration = lambda result: seen.append(result.depth)
    state = get_game("squatter", size=4).new_state()
    searcher.search(state, Limits(depth=4), on_iteration=lambda r: given.append(r.depth))
    assert seen == given == [1, 2, 3, 4]


def test_the_mcts_tree_stops_growing_at_its_cap():
    def size(node):
        return 1 + sum(size(child) for child in node.children)

    state = get_game("squatter").new_state()
    engine = MCTS(seed=1, max_tree=50)
    roots = []
    original = engine._run

    def run(state, root, *args):
        roots.append(root)
        return original(state, root, *args)

    engine._run = run
    result = engine.search(state, Limits(nodes=400))
    assert result.nodes == 400 and state.illegal_reason(result.move) is None
    assert size(roots[0]) == 50
    with pytest.raises(OptionError):
        MCTS(max_tree=0)
