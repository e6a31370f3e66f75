"""HexiFence / dots-and-boxes speed: make/undo, move generation, solver nodes/s.

    pytest benchmarks/test_bench_hexifence.py -m benchmark
"""

from __future__ import annotations

import random

import pytest

from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game

pytestmark = pytest.mark.benchmark


def random_line(game, seed: int = 1) -> list[int]:
    rng = random.Random(seed)
    state = game.new_state()
    line = []
    while not state.is_over():
        move = rng.choice(state.legal_moves())
        state.make(move)
        line.append(move)
    return line


@pytest.mark.parametrize("size", [2, 3])
def test_make_undo_full_game(benchmark, size):
    game = get_game("hexifence", size=size)
    line = random_line(game)
    state = game.new_state()

    def run():
        for move in line:
            state.make(move)
        for _ in line:
            state.undo()

    benchmark(run)
    assert state.n_empty == game.num_moves


def test_legal_moves_middle_game(benchmark):
    state = get_game("hexifence", size=3).benchmark_positions()["middle"]
    moves = benchmark(state.legal_moves)
    assert moves


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 3)])
def test_solver_dots(benchmark, rows, cols):
    game = get_game("dots", rows=rows, cols=cols)

    def run():
        return EdgeSolver(game).solve(game.new_state())

    result = benchmark.pedantic(run, rounds=3 if rows * cols > 6 else 10)
    assert result.value == {(2, 2): 2, (2, 3): -2, (3, 3): -3}[(rows, cols)]
    benchmark.extra_info["nodes"] = result.nodes


def test_solver_hexifence_2(benchmark):
    """The whole N=2 board (30 edges): the second player wins by 3."""
    game = get_game("hexifence", size=2)

    def run():
        return EdgeSolver(game).solve(game.new_state())

    result = benchmark.pedantic(run, rounds=1)
    assert result.value == -3
    benchmark.extra_info["nodes"] = result.nodes


def test_solver_hexifence_loony_position(benchmark):
    state = get_game("hexifence", size=2).benchmark_positions()["loony"]

    def run():
        return EdgeSolver(state.game).solve(state)

    benchmark.extra_info["nodes"] = benchmark(run).nodes
