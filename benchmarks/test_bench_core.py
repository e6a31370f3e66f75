"""Speed benchmarks of the search core on Connect Four (pytest-benchmark).

    pytest benchmarks -m benchmark

Figures that compare two programs are measured in one run, alternately,
because the machine may be shared; the asserted targets are ratios.
"""

from __future__ import annotations

from statistics import median
from time import process_time

import connect_four  # noqa: F401  (registers the game)
import easyai_compare
import pytest
import reference_negamax
from bench_helpers import make_undo_all

from boardgames.budget import Limits
from boardgames.registry import get_game
from boardgames.search import MCTS, Searcher, solve

pytestmark = pytest.mark.benchmark


def test_plain_alphabeta_against_the_reference(benchmark):
    """The engine's plain alpha-beta against a hand-written single-game
    negamax searching the very same tree: the target is 0.95 (the
    median of five rounds measured 0.96-0.98); the assertion keeps a margin
    for a loaded machine."""
    figures = reference_negamax.compare(depth=10, rounds=5)
    print(
        f"\nreference {figures['reference_nps']:,.0f} nodes/s, "
        f"bare negamax on the same game {figures['protocol_nps']:,.0f} nodes/s, "
        f"engine {figures['engine_nps']:,.0f} nodes/s, ratio {figures['ratio']:.2f} "
        f"(rounds {', '.join(f'{r:.2f}' for r in figures['ratios'])}; "
        f"core alone {figures['core_ratio']:.2f})"
    )
    benchmark.extra_info.update(figures)
    benchmark.pedantic(reference_negamax.engine_search, args=(10,), rounds=3, iterations=1)
    assert figures["ratio"] >= 0.9
    # The core costs little over a bare negamax on the same game.
    assert figures["core_ratio"] >= 0.8


@pytest.mark.skipif(not easyai_compare.easyai_available(), reason="easyAI is not installed")
def test_default_searcher_against_easyai(benchmark):
    """Depth 8 from the start against easyAI's Negamax(8): the target is
    150x (measured 155-170x in CPU time); asserted with a margin."""
    figures = easyai_compare.compare(depth=8)
    print(
        f"\neasyAI {figures['easyai_seconds']:.2f} s, engine {figures['engine_seconds']:.4f} s, "
        f"speed-up {figures['speedup']:.0f}x"
    )
    benchmark.extra_info.update(figures)
    benchmark.pedantic(easyai_compare.engine_search, args=(8,), rounds=3, iterations=1)
    assert figures["speedup"] >= 120


def _cpu(run) -> float:
    start = process_time()
    run()
    return process_time() - start


def test_short_search_allocates_a_small_table(benchmark):
    """A 0.05 s / depth-2 search with its Searcher built: the growing table
    (the default) against a fixed table of the same cap, alternately."""
    state = get_game("connect4").new_state()
    limits = Limits(depth=2, time=0.05)

    def growing():
        return Searcher().search(state, limits)

    def fixed():
        return Searcher(tt_start=1 << 18).search(state, limits)

    growing(), fixed()
    times = {"growing": [], "fixed": []}
    for _ in range(7):
        times["growing"].append(_cpu(growing))
        times["fixed"].append(_cpu(fixed))
    figures = {name: median(runs) for name, runs in times.items()}
    print(
        f"\nshort search: growing table {1000 * figures['growing']:.2f} ms, "
        f"fixed 2^18 {1000 * figures['fixed']:.2f} ms CPU"
    )
    benchmark.extra_info.update(figures)
    benchmark.pedantic(growing, rounds=5, iterations=1)
    assert figures["fixed"] >= 3 * figures["growing"]


def test_long_search_keeps_its_speed_with_a_growing_table(benchmark):
    """Depth 13 of Connect Four (about 165k nodes, the table grows to its
    cap): nodes/s and time to depth against a fixed table, alternately."""
    state = get_game("connect4").new_state()
    runs = {"growing": [], "fixed": []}
    for _ in range(3):
        for name, start in (("growing", 1 << 12), ("fixed", 1 << 18)):
            searcher = Searcher(tt_start=start)
            t0 = process_time()
            result = searcher.search(state, depth=13)
            runs[name].append((process_time() - t0, result.nodes))
            assert searcher.tt is not None and searcher.tt.size == 1 << 18
    time = {name: median(t for t, _ in r) for name, r in runs.items()}
    nps = {name: median(n / t for t, n in r) for name, r in runs.items()}
    print(
        f"\ndepth 13: growing {time['growing']:.3f} s ({nps['growing']:,.0f} nodes/s), "
        f"fixed {time['fixed']:.3f} s ({nps['fixed']:,.0f} nodes/s)"
    )
    benchmark.extra_info.update({"time": time, "nps": nps})
    benchmark.pedantic(lambda: Searcher().search(state, depth=11), rounds=3, iterations=1)
    assert nps["growing"] >= 0.95 * nps["fixed"]
    assert time["growing"] <= 1.1 * time["fixed"]


def test_connect_four_make_undo(benchmark):
    """Every move of a middle-game position made and taken back."""
    state = get_game("connect4").replay(list("ddcceeb"))
    benchmark(make_undo_all, state)


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
