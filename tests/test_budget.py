"""The one budget (boardgames/budget.py): `Limits`, and the `Budget` meter that
every search, solver and AI polls instead of a clock of its own."""

from __future__ import annotations

import re
import threading
from pathlib import Path

import pytest

import boardgames.budget as budget_module
from boardgames.budget import MIN_TIME, Budget, Limits
from boardgames.errors import SearchStopped
from boardgames.players import move_limits, time_budget
from boardgames.solution import SolverBase

SRC = Path(__file__).resolve().parent.parent / "src" / "boardgames"


@pytest.fixture
def clock(monkeypatch):
    """A clock the test sets by hand (the budget's only clock)."""
    now = [0.0]
    monkeypatch.setattr(budget_module, "perf_counter", lambda: now[0])
    return now


def test_a_budget_reads_its_time(clock):
    budget = Budget(Limits(time=10.0))
    clock[0] = 4.0
    assert budget.elapsed() == 4.0 and budget.left() == 6.0 and budget.time == 10.0
    assert not budget.expired()
    clock[0] = 10.0
    assert budget.expired() and budget.left() == 0.0
    untimed = Budget()
    assert untimed.time is None and untimed.left() == float("inf") and not untimed.expired()


def test_parts_of_a_budget(clock):
    budget = Budget(Limits(depth=3, time=10.0, nodes=500))
    clock[0] = 2.0
    assert budget.share(0.5).deadline == 6.0  # half of the 8 s left
    assert budget.until(0.3).deadline == 3.0  # 30% of the whole, from the start
    assert budget.until(1.05).deadline == pytest.approx(10.5)  # into the margin
    assert budget.part(0.1).deadline == 3.0  # 10% of the whole, from now
    part = budget.share(0.5)
    assert part.time == 4.0 and part.share(0.5).deadline == 4.0  # parts have parts
    assert budget.remaining() == Limits(3, 8.0, 500)  # depth and nodes as given
    clock[0] = 12.0
    assert budget.remaining().time == MIN_TIME  # spent: the work stops at its first check
    assert budget.remaining(0.01).time == 0.01  # a search that must name a move
    assert budget.share(0.5).expired()


def test_a_budget_without_time_has_parts_without_time(clock):
    budget = Budget(Limits(depth=4))
    for part in (budget.share(0.5), budget.until(0.5), budget.part(0.5)):
        assert part.time is None and not part.expired()
    assert budget.remaining() == Limits(depth=4)
    clock[0] = 1.0
    timed = budget.with_default_time(5.0)
    assert timed.deadline == 5.0 and timed.time == 5.0  # from the budget's own start
    assert Budget(Limits(time=2.0)).with_default_time(5.0).time == 2.0


def test_the_stop_signal_reaches_every_part():
    stop = threading.Event()
    budget = Budget(Limits(time=60.0, stop=stop))
    parts = [budget.share(0.5), budget.until(0.5), budget.part(0.5), Budget(budget.remaining())]
    assert not any(part.expired() for part in parts)
    stop.set()
    assert budget.stopped() and all(part.expired() and part.stopped() for part in parts)
    assert budget.remaining().stop is stop
    with pytest.raises(SearchStopped, match=r"^search gave up after \d+\.\d\d s$"):
        budget.poll()
    with pytest.raises(SearchStopped, match=r"^solve gave up after .* \(12 nodes\)$"):
        Budget(Limits(stop=stop), what="solve").poll(12)


def test_the_node_check_stops_at_the_node_limit():
    budget = Budget(Limits(nodes=100))
    assert budget.first_checkpoint(0) == 100  # no time, no stop: no clock reads
    with pytest.raises(SearchStopped) as stopped:
        budget.check(100)
    assert stopped.value.nodes == 100


def test_move_limits_cap_the_players_own():
    stop = threading.Event()
    own = Limits(depth=6, time=2.0, nodes=10_000)
    assert move_limits(own, None) is own
    given = Limits(depth=4, time=1.0, nodes=20_000, stop=stop)
    limits = move_limits(own, given)
    assert (limits.depth, limits.nodes, limits.stop) == (4, 10_000, stop)
    assert limits.time == time_budget(2.0, 1.0) < 1.0  # inside the move's limit
    assert move_limits(Limits(), Limits(time=1.0)).time == time_budget(None, 1.0)


def test_a_fixed_interval_ignores_the_cost_of_a_node(clock):
    """The solvers' budgets check every CHECK_EVERY nodes: a stretch that took
    long (a descheduled moment) does not shrink the interval to a few nodes."""
    budget = Budget(Limits(time=10.0), every=256)
    assert budget.first_checkpoint(0) == 256
    clock[0] = 0.5  # 2 ms a node: the adaptive interval would be 1
    assert budget.check(256) == 512
    adaptive = Budget(Limits(time=10.0))
    adaptive.check(adaptive.first_checkpoint(0))
    clock[0] = 1.0
    assert adaptive.check(8) == 9
    assert budget.share(0.5).first_checkpoint(0) == 256  # its parts too


class _Table(SolverBase):
    WORK_SHIFT = 1  # an entry: work << 1 | result


def test_a_full_table_keeps_its_costlier_half():
    solver = _Table(1000)
    solver.table = {key: (key % 10) << 1 | 1 for key in range(1000)}  # works 0..9, 100 each
    solver.make_room()
    kept = solver.table
    assert solver.purges == 1 and 0 < len(kept) <= 500
    lowest = min(entry >> 1 for entry in kept.values())
    assert all(entry >> 1 >= lowest for entry in kept.values())
    assert len(kept) == sum(1 for key in range(1000) if key % 10 >= lowest)  # all of a class


def test_a_solve_counts_its_own_nodes_and_time(clock):
    solver = _Table(10)
    assert solver.begin(Limits(time=1.0)) is solver.budget
    assert solver.nodes == 0 and solver.next_check == SolverBase.CHECK_EVERY
    solver.nodes = 7
    clock[0] = 0.5
    result = solver.result(2, 1, [3])
    assert (result.value, result.winner, result.nodes, result.time) == (2, 1, 7, 0.5)
    assert solver.result(-1, 1, []).winner == 0 and solver.result(0, 1, []).winner is None
    clock[0] = 1.5
    with pytest.raises(SearchStopped):
        solver.poll()


#: Where a clock may be read outside budget.py: code that measures a player
#: (or a task, or a web request) from outside, network timeouts, and the
#: deadlines of an external program's answers.
OUTSIDE = ("match", "tournament", "web", "protocols", "programs", "cli")


def test_no_search_solver_or_ai_reads_a_clock_of_its_own():
    clock = re.compile(r"perf_counter|monotonic|time\.time\(|\bdeadline\b")
    found = []
    for path in SRC.rglob("*.py"):
        relative = path.relative_to(SRC)
        if relative.parts[0] in OUTSIDE or relative.name in ("budget.py", "clock.py"):
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if clock.search(code) and not code.lstrip().startswith(('"', "'")):
                found.append(f"{relative}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
