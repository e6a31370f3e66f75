"""Andantino speed: perft, make/undo per move, the enclosure check, the
evaluator per call (fresh and memoised), the move order, and the default
AI's depth in 2 s on the benchmark positions.

Run with `pytest benchmarks/test_bench_andantino.py -m benchmark`; add `-s`
to see the depth / nodes-per-second lines of the timed searches.
"""

from __future__ import annotations

import pytest
from bench_helpers import make_undo_all

from boardgames.game import perft
from boardgames.games.andantino.experts import ThreatEvaluator, order_moves, seed_evaluator
from boardgames.registry import get_game
from boardgames.search import Searcher

pytestmark = pytest.mark.benchmark

GAME = get_game("andantino")
POSITIONS = GAME.benchmark_positions()


def test_perft_6(benchmark):
    state = GAME.new_state()
    assert benchmark(perft, state, 6) == 4032


def test_perft_7(benchmark):
    # The oracle stops at depth 6; 24768 is this library's count, kept as a regression check.
    state = GAME.new_state()
    assert benchmark.pedantic(perft, (state, 7), rounds=3) == 24768


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_make_undo(benchmark, name):
    benchmark(make_undo_all, POSITIONS[name].copy())


def test_enclosing_move(benchmark):
    # The oracle's winning enclosure: every stage of the check runs, flood included.
    moves = "1,0,-1 0,1,-1 1,-1,0 2,-1,-1 2,-2,0 -1,1,0 2,0,-2 -1,0,1 3,-2,-1 -2,1,1"
    state = GAME.parse_position(moves)
    move = GAME.parse_move("3,-1,-2")

    def run():
        state.make(move)
        state.undo()

    benchmark(run)
    state.make(move)
    assert state.winner() == 0


def _children(name: str) -> list:
    """Copies of every position one move after benchmark position `name`."""
    state = POSITIONS[name]
    children = []
    for move in state.legal_moves():
        state.make(move)
        children.append(state.copy())
        state.undo()
    return children


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_threat_evaluator_per_call(benchmark, name):
    """One fresh ThreatEvaluator call (its score and flood memos cleared before
    each round; the line memos stay, warm as in a search) on each child of
    the position: the cost of a new leaf.  Divide by the number of children
    (printed with -s) for the cost of one call."""
    evaluator = ThreatEvaluator()
    children = _children(name)

    def run():
        for child in children:
            evaluator(child)

    def setup():
        evaluator.clear_memos(lines=False)

    benchmark.pedantic(run, setup=setup, rounds=100, iterations=1)
    print(f"\n{name}: {len(children)} children")


def test_threat_evaluator_memoised(benchmark):
    """A call whose position was seen before (a transposition): a memo look-up."""
    evaluator = ThreatEvaluator()
    state = POSITIONS["middle-24"]
    evaluator(state)
    benchmark(evaluator, state)


def test_seed_evaluator(benchmark):
    benchmark(seed_evaluator(0.5, 1), POSITIONS["middle-24"])


def test_order_moves(benchmark):
    state = POSITIONS["middle-24"]
    benchmark(order_moves, state, state.legal_moves())


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_default_ai_two_seconds(benchmark, name):
    """The default AI's engine for 2 s: prints the depth completed and nodes/s."""
    from boardgames.ai import make_player

    def run():
        player = make_player(GAME, "default:time=2")
        player.choose(POSITIONS[name].copy())
        return player.last_result

    result = benchmark.pedantic(run, rounds=1, iterations=1)
    print(f"\n{name}: depth {result.depth}, {result.nodes} nodes, {result.nps:.0f} nodes/s")
    assert result.depth >= 2


def test_fixed_depth_search(benchmark):
    state = POSITIONS["middle-12"]

    def run():
        return Searcher(ThreatEvaluator(), order=order_moves).search(state.copy(), depth=3)

    result = benchmark.pedantic(run, rounds=2, iterations=1)
    assert result.depth == 3
