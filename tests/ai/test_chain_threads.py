"""The edge games' default AI thinking with several processes (`threads`):
helpers forked once a game that make the same searches on shared tables,
and no process or segment left (the solved values of two processes are
checked with those of one in test_hexifence_default.py)."""

from __future__ import annotations

import multiprocessing
import os
import time

import pytest

from boardgames.ai import make_player, takes_option
from boardgames.ai.hexifence.default import ChainPlayer, _Helper
from boardgames.budget import Limits
from boardgames.errors import BoardgamesError, OptionError
from boardgames.registry import get_game
from support.processes import alive, children_gone, shm_names


def helper_pids(player: ChainPlayer) -> list[int]:
    assert player._helpers is not None
    return [p.pid for p in player._helpers.processes if p.pid is not None]


@pytest.mark.parametrize("name", ["hexifence", "dots"])
def test_the_default_takes_threads(name):
    game = get_game(name)
    assert takes_option(game, "default", "threads")
    assert make_player(game, "default:threads=2").threads == 2
    with pytest.raises(OptionError, match="threads"):
        make_player(game, "default:threads=0")


def test_a_game_with_two_threads_starts_its_helpers_once_and_leaves_nothing():
    game = get_game("dots", rows=2, cols=3)
    player = make_player(game, "default:threads=2,time=0.5")
    before, children = shm_names(), set(multiprocessing.active_children())
    state = game.new_state()
    pids: list[int] = []
    try:
        while not state.is_over():
            move = player.choose(state)
            assert move in state.legal_moves()
            assert player.last_result is not None and player.last_result.threads == 2
            pids = pids or helper_pids(player)
            assert helper_pids(player) == pids  # kept for the whole game
            state.make(move)
        assert len(pids) == 1 and all(alive(pid) for pid in pids)
    finally:
        player.close()
    assert player._helpers is None
    assert children_gone(children)
    assert not any(alive(pid) for pid in pids)
    assert shm_names() <= before


def test_what_a_helper_proves_the_main_process_finds():
    """A helper's thinking (run here in this process, on the main player's
    shared tables) leaves the proof of the move in the shared table: the
    main process then moves with a small part of the nodes it needs alone."""
    game = get_game("dots", rows=2, cols=4)
    state = game.new_state()
    alone = ChainPlayer(time=60, seed=0)
    alone.choose(state)
    main, copy = ChainPlayer(time=60, seed=0, threads=2), ChainPlayer(time=60, seed=0, threads=2)
    for player in (main, copy):
        player._solver(game), player._model(game)
    copy.solvers[game].shared = main.solvers[game].shared
    copy.models[game].shared = main.models[game].shared
    helper = _Helper(copy, game)
    helper.become_helper(1)
    assert copy.threads == 1
    assert helper.search(state, Limits(time=60)).algorithm == "solve"
    main.threads = 1  # the main side of the same tables, without forking
    main.choose(state)
    assert main.last_result is not None and alone.last_result is not None
    assert main.last_result.score == alone.last_result.score
    assert main.last_result.nodes < 0.05 * alone.last_result.nodes


def test_a_timed_move_with_two_threads_keeps_its_time():
    game = get_game("dots", rows=3, cols=3)
    player = ChainPlayer(seed=0, threads=2)
    try:
        player.choose(game.new_state(), Limits(time=0.05))  # the helpers start
        started = time.perf_counter()
        move = player.choose(game.new_state(), Limits(time=0.5))
        took = time.perf_counter() - started
        assert move in game.new_state().legal_moves()
        assert took < 0.5
    finally:
        player.close()


def test_an_exception_in_a_helper_is_reported_and_leaves_no_process(monkeypatch):
    main_pid = os.getpid()
    think = ChainPlayer._think

    def failing(self, state, budget):
        if os.getpid() != main_pid:
            raise RuntimeError("helper broke")
        time.sleep(0.2)  # the helper's error arrives meanwhile
        return think(self, state, budget)

    monkeypatch.setattr(ChainPlayer, "_think", failing)
    game = get_game("dots", rows=2, cols=2)
    player = ChainPlayer(time=1, seed=0, threads=2)
    before, children = shm_names(), set(multiprocessing.active_children())
    try:
        with pytest.raises(BoardgamesError, match="helper failed: RuntimeError: helper broke"):
            for _ in range(20):
                player.choose(game.new_state())
        assert player._helpers is None  # the player ended them
    finally:
        player.close()
    assert children_gone(children)
    assert shm_names() <= before
