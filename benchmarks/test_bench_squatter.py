"""Squatter speed: make/undo per move, the move list, the capture check, the
evaluators per call (Territory cold, with its per-stones facts known, and
from its position cache), a fixed-depth search and the AIs' depth in 2 s.

Run with `pytest benchmarks/test_bench_squatter.py -m benchmark`; add `-s`
to see the depth / nodes-per-second lines of the timed searches.
"""

from __future__ import annotations

import pytest
from bench_helpers import make_undo_all

from boardgames.games.squatter.experts import Seed001, Seed003
from boardgames.games.squatter.territory import Territory
from boardgames.registry import get_game
from boardgames.search import Searcher

pytestmark = pytest.mark.benchmark


def middle(size: int):
    return get_game("squatter", size=size).benchmark_positions()["middle"]


@pytest.mark.parametrize("size", [6, 7])
def test_make_undo(benchmark, size):
    """Every legal move of the middle game played and taken back once."""
    state = middle(size)
    benchmark(make_undo_all, state)
    benchmark.extra_info["moves per call"] = len(state.legal_moves())


@pytest.mark.parametrize("size", [6, 7])
def test_make_undo_per_move(benchmark, size):
    """One quiet move (next to own stones: the capture pre-check runs) and back."""
    state = middle(size)
    game = state.game
    move = game.parse_move("C3" if size == 6 else "D3")

    def run():
        state.make(move)
        state.undo()

    benchmark(run)


@pytest.mark.parametrize("size", [6, 7])
def test_legal_moves(benchmark, size):
    state = middle(size)
    order = state.game.geometry.static_order
    moves = benchmark(state.legal_moves)
    assert moves == [c for c in order if state.free >> c & 1]


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
    """Territory answers a position met before from its cache here: see below."""
    state = middle(7)
    ev = evaluator()
    benchmark(ev, state)


@pytest.mark.parametrize("size", [6, 7])
@pytest.mark.parametrize("cache", ["cold", "facts", "reference"])
def test_territory_per_call(benchmark, size, cache):
    """Territory on the middle game: `cold` computes everything (both
    players' stone facts, closing cells included); `facts` knows both
    players' stone facts and misses only the position cache (the usual
    leaf: the side to move's stones are its siblings'); `reference` is the
    from-scratch definition (the evaluator before #16)."""
    state = middle(size)
    ev = Territory()
    expected = ev.reference(state)
    if cache == "reference":
        assert benchmark(ev.reference, state) == expected
        return
    ev(state)

    def run():
        ev._values.clear()
        if cache == "cold":
            ev._facts[0].clear()
            ev._facts[1].clear()
        return ev(state)

    assert benchmark(run) == expected


def test_threat_scan_uncached(benchmark):
    """Both players' closing cells from scratch: Territory's cost on a cache miss."""
    from boardgames.games.squatter.territory import closing_cells

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
