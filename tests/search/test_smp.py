"""Lazy SMP: the shared transposition table and `Searcher(threads=N)`.

Correctness: every parallel search names a legal move, and at a fixed
depth with no other limit it returns the value one process returns.
Shutting down: no helper outlives the searcher's `close`, the end of a
match, Ctrl-C, SIGKILL of the parent or an exception in a helper, and
nothing is left in /dev/shm.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from boardgames.ai import make_player
from boardgames.busy import MASK as BUSY_MASK
from boardgames.busy import SLOTS as BUSY_SLOTS
from boardgames.errors import BoardgamesError, OptionError
from boardgames.registry import get_game
from boardgames.search import Searcher
from boardgames.search.tt import EXACT, KEY_MASK, LOWER, TranspositionTable
from support.processes import alive, shm_names

#: (game, options, moves played first, depth): small boards, a few plies.
POSITIONS = [
    ("squatter", {"size": 5}, "", 5),
    ("hadron", {"rows": 5, "cols": 5}, "", 4),
    ("andantino", {}, "", 4),
    ("dots", {"rows": 2, "cols": 3}, "", 5),
    ("hexifence", {"size": 2}, "", 4),
]


def all_gone(pids: list[int], grace: float = 10.0) -> bool:
    deadline = time.monotonic() + grace
    while any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def helper_pids(searcher: Searcher) -> list[int]:
    assert searcher._helpers is not None
    return [p.pid for p in searcher._helpers.processes if p.pid is not None]


# --- the shared table ----------------------------------------------------------------
def test_a_shared_table_keeps_entries_as_a_private_one_does():
    shared, private = TranspositionTable(64, shared=True), TranspositionTable(64, start=None)
    for table in (shared, private):
        table.new_search()
        table.store(12345, 3, 7.5, LOWER, 4)
        table.store(999, 2, -1.0, EXACT, -1)
    for key in (12345, 999, 5):
        assert shared.entry(key) == private.entry(key)
    assert shared.used() == private.used() == 2
    shared.clear()
    assert shared.entry(12345) is None and shared.used() == 0


def test_a_mixed_entry_of_two_writers_reads_as_none():
    """A field written by another process between the fields of one write
    breaks the seal: the entry is not used."""
    table = TranspositionTable(64, shared=True)
    table.new_search()
    table.store(12345, 3, 7.5, LOWER, 4)
    i = table.probe(12345)
    table.values[i] = 8.5  # another writer's value, this writer's other fields
    assert table.entry(12345) is None
    table.values[i] = 7.5
    assert table.entry(12345) is not None
    table.moves[i] = 5
    assert table.entry(12345) is None


def test_a_mixed_entry_is_not_used_by_the_search():
    """The node function reads a shared entry only behind its seal: a broken
    seal on a winning score must not change the search's value."""
    game = get_game("squatter", size=4)
    state = game.new_state()
    searcher = Searcher(algorithm="alphabeta", tt_size=1 << 12)
    expected = searcher.search(state, depth=3).score
    table = TranspositionTable(1 << 12, shared=True)
    searcher.tt = table
    assert searcher.search(state, depth=3).score == expected
    # Every entry's value replaced by a huge score without resealing.
    for i in range(table.size):
        if table.keys[i] >= 0:
            table.values[i] = 1e6
            table.bounds[i] = EXACT
    table.generation -= 1  # the next search does not age the entries away
    assert searcher.search(state, depth=3).score == expected


def test_forked_processes_share_the_table():
    table = TranspositionTable(64, shared=True)
    table.new_search()
    pid = os.fork()
    if pid == 0:  # the child writes
        table.store(4242, 5, 1.25, EXACT, 3)
        os._exit(0)
    os.waitpid(pid, 0)
    entry = table.entry(4242)
    assert entry is not None and (entry.depth, entry.value, entry.move) == (5, 1.25, 3)


# --- sharing the work: moves another process is searching wait ---------------------------
class Anything:
    """Equal to every key: the mark of a child that is always busy."""

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = None  # type: ignore[assignment]


class EverythingBusy:
    """A `busy` array by which another process is searching every position."""

    def __init__(self) -> None:
        self.written: list[int] = []

    def __getitem__(self, slot: int) -> Anything:
        return Anything()

    def __setitem__(self, slot: int, mark: int) -> None:
        self.written.append(mark)


@pytest.mark.parametrize(("name", "options", "moves", "depth"), POSITIONS)
@pytest.mark.parametrize("algorithm", ["alphabeta", "negascout"])
def test_moves_put_off_for_another_process_keep_the_value(name, options, moves, depth, algorithm):
    """Every move but the first is busy elsewhere: each waits for the end
    of its node's move list, and the search finds the value all the same."""
    state = get_game(name, **options).replay(moves.split())
    alone = Searcher(algorithm=algorithm).search(state, depth=depth)
    searcher = Searcher(algorithm=algorithm)
    assert searcher.tt is not None
    searcher.tt.busy = busy = EverythingBusy()  # type: ignore[assignment]
    together = searcher.search(state, depth=depth)
    assert together.score == alone.score
    assert together.move in state.legal_moves()
    assert together.deferred > 0 and busy.written
    assert "deferred:" in together.summary(state.game)


def test_a_search_marks_the_positions_it_is_searching_and_clears_them():
    game = get_game("squatter", size=5)
    state = game.new_state()
    table = TranspositionTable(1 << 12, shared=True)
    assert table.busy is not None and len(table.busy) == BUSY_SLOTS
    seen: list[int] = []
    evaluate = game.default_evaluator()

    def watching(position):  # a leaf: its ancestors at depth >= 3 are marked
        seen.append(sum(1 for mark in table.busy.tolist() if mark))
        return evaluate(position)

    searcher = Searcher(algorithm="alphabeta", evaluator=watching)
    searcher.tt = table
    result = searcher.search(state, depth=5)
    assert result.deferred == 0  # one process: nothing is busy elsewhere
    assert max(seen) >= 1
    assert not any(table.busy.tolist())  # every mark cleared on the way back


def test_a_mark_is_the_key_of_the_position_in_its_slot():
    """What another process finds: the position's hash in slot hash & BUSY_MASK."""
    game = get_game("hadron", rows=5, cols=5)
    state = game.new_state()
    table = TranspositionTable(1 << 10, shared=True)
    marks: dict[int, int] = {}
    evaluate = game.default_evaluator()

    def watching(position):
        for slot, mark in enumerate(table.busy.tolist()):
            if mark:
                marks[slot] = mark
        return evaluate(position)

    searcher = Searcher(algorithm="alphabeta", evaluator=watching)
    searcher.tt = table
    searcher.search(state, depth=4)
    grandchildren = set()  # marked by the nodes of depth 3 (EXCLUSIVE_DEPTH)
    for move in state.legal_moves():
        child = state.copy()
        child.make(move)
        for reply in child.legal_moves():
            child.make(reply)
            grandchildren.add(child.hashes[0] & KEY_MASK)
            child.undo()
    assert marks and all(slot == mark & BUSY_MASK for slot, mark in marks.items())
    assert grandchildren & set(marks.values())


def test_marks_left_by_a_stopped_search_are_cleared():
    table = TranspositionTable(64, shared=True)
    assert table.busy is not None
    table.busy[5] = 12345
    table.clear_busy()
    assert not any(table.busy.tolist())
    table.busy[7] = 99
    table.clear()
    assert not any(table.busy.tolist())
    assert TranspositionTable(64).busy is None  # a private table keeps no marks


# --- the parallel search -----------------------------------------------------------------
@pytest.mark.parametrize(("name", "options", "moves", "depth"), POSITIONS)
@pytest.mark.parametrize("algorithm", ["alphabeta", "negascout"])
def test_two_threads_find_the_value_of_one_at_a_fixed_depth(name, options, moves, depth, algorithm):
    state = get_game(name, **options).replay(moves.split())
    alone = Searcher(algorithm=algorithm).search(state, depth=depth)
    searcher = Searcher(algorithm=algorithm, threads=2)
    try:
        for _ in range(2):  # a second search with the helpers already running
            together = searcher.search(state, depth=depth)
            assert together.score == alone.score
            assert together.depth == depth and together.move in state.legal_moves()
            searcher.clear()
    finally:
        searcher.close()


@pytest.mark.parametrize(("name", "options", "moves", "depth"), POSITIONS[:3])
def test_helpers_keep_to_the_root_moves(name, options, moves, depth):
    """A parallel search kept to some root moves (a player's own checks ruled
    the others out): the helpers keep to them too, so neither a value nor a
    move of theirs comes from another root move.  Every move but the best
    is kept, and three processes search: the third runs an iteration
    ahead, so its results are often the deepest."""
    state = get_game(name, **options).replay(moves.split())
    best = Searcher().search(state, depth=depth).move
    kept = [m for m in state.legal_moves() if m != best]
    alone = Searcher().search(state, depth=depth, root_moves=kept)
    searcher = Searcher(threads=3)
    try:
        together = searcher.search(state, depth=depth, root_moves=kept)
        assert together.score == alone.score and together.move in kept
        for _ in range(4):
            searcher.clear()
            timed = searcher.search(state, time=0.2, root_moves=kept)
            assert timed.move in kept and timed.pv[0] == timed.move
    finally:
        searcher.close()


def test_settings_changed_after_the_fork_reach_the_helpers():
    """The helpers are forked copies of the searcher: an `order` hook (here
    one that keeps the root to some moves) or an evaluator set between two
    searches makes the next search fork new helpers that have it."""
    state = get_game("hadron", rows=5, cols=5).replay([])
    best = Searcher().search(state, depth=4).move
    kept = [m for m in state.legal_moves() if m != best]
    root = len(state.history)

    def keep_at_root(s, moves):
        return [m for m in moves if m in kept] if len(s.history) == root else moves

    searcher = Searcher(threads=3)
    try:
        searcher.search(state, depth=2)  # forks the helpers, without the hook
        first = helper_pids(searcher)
        searcher.order = keep_at_root
        for _ in range(4):
            searcher.clear()
            timed = searcher.search(state, time=0.2)
            assert timed.move in kept and timed.pv[0] == timed.move
        second = helper_pids(searcher)
        assert not set(first) & set(second)
        searcher.search(state, depth=2)
        assert helper_pids(searcher) == second  # unchanged settings keep them
        searcher.evaluator = lambda s: 0.0
        assert searcher.search(state, depth=3).score == 0.0
        assert not set(helper_pids(searcher)) & set(second)
    finally:
        searcher.close()
    assert all_gone(first + second)


@pytest.mark.parametrize("name", ["squatter", "hadron", "andantino"])
def test_each_default_ai_plays_legal_moves_with_two_threads(name):
    game = get_game(name)
    player = make_player(game, "default:threads=2,time=0.2")
    state = game.new_state()
    try:
        for _ in range(3):
            move = player.choose(state)
            assert move in state.legal_moves()
            state.make(move)
        assert player.engine._helpers is not None  # it searched in parallel
        pids = helper_pids(player.engine)
    finally:
        player.close()
    assert all_gone(pids)


def test_helpers_start_once_and_follow_the_game():
    """The helpers are forked at the first search and kept: later searches
    send them the moves, as do searches of another position of the game."""
    game = get_game("squatter", size=5)
    searcher = Searcher(threads=2)
    state = game.new_state()
    try:
        searcher.search(state, depth=2)
        pids = helper_pids(searcher)
        for move in state.legal_moves()[:3]:
            state.make(move)
            result = searcher.search(state, depth=3)
            assert result.move in state.legal_moves()
        other = game.replay(game.new_state().legal_moves()[-2:])
        assert searcher.search(other, depth=3).score == Searcher().search(other, depth=3).score
        assert helper_pids(searcher) == pids
    finally:
        searcher.close()
    assert all_gone(pids)


def test_a_timed_parallel_search_keeps_its_time():
    game = get_game("squatter")
    searcher = Searcher(threads=2)
    try:
        searcher.search(game.new_state(), depth=1)  # the helpers start
        started = time.perf_counter()
        result = searcher.search(game.new_state(), time=0.3)
        took = time.perf_counter() - started
        assert result.move in game.new_state().legal_moves()
        assert took < 0.3 + 0.25
    finally:
        searcher.close()


def test_threads_are_checked():
    with pytest.raises(OptionError, match="threads"):
        Searcher(threads=0)
    with pytest.raises(OptionError, match="threads"):
        Searcher(threads=2, tt_size=0)
    with pytest.raises(OptionError, match="threads"):
        Searcher(algorithm="minimax", threads=2)
    game = get_game("squatter")
    with pytest.raises(OptionError, match="threads"):
        make_player(game, "alphabeta:threads=0")
    with pytest.raises(OptionError, match="threads"):
        make_player(game, "minimax:threads=2")


def failing_evaluator(main: int):
    """An evaluator that raises in every process but `main`."""

    def evaluate(state):
        if os.getpid() != main:
            raise RuntimeError("helper evaluator broke")
        return 0.0

    return evaluate


def test_an_exception_in_a_helper_is_reported_and_leaves_no_process():
    game = get_game("squatter", size=5)
    searcher = Searcher(failing_evaluator(os.getpid()), threads=2)
    before, children = shm_names(), set(multiprocessing.active_children())
    try:
        with pytest.raises(BoardgamesError, match="helper failed: RuntimeError: helper evaluator"):
            for _ in range(50):  # the helper's error reaches the main search
                searcher.search(game.new_state(), depth=4)
                time.sleep(0.05)
        assert searcher._helpers is None  # the searcher ended them
        # The next search starts new helpers (which fail again).
        with pytest.raises(BoardgamesError, match="helper"):
            for _ in range(50):
                searcher.search(game.new_state(), depth=4)
                time.sleep(0.05)
    finally:
        searcher.close()
    deadline = time.monotonic() + 10
    while set(multiprocessing.active_children()) - children and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not set(multiprocessing.active_children()) - children
    assert shm_names() <= before


# --- shutting down from outside -------------------------------------------------------------
SCRIPT = textwrap.dedent(
    """
    import sys
    from boardgames.registry import get_game
    from boardgames.search import Searcher
    searcher = Searcher(threads=3)
    state = get_game("squatter").new_state()
    searcher.search(state, depth=1)
    print(" ".join(str(p.pid) for p in searcher._helpers.processes), flush=True)
    searcher.search(state, time=60)
    """
)


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGKILL, signal.SIGTERM])
def test_no_helper_outlives_its_parent(how):
    """Ctrl-C, SIGTERM or SIGKILL of the process that searches, in the middle
    of a search: its helpers end too and no shared segment is left."""
    before = shm_names()
    process = subprocess.Popen(
        [sys.executable, "-c", SCRIPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        pids = [int(pid) for pid in line.split()]
        assert len(pids) == 2, process.stderr.read() if process.stderr else line
        time.sleep(0.5)  # searching
        assert all(alive(pid) for pid in pids)
        process.send_signal(how)
        process.wait(timeout=30)
        assert all_gone(pids)
        assert shm_names() <= before
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate()


def test_a_match_ends_its_helpers(tmp_path):
    """`boardgames match` with threads: no helper is left when it ends."""
    before = shm_names()
    script = textwrap.dedent(
        """
        import multiprocessing, sys
        from boardgames.cli import main
        try:
            main(["match", "squatter", "--size", "4", "--ai",
                  "alphabeta:threads=2,depth=2", "--ai2", "random", "--games", "2"])
        except SystemExit as exit:
            code = exit.code
        print("LEFT", len(multiprocessing.active_children()), flush=True)
        sys.exit(code)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    assert "LEFT 0" in result.stdout
    assert shm_names() <= before
