"""Hadron speed: perft, make/undo, the move list, both evaluators, the solver,
a fixed-depth search.

Run with `pytest benchmarks/test_bench_hadron.py -m benchmark`; add `-s` to
see the depth / nodes-per-second line of the timed search.
"""

from __future__ import annotations

import pytest
from bench_helpers import make_undo_all

from boardgames.game import perft
from boardgames.games.hadron.experts import Aenigma, scan_specials
from boardgames.games.hadron.regions import Regions
from boardgames.registry import get_game
from boardgames.search import Searcher
from boardgames.solving.position import solve_position

pytestmark = pytest.mark.benchmark

GAME = get_game("hadron")
POSITIONS = GAME.benchmark_positions()


def test_perft_3(benchmark):
    assert benchmark(perft, GAME.new_state(), 3) == 446720


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_make_undo(benchmark, name):
    benchmark(make_undo_all, POSITIONS[name].copy())


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_legal_moves(benchmark, name):
    state = POSITIONS[name]
    assert len(benchmark(state.legal_moves)) == state.legal.bit_count()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_scan_specials(benchmark, name):
    state = POSITIONS[name]
    assert benchmark(scan_specials, state).legal == state.legal.bit_count()


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_aenigma(benchmark, name):
    benchmark(Aenigma(noise=0), POSITIONS[name])


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_regions(benchmark, name):
    benchmark(Regions(), POSITIONS[name])


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_regions_by_flood_fill(benchmark, name):
    """The region by region reading that `Regions.analyse` replaces (for the ratio)."""
    state = POSITIONS[name]
    assert benchmark(Regions().analyse_regions, state) == Regions().analyse(state)


@pytest.mark.parametrize(("rows", "cols", "winner"), [(4, 4, 1), (3, 5, 0), (3, 6, 0)])
def test_solve(benchmark, rows, cols, winner):
    game = get_game("hadron", rows=rows, cols=cols)
    result = benchmark.pedantic(solve_position, (game.new_state(),), rounds=1, iterations=1)
    assert result.winner == winner


def test_search_depth_3_opening(benchmark):
    state = POSITIONS["opening"]

    def run():
        return Searcher(Regions(), tt_size=1 << 16).search(state.copy(), depth=3)

    result = benchmark.pedantic(run, rounds=2, iterations=1)
    print(f"\nhadron depth {result.depth}: {result.nodes} nodes, {result.nps:.0f} nodes/s")
    assert result.move in state.legal_moves()
