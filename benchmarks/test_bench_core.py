"""Speed benchmarks of the search core on Connect Four (pytest-benchmark).

    pytest benchmarks -m benchmark

Figures that compare two programs are measured in one run, alternately,
because the machine may be shared; the asserted targets are ratios.
"""

from __future__ import annotations

import connect_four  # noqa: F401  (registers the game)
import easyai_compare
import pytest
import reference_negamax

from boardgames.game import get_game
from boardgames.search import MCTS, Searcher, solve

pytestmark = pytest.mark.benchmark


def test_plain_alphabeta_against_the_reference(benchmark):
    """The engine's plain alpha-beta keeps at least half the speed of a
    hand-written single-game negamax searching the very same tree."""
    figures = reference_negamax.compare(depth=10, rounds=3)
    print(
        f"\nreference {figures['reference_nps']:,.0f} nodes/s, "
        f"bare negamax on the same game {figures['protocol_nps']:,.0f} nodes/s, "
        f"engine {figures['engine_nps']:,.0f} nodes/s, ratio {figures['ratio']:.2f} "
        f"(core alone {figures['core_ratio']:.2f})"
    )
    benchmark.extra_info.update(figures)
    benchmark.pedantic(reference_negamax.engine_search, args=(10,), rounds=3, iterations=1)
    assert figures["ratio"] >= 0.5
    # The core itself costs nothing over a bare negamax on the same game.
    assert figures["core_ratio"] >= 0.8


@pytest.mark.skipif(not easyai_compare.easyai_available(), reason="easyAI is not installed")
def test_default_searcher_against_easyai(benchmark):
    """Depth 8 from the start: at least 20 times faster than easyAI's Negamax(8)."""
    figures = easyai_compare.compare(depth=8)
    print(
        f"\neasyAI {figures['easyai_seconds']:.2f} s, engine {figures['engine_seconds']:.3f} s, "
        f"speed-up {figures['speedup']:.0f}x"
    )
    benchmark.extra_info.update(figures)
    benchmark.pedantic(easyai_compare.engine_search, args=(8,), rounds=3, iterations=1)
    assert figures["speedup"] >= 20


@pytest.mark.parametrize("algorithm", ["alphabeta", "negascout"])
def test_time_to_depth_9(benchmark, algorithm):
    state = get_game("connect4").new_state()

    def run():
        return Searcher(algorithm=algorithm, tt_size=1 << 16).search(state, depth=9)

    result = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["nodes"] = result.nodes
    benchmark.extra_info["first_move_cutoff_rate"] = result.first_move_cutoff_rate


def test_mcts_playouts(benchmark):
    state = get_game("connect4").new_state()
    result = benchmark.pedantic(
        lambda: MCTS(seed=1).search(state, nodes=2000), rounds=3, iterations=1
    )
    assert result.nodes == 2000


def test_solve_connect_four_endgame(benchmark):
    state = get_game("connect4").replay(list("aaaffcfddbeaeddf"))  # about 25k nodes
    result = benchmark.pedantic(lambda: solve(state), rounds=3, iterations=1)
    benchmark.extra_info["nodes"] = result.nodes
