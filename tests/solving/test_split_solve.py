"""Split solving: the same answer as one solve, whatever the split.

Every test compares `split_solve` with `solve_position` on the same
position: the same value, the same set of optimal moves with `all_moves`,
one of them without, and a principal line that replays to the value.  The
split's shape (workers, leaves, depth) and the executor (in this process,
threads, processes, Dask) must not change the answer.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path

import connect_four  # noqa: F401  (registers connect4)
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames import registry
from boardgames.cli import main
from boardgames.errors import OptionError, SearchStopped
from boardgames.game import State
from boardgames.parallel import executor_slots, open_executor
from boardgames.registry import GameEntry, get_game
from boardgames.solution import EXACT, UPPER
from boardgames.solving.position import solve_position
from boardgames.solving.split import LeafTask, solve_leaf, solve_with_workers, split_solve
from support.processes import children_gone, sigint_default
from support.solve_lines import final_value, sign
from support.strips import STRIPS

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class InProcess(Executor):
    """Runs each task at once, in this process: the split's windows are then
    as stale as with `slots` real workers, and the runs are reproducible."""

    def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
        future: Future = Future()
        future.set_result(fn(*args, **kwargs))
        return future


@pytest.fixture(autouse=True)
def strips_registered(monkeypatch):
    """The strips (support.strips) as a game the tasks can rebuild by name."""
    monkeypatch.setitem(registry._ENTRIES, "strip", GameEntry("strip", type(STRIPS["plain"])))


def strip(name: str) -> State:
    return get_game("strip", **STRIPS[name].params).new_state()


def position(name: str, options: dict, seed: int, plies: int) -> State:
    state = strip(name) if name in STRIPS else get_game(name, **options).new_state()
    rng = random.Random(seed)
    for _ in range(rng.randint(0, plies)):
        if state.is_over():
            break
        state.make(rng.choice(state.legal_moves()))
    return state


def check_same(state: State, executor: Executor, **options) -> None:
    """The split's answer is the single solve's (see the module docstring)."""
    all_moves = options.get("all_moves", False)
    outcome = options.get("outcome", False)
    single = solve_position(state, all_moves=True, outcome=outcome)
    before = (tuple(state.history), tuple(state.hashes))
    report = split_solve(state, executor, line=True, **options)
    result = report.result
    assert (tuple(state.history), tuple(state.hashes)) == before
    assert result.value == single.value and result.winner == single.winner
    if all_moves:
        assert sorted(result.best) == sorted(single.best)
    else:
        assert set(result.best) <= set(single.best) and len(result.best) == min(1, len(single.best))
    assert result.line is not None
    end = final_value(state, result.line)
    assert (sign(end) if outcome and state.game.scored else end) == result.value
    if result.best:
        assert result.line[0] in result.best


BOARDS = [
    ("dots", {"rows": 2, "cols": 2}),
    ("dots", {"rows": 2, "cols": 3}),
    ("hexifence", {"size": 1}),
    ("hadron", {"rows": 3, "cols": 3}),
    ("hadron", {"rows": 4, "cols": 4}),
    ("squatter", {"size": 3}),
    ("plain", {}),
    ("extra", {}),
    ("scored", {}),
    ("scored-noextra", {}),
]


@pytest.mark.parametrize(("name", "options"), BOARDS)
@pytest.mark.parametrize("all_moves", [False, True])
@pytest.mark.parametrize("outcome", [False, True])
def test_split_gives_the_single_answer_from_the_start(name, options, all_moves, outcome):
    state = position(name, options, 0, 0)
    check_same(state, InProcess(), all_moves=all_moves, outcome=outcome, slots=2)


@SETTINGS
@given(
    board=st.sampled_from(BOARDS),
    seed=st.integers(0, 10**6),
    all_moves=st.booleans(),
    outcome=st.booleans(),
    slots=st.integers(1, 4),
    tasks=st.integers(1, 40),
    max_depth=st.integers(1, 3),
)
def test_split_gives_the_single_answer_whatever_the_split(
    board, seed, all_moves, outcome, slots, tasks, max_depth
):
    state = position(*board, seed, 8)
    check_same(
        state,
        InProcess(),
        all_moves=all_moves,
        outcome=outcome,
        slots=slots,
        tasks=tasks,
        max_depth=max_depth,
    )


def test_connect_four_endgame_on_threads():
    state = get_game("connect4").replay(list("dddddd" "cccccc" "eeeeee"))
    with ThreadPoolExecutor(3) as executor:
        check_same(state, executor, all_moves=True, slots=3)
        check_same(state, executor, slots=3, tasks=30, max_depth=3)


def test_a_finished_game_needs_no_task():
    state = get_game("connect4").replay(list("dcdcdcd"))
    report = split_solve(state, InProcess(), line=True)
    assert report.tasks == 0 and report.result.best == [] and report.result.line == []
    assert report.result.winner == state.winner() == 0


def test_symmetric_root_moves_are_one_task():
    """Hadron 3 x 3 has 3 kinds of first move (centre, edge, corner) under its 8 symmetries."""
    state = get_game("hadron", rows=3, cols=3).new_state()
    report = split_solve(state, InProcess(), all_moves=True, tasks=1, max_depth=1)
    assert (report.depth, report.leaves, report.tasks) == (1, 3, 3)
    assert len(report.result.best) == 9


def test_windows_save_work_on_a_scored_board():
    """The generic solver takes windows: later tasks only bound their value."""
    state = strip("scored")
    with_windows = split_solve(state, InProcess(), all_moves=True, slots=1, tasks=40)
    bounds = []

    def record(task: LeafTask):
        result = solve_leaf(task)
        bounds.append(result.bound)
        return result

    class Recording(Executor):
        def submit(self, fn, /, *args, **kwargs):  # type: ignore[override]
            future: Future = Future()
            future.set_result(record(*args))
            return future

    split_solve(state, Recording(), all_moves=True, slots=1, tasks=40)
    assert len(bounds) == with_windows.tasks and EXACT in bounds
    assert any(b != EXACT for b in bounds), "no task was given a window it could use"


def test_a_leaf_task_solves_in_its_window():
    game = get_game("dots", rows=2, cols=2)
    params = tuple(sorted(game.params.items()))
    start = game.new_state().to_text()
    exact = solve_leaf(LeafTask("dots", params, start, (game.parse_move("A2"),)))
    assert exact.bound == EXACT and exact.cpu >= 0 and exact.nodes > 0
    # the edge solver takes no window: its exact value answers every window
    again = solve_leaf(LeafTask("dots", params, start, (game.parse_move("A2"),), (5, 9)))
    assert again.value == exact.value
    state = get_game("connect4").replay(list("dddddd"))
    text = state.to_text()
    low = solve_leaf(LeafTask("connect4", (), text, (), (1, 2)))
    assert low.bound == UPPER and low.value <= 1


# --- sessions: a solver kept between the tasks of a worker ---------------------------------
@pytest.fixture
def hadron_session(monkeypatch):
    """Hadron's declared solver, with no solver kept yet in this process."""
    from boardgames.solving import position

    monkeypatch.setattr(position, "_KEPT", {})
    return position


def test_a_session_keeps_its_table_between_solves(hadron_session):
    state = get_game("hadron", rows=4, cols=4).replay(["B2"])
    assert hadron_session.solver_info(state.game, reuse=True).session
    assert not hadron_session.solver_info(state.game).session
    first = solve_position(state, all_moves=True, reuse=True)
    again = solve_position(state, all_moves=True, reuse=True)
    fresh = solve_position(state, all_moves=True)
    assert (first.value, first.best) == (again.value, again.best) == (fresh.value, fresh.best)
    assert again.nodes < first.nodes == fresh.nodes


def test_the_generic_session_keeps_one_table_per_game():
    from boardgames.solving import position

    state = get_game("connect4").replay(list("dddddd" "cccccc" "eeeeee"))
    first = solve_position(state, all_moves=True, reuse=True)
    again = solve_position(state, all_moves=True, reuse=True)
    assert isinstance(position.solver_for(state.game, reuse=True), position.GenericSolver)
    assert (first.value, first.best) == (again.value, again.best)
    assert again.nodes < first.nodes


@pytest.mark.parametrize(("rows", "cols"), [(3, 3), (4, 4), (2, 5)])
def test_split_with_a_session_gives_the_single_answer(hadron_session, rows, cols):
    state = get_game("hadron", rows=rows, cols=cols).new_state()
    for all_moves in (False, True):
        check_same(state, InProcess(), all_moves=all_moves, slots=2, tasks=30)


# --- real executors -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def pool():
    with open_executor(2) as executor:
        yield executor


@pytest.mark.parametrize(
    ("name", "options", "moves"),
    [
        ("dots", {"rows": 2, "cols": 3}, ""),
        ("hadron", {"rows": 4, "cols": 4}, ""),
        ("hadron", {"rows": 4, "cols": 5}, "B3"),
        ("squatter", {"size": 4}, "B2 C3 B3"),
        ("hexifence", {"size": 1}, "A1"),
    ],
)
def test_worker_processes_give_the_single_answer(pool, name, options, moves):
    assert executor_slots(pool) == 2
    state = get_game(name, **options).replay(moves.split())
    check_same(state, pool, all_moves=True)
    check_same(state, pool, all_moves=False, tasks=20)


def test_stopped_workers_end_with_the_answer():
    """A first-player win found early: the tasks still running are stopped,
    not waited for, and no worker process is left."""
    state = get_game("hadron", rows=4, cols=5).new_state()
    before = set(multiprocessing.active_children())  # the module's pool
    report = solve_with_workers(state, workers=2, tasks=40)
    assert report.result.value == 1 and len(report.result.best) == 1
    assert children_gone(before)




def test_time_runs_out_in_the_documented_words():
    state = get_game("hadron", rows=5, cols=5).new_state()
    before = set(multiprocessing.active_children())
    started = time.perf_counter()
    with pytest.raises(SearchStopped, match=r"^solve gave up after \d+\.\d\d s"):
        solve_with_workers(state, workers=2, time=0.5, all_moves=True)
    assert time.perf_counter() - started < 20
    assert children_gone(before)


def test_no_worker_is_an_error():
    state = get_game("dots", rows=1, cols=1).new_state()
    with pytest.raises(OptionError, match="at least one worker"):
        solve_with_workers(state, workers=0)


def test_no_more_processes_than_subtrees_and_the_report_counts_those_that_ran(monkeypatch):
    """`-w 256` on a 3 x 3 board started 256 processes for 15 subtrees and
    said "on 256 worker processes" whatever ran."""
    import re

    from boardgames.solving import split as module

    opened: list[int | None] = []
    real = module.open_executor

    def recording(workers=None, scheduler=None):
        opened.append(workers)
        return real(workers, scheduler)

    monkeypatch.setattr(module, "open_executor", recording)
    state = get_game("hadron", rows=3, cols=3).new_state()
    report = solve_with_workers(state, workers=64, all_moves=True)
    assert report.result.value == solve_position(state, all_moves=True).value
    assert opened == [report.leaves] and report.leaves < 64
    assert 1 <= report.workers <= min(report.tasks, report.leaves)
    assert report.workers == len({result.pid for _, result in report.log})

    result = CliRunner().invoke(main, ["solve", "hadron", "--rows", "3", "--cols", "3", "-w", "64"])
    assert result.exit_code == 0, result.output
    assert "64 worker" not in result.stderr
    line = r"(\d+) tasks over (\d+) subtrees .*, run by (\d+) worker process"
    run_by = re.search(line, result.stderr)
    assert run_by is not None, result.stderr
    tasks, leaves, workers = map(int, run_by.groups())
    assert 1 <= workers <= min(tasks, leaves)


# --- the command --------------------------------------------------------------------------------
def _fields(output: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in output.strip().splitlines())


@pytest.mark.parametrize(
    "args",
    [
        ("hadron", "--rows", "4", "--cols", "4", "--all"),
        ("dots", "--rows", "2", "--cols", "2", "--all", "--moves", "A2"),
        ("squatter", "--size", "3", "--outcome", "--all"),
    ],
)
def test_cli_workers_give_the_same_answer(args):
    runner = CliRunner()
    single = runner.invoke(main, ["solve", *args])
    split = runner.invoke(main, ["solve", *args, "--workers", "2"])
    assert single.exit_code == 0 and split.exit_code == 0, single.output + split.output
    one, two = _fields(single.stdout), _fields(split.stdout)
    for key in ("winner", "value"):
        assert one[key] == two[key]
    assert sorted(one["best"].split()) == sorted(two["best"].split())
    assert "line" in two and "worker processes" in split.stderr and "tasks over" in split.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (("--workers", "0"), "--workers must be a whole number >= 1"),
        (("--workers", "2", "--scheduler", "tcp://127.0.0.1:1"), "not both"),
    ],
)
def test_cli_bad_split_flags(extra, message):
    result = CliRunner().invoke(main, ["solve", "dots", "--rows", "1", "--cols", "1", *extra])
    assert result.exit_code == 2 and result.stderr.startswith("error: ")
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_cli_without_the_dask_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    args = ["solve", "dots", "--rows", "1", "--cols", "1", "--scheduler", "tcp://127.0.0.1:1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "boardgames-ai[dask]" in result.stderr


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or shutil.which("pgrep") is None,
    reason="finds the workers with pgrep and /proc",
)
def test_ctrl_c_stops_the_split_and_its_workers():
    """Ctrl-C (SIGINT to the process group, as a terminal sends it): exit 130,
    one error line, and no worker process left running."""
    command = [sys.executable, "-m", "boardgames", "solve", "hadron", "--rows", "5", "--cols", "5",
               "--all", "-w", "2"]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=sigint_default,
    )
    try:
        workers: list[str] = []
        deadline = time.monotonic() + 30
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            found = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True)
            workers = found.stdout.decode().split()
        assert len(workers) == 2, "the workers did not start"
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130, stderr
    assert b"interrupted" in stderr and b"Traceback" not in stderr
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


# Last in the file: Dask leaves threads behind, and the process pools above fork.
def test_same_answer_on_a_dask_local_cluster():
    distributed = pytest.importorskip("distributed")
    boards = [
        get_game("dots", rows=2, cols=3).new_state(),
        get_game("hadron", rows=4, cols=4).new_state(),
        strip("scored"),
    ]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        open_executor(scheduler=cluster.scheduler_address) as executor,
    ):
        assert executor_slots(executor) == 2
        for state in boards:
            check_same(state, executor, all_moves=True)
            check_same(state, executor, all_moves=False)
        cli = CliRunner().invoke(
            main,
            ["solve", "hadron", "--rows", "3", "--cols", "3", "--all",
             "--scheduler", cluster.scheduler_address],
        )  # fmt: skip
        assert cli.exit_code == 0, cli.output
        assert "winner: first\nvalue: 1\n" in cli.stdout
        assert "Dask scheduler" in cli.stderr
