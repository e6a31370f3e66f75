"""Time discipline: a timed choice stays within 10% + 50 ms
of its per-move limit, the referee's tolerance, for every game's default AI
and the generic search AIs, also on a loaded machine (the slow test).

Where the time went before, and what the tests below pin:
- full garbage collections walking the transposition table's 1.5 million
  list slots (30-100 ms a pass, more under load) in the middle of a search:
  the table is now arrays, and timed searches pause the collector;
- MCTS trees with parent links (reference cycles, left for the collector);
- the clock read only every ~2 ms of estimated nodes, so a run of cheap
  nodes followed by costly ones overshot: now every ~0.25 ms, and the
  interval at most doubles between reads;
- HexiFence/dots: the solver read the clock every 1024 nodes and the chain
  player used the raw limit instead of `players.time_budget`; the solver's
  table of tuples was walked by every full collection.
"""

from __future__ import annotations

import gc
import multiprocessing
import random
import time

import pytest

from boardgames.ai import make_player
from boardgames.budget import Budget, Limits
from boardgames.game import State
from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.players import time_budget
from boardgames.registry import get_game
from boardgames.search import MCTS, Searcher
from boardgames.search.tt import TranspositionTable

GAMES = ("andantino", "squatter", "hadron", "hexifence", "dots")
#: Every game's default AI, and the generic search AIs on a few games.
SPECS = [(name, "default") for name in GAMES] + [
    ("squatter", "alphabeta"),
    ("hadron", "negascout"),
    ("dots", "alphabeta"),
    ("andantino", "mcts"),
    ("hexifence", "mcts"),
]


def allowed(limit: float) -> float:
    """The referee's bound: the limit plus 10% + 50 ms (`match.play.default_tolerance`)."""
    return 1.1 * limit + 0.05


def positions(name: str, count: int, seed: int) -> list[State]:
    """The game's benchmark positions, then seeded random mid-game positions."""
    game = get_game(name)
    found = [p for p in game.benchmark_positions().values() if not p.is_over()]
    rng = random.Random(seed)
    most = min(40, max(3, game.num_moves // 2))
    while len(found) < count:
        state = game.new_state()
        for _ in range(rng.randrange(2, most)):
            moves = state.legal_moves()
            if state.is_over() or not moves:
                break
            state.make(rng.choice(moves))
        if not state.is_over() and state.legal_moves():
            found.append(state)
    return found[:count]


def slowest_choice(
    name: str, spec: str, limit: float, count: int, seed: int = 1, attempts: int = 1
) -> float:
    """The longest `choose(state, Limits(time=limit))` of one player over `count` positions.

    With `attempts` > 1 a choice over the bound is tried again (the machine
    running the tests may have descheduled it) and its best time counts: a
    player that really overruns fails every attempt.
    """
    game = get_game(name)
    player = make_player(game, spec, seed=seed)
    worst = 0.0
    for state in positions(name, count, seed):
        best = float("inf")
        for _ in range(attempts):
            started = time.perf_counter()
            move = player.choose(state, Limits(time=limit))
            best = min(best, time.perf_counter() - started)
            assert move in state.legal_moves()
            if best <= allowed(limit):
                break
        worst = max(worst, best)
    return worst


@pytest.mark.parametrize(("name", "spec"), SPECS)
def test_timed_choices_stay_within_the_referees_bound(name, spec):
    limit = 0.1
    worst = slowest_choice(name, spec, limit, 20, attempts=3)
    assert worst <= allowed(limit), f"{name} {spec}: {worst:.3f} s for a {limit} s limit"


def _busy() -> None:
    while True:
        pass


@pytest.mark.slow
def test_timed_choices_stay_within_the_bound_on_a_loaded_machine():
    """Two busy processes on the (two) cores, many choices per AI at 0.2 s.

    Measured worst choice on a shared 2-core machine with two busy loops
    (100 positions per AI): before the fixes, Andantino MCTS 364 ms, Squatter
    235 ms, and in matches HexiFence 609 ms, Hadron 341 ms; after, 152 ms.
    """
    limit = 0.2
    context = multiprocessing.get_context("spawn")
    busy = [context.Process(target=_busy, daemon=True) for _ in range(2)]
    for process in busy:
        process.start()
    try:
        time.sleep(0.3)
        report = {f"{n} {s}": slowest_choice(n, s, limit, 40, seed=7) for n, s in SPECS}
    finally:
        for process in busy:
            process.terminate()
            process.join()
    over = {k: round(v, 3) for k, v in report.items() if v > allowed(limit)}
    assert not over, f"over {allowed(limit):.3f} s: {over}"


# --- the causes, one by one ------------------------------------------------------------


def test_the_transposition_table_is_invisible_to_the_garbage_collector():
    tt = TranspositionTable(1 << 12)
    for field in (tt.keys, tt.depths, tt.values, tt.bounds, tt.moves, tt.ages):
        # What a collection walks in it: nothing but its type (a list: every slot).
        assert len(gc.get_referents(field)) <= 1
    # Keys of any size are stored (modulo 2^63): 64-bit Zobrist keys, negative hashes.
    for key in (2**64 - 1, 2**63 + 5, -12345, 0):
        tt.store(key, 3, 1.5, 0, 7)
        assert tt.entry(key) == (3, 1.5, 0, 7)


def _collections_during(run) -> tuple[int, list[bool]]:
    """(collections started, gc.isenabled() as seen from inside) while `run` runs."""
    started = []
    seen: list[bool] = []

    def callback(phase, info):
        if phase == "start":
            started.append(info["generation"])

    def watch(state):
        seen.append(gc.isenabled())
        return 0.0

    gc.callbacks.append(callback)
    try:
        run(watch)
    finally:
        gc.callbacks.remove(callback)
    return len(started), seen


def test_timed_searches_pause_the_garbage_collector():
    state = get_game("squatter").benchmark_positions()["middle"]
    assert gc.isenabled()
    _, seen = _collections_during(lambda ev: Searcher(ev, tt_size=1 << 10).search(state, time=0.05))
    assert seen and not any(seen)
    assert gc.isenabled()
    count, seen = _collections_during(
        lambda ev: MCTS(ev, playout="evaluator", seed=1).search(state, time=0.1)
    )
    assert seen and not any(seen) and count == 0
    assert gc.isenabled()
    # Depth-limited searches leave the collector alone (they may run for hours).
    _, seen = _collections_during(lambda ev: Searcher(ev, tt_size=1 << 10).search(state, depth=2))
    assert seen and all(seen)


def test_the_pause_keeps_a_caller_s_disabled_collector_disabled():
    state = get_game("dots").benchmark_positions()["middle"]
    gc.disable()
    try:
        Searcher(tt_size=1 << 10).search(state, time=0.02)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_mcts_tree_leaves_no_cyclic_garbage():
    state = get_game("hexifence").benchmark_positions()["middle"]
    from boardgames.search.mcts import Node

    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to look at it
    try:
        MCTS(seed=3).search(state, nodes=400)
        gc.collect()
        # Only the tree's own objects count: other tests' threads (Dask's, the
        # web server's) may make garbage of their own meanwhile.
        nodes = [o for o in gc.garbage if isinstance(o, Node)]
        assert not nodes  # was every node of the tree (400+)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_the_clock_is_read_often_even_when_nodes_get_slower():
    """Cheap nodes first, then costly ones: the search must still stop in time.

    The old budget read the clock after ~2 ms worth of the cheap nodes, so
    hundreds of 1 ms nodes ran past the deadline before the next read.  The
    first read after the switch still comes late (its interval was sized for
    the cheap nodes, up to a few hundred of them), so the switch lies 350 ms
    before the deadline; what is tested is that the interval stays small from
    then on."""
    state = get_game("squatter").benchmark_positions()["middle"]
    limit = 0.4
    started = time.perf_counter()
    switch, deadline = started + 0.05, started + limit
    late = []  # the costly nodes evaluated after the deadline

    def evaluator(s):
        now = time.perf_counter()
        if now > switch:
            time.sleep(0.001)
            if now > deadline:
                late.append(now)
        return 0.0

    result = Searcher(evaluator, tt_size=1 << 12).search(state, time=limit)
    assert result.move in state.legal_moves()
    # Counted, not timed: a loaded machine stretches each node's sleep, but
    # not the number of nodes between two reads of the clock.
    assert len(late) <= 5, f"{len(late)} nodes of 1 ms after the deadline"
    assert time.perf_counter() - started <= 2 * allowed(limit)


def test_cheap_nodes_between_costly_ones_do_not_widen_the_check_interval(monkeypatch):
    """Horizon evaluations (1 ms) come in runs between cheap interior nodes and
    TT hits (1 us).  An interval sized by the last window's average would grow
    over every cheap run and then let a whole run of evaluations pass unread;
    sized by the highest recent cost, it stays at one node."""
    import boardgames.budget as budget_module

    clock = [0.0]
    monkeypatch.setattr(budget_module, "perf_counter", lambda: clock[0])
    budget = Budget(Limits(time=10.0), start=0.0)
    nodes = budget.first_checkpoint(0)
    for step in range(400):
        cheap_run = step % 20 < 15  # 15 checks of cheap nodes, then 5 costly
        clock[0] += (nodes - budget.last_nodes) * (1e-6 if cheap_run else 1e-3)
        nodes = budget.check(nodes)
        if step >= 20:  # once a costly node has been seen
            assert budget.interval <= 2, (step, budget.interval)


def test_the_check_interval_at_most_doubles():
    budget = Budget(Limits(time=10.0))
    nodes = budget.first_checkpoint(0)
    seen = []
    for _ in range(30):
        previous = budget.interval
        nodes = budget.check(nodes)
        seen.append(budget.interval)
        assert budget.interval <= 2 * previous
    assert max(seen) <= Budget.MAX_INTERVAL
    # No time limit: no clock at all, one check at the node limit.
    assert Budget(Limits(nodes=500)).first_checkpoint(0) == 500


def test_the_edge_solver_table_is_invisible_to_the_garbage_collector():
    game = get_game("dots", rows=2, cols=4)
    solver = EdgeSolver(game)
    result = solver.solve(game.new_state())
    assert result.value == 2 and len(solver.table) > 1000
    assert not gc.is_tracked(solver.table)


def test_the_chain_player_keeps_to_the_time_budget(monkeypatch):
    """HexiFence/dots default: the solver gets a share of `time_budget(limit)`,
    not of the raw limit, and the whole choice stays inside that budget."""
    given = []
    real = EdgeSolver.solve

    def solve(self, state, limits=None, **kwargs):
        given.append(limits.time)
        return real(self, state, limits, **kwargs)

    monkeypatch.setattr(EdgeSolver, "solve", solve)
    game = get_game("hexifence")
    player = make_player(game, "default", seed=1)
    state = game.benchmark_positions()["middle"]
    limit = 0.2
    started = time.perf_counter()
    player.choose(state, Limits(time=limit))
    elapsed = time.perf_counter() - started
    budget = time_budget(None, limit)
    assert given and given[0] <= budget
    assert elapsed <= allowed(limit)
