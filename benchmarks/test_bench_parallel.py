"""Parallel search and solving: two processes sharing a table against one.

    pytest benchmarks/test_bench_parallel.py -m benchmark -s

Wall times, alternately with one process and two, on a machine with at
least two cores; the figures printed are the ratios (one process's time /
two processes' time).  The target is 1.5; the assertions keep a margin for
a loaded machine.  On a shared Linux machine, run them in a session of
their own with a higher autogroup priority, or other sessions' processes
take CPU from both processes of a parallel search at once (see
docs/results/parallel-search.md):

    setsid sh -c 'echo -10 > /proc/self/autogroup;
                  pytest benchmarks/test_bench_parallel.py -m benchmark -s'

`tools/parallel_search.py` measures the same cases in fresh processes,
with memory.
"""

from __future__ import annotations

import os
import statistics
import time

import pytest

from boardgames.ai import make_player
from boardgames.budget import Limits
from boardgames.registry import get_game
from boardgames.solving.position import solve_position

pytestmark = [
    pytest.mark.benchmark,
    pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="needs two cores"),
]

#: The lowest ratio accepted (the target is 1.5).
FLOOR = 1.2

SEARCHES = [
    ("squatter", "", 8),
    ("hadron", "", 6),
    ("andantino", "I10 I9 J11 I11 H9 H10 H8 G8", 10),
]


def time_to_depth(game_name: str, moves: str, depth: int, threads: int) -> tuple[float, float]:
    """(seconds to `depth` for the game's default AI, its score), helpers started first."""
    game = get_game(game_name)
    state = game.replay(moves.split())
    player = make_player(game, f"default:threads={threads}")
    engine = player.engine
    try:
        engine.search(state.copy(), Limits(depth=1))  # the helpers start once a game
        engine.clear()
        started = time.perf_counter()
        result = engine.search(state.copy(), Limits(depth=depth))
        return time.perf_counter() - started, result.score
    finally:
        player.close()


@pytest.mark.parametrize(("game_name", "moves", "depth"), SEARCHES)
def test_two_processes_reach_a_depth_sooner(game_name, moves, depth):
    ratios = []
    for round_ in range(3):
        times = {}
        for threads in (1, 2) if round_ % 2 == 0 else (2, 1):
            times[threads], score = time_to_depth(game_name, moves, depth, threads)
            times[threads, "score"] = score
        assert times[1, "score"] == times[2, "score"]  # the one-process value
        ratios.append(times[1] / times[2])
    print(f"\n{game_name} depth {depth}: ratios {', '.join(f'{r:.2f}' for r in ratios)}, "
          f"load {os.getloadavg()[0]:.2f}")
    assert statistics.median(ratios) >= FLOOR


@pytest.mark.parametrize(("game_name", "options"), [
    ("squatter", {"size": 5}),
    ("dots", {"rows": 3, "cols": 4}),
])
def test_two_processes_solve_sooner(game_name, options):
    state = get_game(game_name, **options).new_state()
    times, values = {}, {}
    for threads in (1, 2):
        started = time.perf_counter()
        values[threads] = solve_position(state, threads=threads).value
        times[threads] = time.perf_counter() - started
    assert values[1] == values[2]
    ratio = times[1] / times[2]
    print(f"\n{game_name} {options}: {times[1]:.1f} s alone, {times[2]:.1f} s with two "
          f"processes: ratio {ratio:.2f}, load {os.getloadavg()[0]:.2f}")
    assert ratio >= FLOOR
