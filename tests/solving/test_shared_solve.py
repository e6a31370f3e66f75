"""Solving with several processes sharing one table (`solve --threads N`).

The answer is the one process's answer; the helpers end with the solve,
whatever ends it, and leave nothing in /dev/shm.
"""

from __future__ import annotations

import multiprocessing
import signal
import subprocess
import sys
import textwrap
import time

import connect_four  # noqa: F401  (registers connect4: the generic solver)
import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.errors import OptionError, SearchStopped
from boardgames.games.hexifence import solver as edge_solver
from boardgames.games.squatter import solver_node
from boardgames.registry import get_game
from boardgames.solution import SharedTable, helper_order
from boardgames.solving import shared
from boardgames.solving.position import solve_position, solver_for
from support.processes import alive, children_gone, shm_names

#: (game, options, moves): one position per solver (Squatter, edge, Hadron, generic).
POSITIONS = [
    ("squatter", {"size": 4}, ""),
    ("dots", {"rows": 2, "cols": 3}, ""),
    ("hexifence", {"size": 2}, [0, 5, 9, 14, 20, 25]),
    ("hadron", {"rows": 4, "cols": 4}, ""),
    ("hadron", {"rows": 3, "cols": 4}, ""),
    ("connect4", {}, "c f f c e f b a f d f d g b e f c c g b"),
]


# --- the shared table ---------------------------------------------------------------------
def test_the_shared_table_keeps_whole_keys_and_checks_its_entries():
    table = SharedTable(64, work_shift=4)
    assert table.get(0) is None  # a new table is empty, key 0 included
    big = (1 << 120) + 5
    table[0] = 7
    table[big] = 9 << 4
    table[5] = 3  # same low word as `big`, another key
    assert (table.get(0), table.get(big), table.get(5), table.get(6, -1)) == (7, 9 << 4, 3, -1)
    assert big in table and 6 not in table and len(table) == 3
    i = next(i for i in range(0, len(table.words), 4) if table.words[i + 2] == 9 << 4)
    table.words[i + 2] = 10 << 4  # another writer's entry behind this key's words
    assert table.get(big) is None
    with pytest.raises(OptionError, match="126 bits"):
        table[1 << 130] = 1
    table.clear()
    assert table.get(0) is None and len(table) == 0


def test_the_costlier_entry_keeps_the_first_slot_of_its_bucket():
    table = SharedTable(2, work_shift=4)  # one bucket of two slots
    table[1] = 5 << 4  # costly
    table[2] = 1 << 4  # cheap: the second slot
    table[3] = 2 << 4  # cheap: replaces the second slot
    assert table.get(1) == 5 << 4 and table.get(2) is None and table.get(3) == 2 << 4


def test_a_shared_solver_keeps_every_entry_and_shares_the_costlier_ones():
    game = get_game("squatter", size=4)
    solver = solver_for(game)
    assert solver.shared is None
    solver.share(1 << 12)
    assert solver.shared is not None
    result = solver.solve(game.replay(["B2"]))
    shared_entries, private_entries = len(solver.shared), len(solver.table)
    assert 0 < shared_entries < private_entries  # the small nodes stay private
    fresh = solve_position(game.replay(["B2"]))
    assert result.value == fresh.value


class OddMarks:
    """Equal to every odd mark: another process is on about half the moves."""

    def __init__(self, busy: HalfBusy) -> None:
        self.busy = busy

    def __eq__(self, other: object) -> bool:
        if isinstance(other, int) and other % 2:
            self.busy.found += 1
            return True
        return False

    __hash__ = None  # type: ignore[assignment]


class HalfBusy:
    """A busy array by which another process is on the moves of odd marks."""

    def __init__(self) -> None:
        self.marked = self.found = 0

    def __getitem__(self, slot: int) -> OddMarks:
        return OddMarks(self)

    def __setitem__(self, slot: int, mark: int) -> None:
        self.marked += 1


@pytest.mark.parametrize(("name", "options", "moves", "module", "constant"), [
    ("squatter", {"size": 4}, "B2", solver_node, "EXCLUSIVE_FREE"),
    ("squatter", {"size": 5}, "C3 B2 D4 B4", solver_node, "EXCLUSIVE_FREE"),
    ("dots", {"rows": 2, "cols": 3}, "", edge_solver, "EXCLUSIVE_EDGES"),
])
def test_moves_left_for_another_process_keep_the_value(name, options, moves, module, constant,
                                                       monkeypatch):
    """About half the moves after the first are busy elsewhere at every node
    deep enough: each waits for the end of its node's list, and the value
    and the optimal moves stay."""
    monkeypatch.setattr(module, constant, 6)
    game = get_game(name, **options)
    state = game.replay(moves.split())
    alone = solver_for(game).solve(state.copy(), all_moves=True)
    solver = solver_for(game)
    solver.share(1 << 12)
    solver.shared.busy = busy = HalfBusy()
    together = solver.solve(state.copy(), all_moves=True)
    assert (together.value, sorted(together.best)) == (alone.value, sorted(alone.best))
    assert busy.marked > 0 and busy.found > 0
    assert together.nodes != alone.nodes  # the order changed


# --- the helpers' order -------------------------------------------------------------------
def test_each_helper_swaps_another_pair_of_moves():
    moves = [10, 11, 12, 13]
    assert helper_order(moves, 1) == [11, 10, 12, 13]
    assert helper_order(moves, 2) == [10, 12, 11, 13]
    assert helper_order(moves, 4) == [11, 10, 12, 13]  # round again
    assert helper_order([7], 1) == [7] and helper_order([], 3) == []


@pytest.mark.parametrize("moves", ["", "B2 C3"])
def test_a_varied_squatter_solver_solves_the_same_position_in_another_order(moves):
    """Squatter's helpers run the main solve in a helper's order: the same
    value, other nodes."""
    game = get_game("squatter", size=4)
    state = game.replay(moves.split())
    plain = solver_for(game)
    varied = solver_for(game)
    assert varied.vary(1) is True
    one, other = plain.solve(state.copy()), varied.solve(state.copy())
    assert one.value == other.value
    assert one.nodes != other.nodes


@pytest.mark.parametrize(
    ("options", "moves", "value"),
    [({"rows": 4, "cols": 4}, "D1 B4", -1), ({"rows": 3, "cols": 4}, "", 1)],
)
def test_a_varied_hadron_solver_takes_the_root_moves_from_the_other_end(options, moves, value):
    """Hadron's helpers solve the root with its moves from the other end of
    the list, to meet the main process in the middle where every move must
    be refuted: the same value and winning moves, other nodes."""
    game = get_game("hadron", **options)
    state = game.replay(moves.split())
    plain = solver_for(game)
    varied = solver_for(game)
    assert varied.vary(1) is True
    one = plain.solve(state.copy(), all_moves=True)
    other = varied.solve(state.copy(), all_moves=True)
    assert one.value == other.value == value and sorted(one.best) == sorted(other.best)
    if value < 0:
        assert one.nodes != other.nodes


@pytest.mark.parametrize("index", [1, 2])
def test_a_dots_helper_solves_the_root_after_its_share(index):
    """An edge-solver helper takes on a share of the main solve's first two
    tests, then solves the root: the same value and best moves, other nodes."""
    game = get_game("dots", rows=2, cols=3)
    state = game.new_state()
    plain = solver_for(game)
    varied = solver_for(game)
    assert varied.vary(index) is True
    one = plain.solve(state.copy(), all_moves=True)
    other = varied.solve(state.copy(), all_moves=True)
    assert (one.value, sorted(one.best)) == (other.value, sorted(other.best))
    assert one.nodes != other.nodes


@pytest.mark.parametrize("moves", ["", "A2 B3"])
def test_a_dots_helpers_share_is_what_the_main_solve_looks_up(moves):
    """What a helper's share proves (`_split`, here run to the end before the
    main solve starts) is in the shared table where the main solve's first
    test looks: the main solve then needs far fewer nodes than alone."""
    game = get_game("dots", rows=2, cols=3)
    state = game.replay(moves.split())
    alone = solver_for(game).solve(state.copy())
    main, helper = solver_for(game), solver_for(game)
    main.share(1 << 14)
    helper.shared = main.shared
    helper.vary(1)
    helper._begin(state)
    helper._split(helper.free % 2)
    assert helper.nodes > 0
    helped = main.solve(state.copy())
    assert helped.value == alone.value
    assert helped.nodes < alone.nodes * 0.6, (helped.nodes, alone.nodes)


# --- the answers ------------------------------------------------------------------------------
@pytest.mark.parametrize(("name", "options", "moves"), POSITIONS)
def test_two_processes_give_the_answer_of_one(name, options, moves):
    state = get_game(name, **options).replay(moves.split() if isinstance(moves, str) else moves)
    before = set(multiprocessing.active_children())
    alone = solve_position(state, all_moves=True, line=True)
    together = solve_position(state, all_moves=True, line=True, threads=2, table=1 << 16)
    assert (together.value, together.winner, sorted(together.best)) == (
        alone.value, alone.winner, sorted(alone.best)
    )
    replay = state.copy()
    for move in together.line or []:
        replay.make(move)
    assert replay.is_over()
    assert children_gone(before)


def test_outcome_and_three_processes():
    state = get_game("squatter", size=4).new_state()
    alone = solve_position(state, outcome=True)
    assert solve_position(state, outcome=True, threads=3).value == alone.value


def test_threads_are_checked():
    state = get_game("squatter", size=4).new_state()
    with pytest.raises(OptionError, match="threads"):
        solve_position(state, threads=0)
    with pytest.raises(OptionError, match="threads"):
        solve_position(state, threads=2, reuse=True)
    with pytest.raises(OptionError, match="table"):
        solve_position(state, threads=2, table=1)


def test_a_time_limit_stops_every_process():
    state = get_game("dots", rows=3, cols=4).new_state()
    before = set(multiprocessing.active_children())
    started = time.perf_counter()
    with pytest.raises(SearchStopped, match="solve gave up"):
        solve_position(state, time=0.5, threads=2)
    assert time.perf_counter() - started < 5
    assert children_gone(before, grace=1.0)


def failing_helper(*args, **kwargs):
    raise RuntimeError("helper broke")


def test_a_failing_helper_leaves_the_answer_and_no_process(monkeypatch):
    """A helper's exception (printed on stderr by multiprocessing) changes
    nothing of the answer, and no process is left."""
    monkeypatch.setattr(shared, "helper_main", failing_helper)
    state = get_game("dots", rows=2, cols=3).new_state()
    before = set(multiprocessing.active_children())
    assert solve_position(state, threads=2).value == solve_position(state).value
    assert children_gone(before)


SCRIPT = textwrap.dedent(
    """
    import multiprocessing, threading, time
    from boardgames.registry import get_game
    from boardgames.solving.position import solve_position, solver_for

    def report():
        while True:
            helpers = [p.pid for p in multiprocessing.active_children()]
            if helpers:
                print(" ".join(map(str, helpers)), flush=True)
                return
            time.sleep(0.01)

    threading.Thread(target=report, daemon=True).start()
    solve_position(get_game("dots", rows=3, cols=4).new_state(), threads=3)
    """
)




@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL])
def test_no_helper_outlives_the_solving_process(how):
    before = shm_names()
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        pids = [int(pid) for pid in process.stdout.readline().split()]
        assert pids, process.stderr.read() if process.stderr else ""
        time.sleep(0.5)
        assert all(alive(pid) for pid in pids)
        process.send_signal(how)
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(alive(pid) for pid in pids)
        assert shm_names() <= before
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


# --- the command ------------------------------------------------------------------------------
def test_solve_threads_gives_the_same_answer():
    args = ["solve", "squatter", "--size", "4", "--all"]
    alone = CliRunner().invoke(main, args)
    together = CliRunner().invoke(main, [*args, "--threads", "2", "--table", "65536"])
    assert alone.exit_code == together.exit_code == 0, together.output
    same = [line for line in alone.stdout.splitlines() if not line.startswith(("nodes", "time"))]
    assert [line for line in together.stdout.splitlines() if line in same] == same
    assert "2 processes sharing a table" in together.stderr


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--threads", "2", "-w", "2"], "not both"),
        (["--table", "1024"], "--table"),
        (["--threads", "0"], "threads"),
    ],
)
def test_solve_threads_options_are_checked(extra, message):
    result = CliRunner().invoke(main, ["solve", "squatter", "--size", "4", *extra])
    assert result.exit_code == 2 and message in result.output
