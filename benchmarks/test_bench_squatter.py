"""Squatter speed: make/undo, the capture check, evaluators, a timed search.

Run with `pytest benchmarks/test_bench_squatter.py -m benchmark`.
"""

from __future__ import annotations

import pytest
from bench_helpers import make_undo_all

from boardgames.game import get_game
from boardgames.games.squatter.experts import Seed001, Seed003, Territory
from boardgames.search import Searcher

pytestmark = pytest.mark.benchmark


def middle(size: int):
    return get_game("squatter", size=size).benchmark_positions()["middle"]


@pytest.mark.parametrize("size", [6, 7])
def test_make_undo(benchmark, size):
    state = middle(size)
    benchmark(make_undo_all, state)


def test_capture_and_undo(benchmark):
    # The move that closes the oracle diamond: flood fill + capture + undo.
    game = get_game("squatter", size=6)
    state = game.replay(["A2", "F6", "B1", "F5", "B3", "F4"])
    move = game.parse_move("C2")

    def run():
        state.make(move)
        state.undo()

    benchmark(run)
    state.make(move)
    assert state.scores() == (1, 0)


@pytest.mark.parametrize("evaluator", [Seed001, Seed003, Territory], ids=lambda e: e.__name__)
def test_evaluator(benchmark, evaluator):
    """Territory's threat scan is cached here (one position): see the next test."""
    state = middle(7)
    ev = evaluator()
    benchmark(ev, state)


def test_threat_scan_uncached(benchmark):
    """Both players' closing cells from scratch: Territory's cost on a cache miss."""
    from boardgames.games.squatter.experts import closing_cells

    state = middle(7)

    def run():
        closing_cells(state, 0)
        closing_cells(state, 1)

    benchmark(run)


@pytest.mark.parametrize("size", [6, 7])
def test_search_fixed_depth(benchmark, size):
    state = middle(size)

    def run():
        return Searcher(Territory()).search(state, depth=3)

    result = benchmark.pedantic(run, rounds=3, iterations=1)
    assert result.depth == 3


@pytest.mark.parametrize("size", [6, 7])
@pytest.mark.parametrize("ai", ["default", "seed001", "seed003"])
def test_two_second_search(benchmark, size, ai):
    """Depth reached and nodes/s in 2 s (the figures in docs/squatter.md)."""
    from boardgames.ai import make_player

    game = get_game("squatter", size=size)
    state = game.benchmark_positions()["middle"]
    player = make_player(game, f"{ai}:time=2" + (",depth=40" if ai != "seed003" else ""))

    def run():
        player.reset()
        player.choose(state)
        return player.last_result

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info.update(depth=result.depth, nodes=result.nodes, nps=round(result.nps))
    summary = f"depth {result.depth}, {result.nodes} nodes, {result.nps:.0f} nodes/s"
    print(f"\n{ai} {size}x{size}: {summary}")
    assert result.depth >= 2
