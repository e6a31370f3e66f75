"""The Hadron solver: values against an independent brute force, its
parts against their definitions, and the solved boards as regression tests.

The brute force below has its own rules (a board tuple, neighbours counted
cell by cell, a memo on the whole board), shares no code with the library,
and solves every board up to 4 x 4 in well under a second.
"""

from __future__ import annotations

import random
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardgames.budget import Limits
from boardgames.errors import SearchStopped
from boardgames.games.hadron.cgt import ZERO
from boardgames.games.hadron.solver import HadronSolver
from boardgames.registry import get_game

RELAXED = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))


class BruteForce:
    """Who wins each position of an R x C board, by plain memoized negamax."""

    def __init__(self, rows: int, cols: int) -> None:
        self.cols = cols
        self.n = rows * cols
        self.around = [
            [(r + dr) * cols + c + dc for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
             if 0 <= r + dr < rows and 0 <= c + dc < cols]
            for r in range(rows) for c in range(cols)
        ]
        self.memo: dict[tuple[int, ...], bool] = {}

    def legal(self, board: tuple[int, ...]) -> list[int]:
        """Empty cells (0) with as many White (1) as Black (2) neighbours."""
        moves = []
        for i in range(self.n):
            if board[i] == 0:
                colours = [board[j] for j in self.around[i]]
                if colours.count(1) == colours.count(2):
                    moves.append(i)
        return moves

    def wins(self, board: tuple[int, ...]) -> bool:
        """True iff the side to move (White when the stones are even) wins."""
        known = self.memo.get(board)
        if known is None:
            colour = 1 if sum(1 for v in board if v) % 2 == 0 else 2
            known = any(
                not self.wins(board[:i] + (colour,) + board[i + 1:]) for i in self.legal(board)
            )
            self.memo[board] = known
        return known

    def board(self, moves: list[int]) -> tuple[int, ...]:
        board = [0] * self.n
        for ply, move in enumerate(moves):
            assert move in self.legal(tuple(board))
            board[move] = 1 + ply % 2
        return tuple(board)

    def winning_moves(self, moves: list[int]) -> list[int]:
        board = self.board(moves)
        colour = 1 + len(moves) % 2
        return [i for i in self.legal(board)
                if not self.wins(board[:i] + (colour,) + board[i + 1:])]


def random_position(game, rng: random.Random, plies: int):
    state = game.new_state()
    for _ in range(plies):
        if state.is_over():
            break
        state.make(rng.choice(state.legal_moves()))
    return state


# --- the root of small boards, against brute force -----------------------------------------
@pytest.mark.parametrize(("rows", "cols"), [
    (1, 1), (1, 2), (1, 5), (1, 8), (1, 12), (2, 2), (2, 3), (2, 5), (2, 7), (3, 3), (3, 4),
    (2, 6), (4, 4), (3, 5),
])
def test_every_winning_first_move_matches_brute_force(rows, cols):
    game = get_game("hadron", rows=rows, cols=cols)
    result = HadronSolver(game).solve(game.new_state(), all_moves=True)
    expected = BruteForce(rows, cols).winning_moves([])
    assert sorted(result.best) == expected
    assert result.value == (1 if expected else -1)
    assert result.winner == (0 if expected else 1)


@pytest.mark.parametrize("switches", [
    {}, {"split": 0}, {"split": 1}, {"split": 6}, {"symmetry": False}, {"mirror": False},
    {"etc": 0}, {"etc": 99}, {"max_entries": 50}, {"max_entries": 0},
])
@pytest.mark.parametrize(("rows", "cols", "plies"), [(3, 4, 2), (4, 4, 3), (3, 5, 4), (2, 6, 1)])
def test_random_positions_match_brute_force_with_every_switch(switches, rows, cols, plies):
    game = get_game("hadron", rows=rows, cols=cols)
    brute = BruteForce(rows, cols)
    rng = random.Random(rows * 100 + cols * 10 + plies)
    solver = HadronSolver(game, **switches)
    for _ in range(6):
        state = random_position(game, rng, plies)
        result = solver.solve(state, all_moves=True)
        assert sorted(result.best) == brute.winning_moves(state.history)


@RELAXED
@given(
    size=st.sampled_from([(3, 3), (3, 4), (4, 4), (2, 6), (3, 5), (1, 9), (4, 3)]),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 9),
)
def test_the_regions_values_alone_decide_like_brute_force(size, seed, plies):
    """With every region replaced by its value (split above the board), the
    solver answers from the sum of partizan values alone; it must agree with
    brute force for the side to move, whoever that is."""
    game = get_game("hadron", rows=size[0], cols=size[1])
    # Whole boards of 15 cells or more take seconds to value: start them later.
    plies = max(plies, 3) if game.cells >= 15 else plies
    state = random_position(game, random.Random(seed), plies)
    solver = HadronSolver(game, split=game.cells)
    assert solver.node(state)[0] == 0  # nothing left on the board: all in s
    assert solver.wins(state) == BruteForce(*size).wins(BruteForce(*size).board(state.history))


# --- the parts against their definitions -------------------------------------------------
def walk(game, seed: int, steps: int = 30):
    """The states of a random walk of makes and undos on one state object."""
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(steps):
        if state.history and (state.is_over() or rng.random() < 0.3):
            state.undo()
        else:
            state.make(rng.choice(state.legal_moves()))
        yield state


@RELAXED
@given(
    size=st.tuples(st.integers(1, 7), st.integers(1, 7)),
    seed=st.integers(0, 2**32 - 1),
    split=st.sampled_from([0, 1, 4, 6]),
)
def test_a_move_on_a_node_equals_the_node_of_the_position_after_it(size, seed, split):
    """`play` (the search's incremental step: planes, deaths, hashes, regions
    taken off) gives the node built from scratch from the position after the
    move (`node`: the live cells as the greatest set with |d| <= live
    neighbours, found by iteration)."""
    game = get_game("hadron", rows=size[0], cols=size[1])
    solver = HadronSolver(game, split=split)
    for state in walk(game, seed):
        if state.is_over():
            continue
        node = solver.node(state)
        for move in state.legal_moves():
            if not node[1] >> move & 1:
                continue  # a cell of a small region: a move inside s
            state.make(move)
            after = solver.node(state)
            state.undo()
            assert solver.play(move, *node) == after


def test_a_cell_killed_outright_kills_its_neighbours_in_turn():
    """5 x 3 after A1 B2 A3 B3 E2 B1 D1 C1, White D3: D2 gets a third White
    neighbour (dead at once), which leaves C2 (two Black neighbours) with one
    live neighbour, C3: dead too.  (The step once missed the second death.)"""
    game = get_game("hadron", rows=5, cols=3)
    solver = HadronSolver(game, split=0)
    state = game.replay(["A1", "B2", "A3", "B3", "E2", "B1", "D1", "C1"])
    node = solver.node(state)
    state.play("D3")
    assert solver.play(game.parse_move("D3"), *node) == solver.node(state)
    assert solver.node(state)[0] == 1 << game.parse_move("C3")


@RELAXED
@given(size=st.sampled_from([(3, 3), (4, 4), (3, 5), (5, 5), (2, 6), (4, 6)]),
       seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 8))
def test_symmetric_positions_share_a_key(size, seed, plies):
    game = get_game("hadron", rows=size[0], cols=size[1])
    solver = HadronSolver(game)
    state = random_position(game, random.Random(seed), plies)
    key = solver.key(solver.node(state))
    for frame in game.symmetries:
        image = game.replay([frame[move] for move in state.history])
        assert solver.key(solver.node(image)) == key


def test_hadron_is_partizan_not_impartial():
    """1 x 3 after White A1: Black must play A3, which opens A2 (one stone of
    each colour) for White, who wins.  With White to move in the same region
    (the cells A2 A3, A2 one White stone up), White A3 makes A2 two White
    stones up, dead, and Black has no move.  So White wins whoever starts: an
    impartial game is won by the first or by the second player, never by the
    same player either way, so Sprague-Grundy values cannot describe Hadron.
    The region's value is up = {0 | *}, not a nimber."""
    game = get_game("hadron", rows=1, cols=3)
    solver = HadronSolver(game, split=3)
    state = game.replay(["A1"])
    assert not solver.wins(state)  # Black to move loses
    games = solver.games
    # Black to move: the region's value from Black's side is down (White's up).
    s = solver.node(state)[9]
    up = games.make([ZERO], [games.star()])
    assert s == games.neg(up)
    assert games.nim_heap(up) is None
    assert games.left_wins_first(up) and not games.right_wins_first(up)  # White either way
    brute = BruteForce(1, 3)
    assert not brute.wins(brute.board([0]))


def test_even_boards_fall_to_the_mirror_rule_at_once():
    """On even x even boards no cell touches its image under the half turn, so a
    position equal to its half-turn image with the colours swapped is 0 (the
    second player copies): the empty board is lost for White in one node, and
    every first move is answered by its image."""
    for rows, cols in [(2, 2), (4, 4), (2, 6), (4, 6), (4, 8), (6, 6)]:
        game = get_game("hadron", rows=rows, cols=cols)
        solver = HadronSolver(game)
        result = solver.solve(game.new_state(), all_moves=True)
        assert (result.value, result.best) == (-1, [])
        assert result.nodes <= 3 * rows * cols
    assert HadronSolver(get_game("hadron", rows=4, cols=4), mirror=False).solve(
        get_game("hadron", rows=4, cols=4).new_state()).value == -1


def test_antisymmetric_positions_on_an_odd_board_match_brute_force():
    """3 x 4: the half turn fixes no cell, but B2-B3 touch their images; the rule
    applies once they are settled.  Positions made of mirrored pairs."""
    game = get_game("hadron", rows=3, cols=4)
    brute = BruteForce(3, 4)
    half_turn = [game.cells - 1 - c for c in range(game.cells)]
    rng = random.Random(5)
    checked = 0
    for _ in range(200):
        state = game.new_state()
        for _ in range(rng.randint(1, 4)):
            if state.is_over():
                break
            move = rng.choice(state.legal_moves())
            state.make(move)
            if not state.legal >> half_turn[move] & 1:
                break
            state.make(half_turn[move])
        for solver in (HadronSolver(game), HadronSolver(game, mirror=False)):
            assert solver.wins(state) == brute.wins(brute.board(state.history))
        checked += 1
    assert checked == 200


# --- the driver: time, stop, table cap ---------------------------------------------------
def test_a_set_stop_signal_gives_up_at_once():
    game = get_game("hadron", rows=5, cols=5)
    stop = threading.Event()
    stop.set()
    solver = HadronSolver(game)
    with pytest.raises(SearchStopped, match=r"^solve gave up after"):
        solver.solve(game.new_state(), Limits(stop=stop))
    assert solver.nodes == 0  # the driver looks before the first root move


def test_a_stop_signal_set_from_another_thread_ends_the_solve():
    game = get_game("hadron", rows=4, cols=7)
    stop = threading.Event()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    try:
        with pytest.raises(SearchStopped):
            HadronSolver(game).solve(game.new_state(), Limits(time=60, stop=stop))
    finally:
        timer.cancel()


def test_the_clock_is_read_every_few_hundred_nodes():
    game = get_game("hadron", rows=5, cols=6)
    with pytest.raises(SearchStopped) as stopped:
        HadronSolver(game).solve(game.new_state(), Limits(time=1e-9))
    assert stopped.value.nodes == 0
    stop = threading.Event()
    solver = HadronSolver(game)
    calls = 0

    def is_set() -> bool:
        nonlocal calls
        calls += 1
        return calls > 3
    stop.is_set = is_set  # type: ignore[method-assign]
    with pytest.raises(SearchStopped):
        solver.solve(game.new_state(), Limits(stop=stop))
    assert 0 < solver.nodes <= 4 * 256  # the driver's look, then one every 256 nodes


def test_an_unset_stop_signal_changes_nothing():
    game = get_game("hadron", rows=3, cols=5)
    plain = HadronSolver(game).solve(game.new_state(), all_moves=True)
    with_stop = HadronSolver(game).solve(game.new_state(), Limits(stop=threading.Event()),
                                          all_moves=True)
    assert (plain.value, plain.best, plain.nodes) == (
        with_stop.value, with_stop.best, with_stop.nodes)


def test_no_time_gives_up():
    game = get_game("hadron", rows=5, cols=5)
    with pytest.raises(SearchStopped):
        HadronSolver(game).solve(game.new_state(), Limits(time=1e-9))


def test_a_small_table_purges_and_keeps_the_value():
    game = get_game("hadron", rows=3, cols=6)
    solver = HadronSolver(game, max_entries=300)
    result = solver.solve(game.new_state(), all_moves=True)
    assert solver.purges > 0 and len(solver.table) <= 300
    assert sorted(result.best) == sorted(
        HadronSolver(game).solve(game.new_state(), all_moves=True).best)


def test_the_state_is_left_as_it_was():
    game = get_game("hadron", rows=4, cols=4)
    state = game.replay(["B2", "C3"])
    text, legal = state.to_text(), state.legal
    HadronSolver(game).solve(state, all_moves=True)
    assert (state.to_text(), state.legal) == (text, legal)


# --- solved boards (regression) ----------------------------------------------------------
# From docs/hadron.md: values and winning first moves found by the previous
# solver (a different program: stones, Zobrist keys, no regions), checked again.
SOLVED = {
    (3, 6): "A3 A4 C3 C4 A1 A6 C1 C6",
    (4, 5): "B3 C3 A2 A4 B1 B5 C1 C5 D2 D4",
}


@pytest.mark.parametrize(("rows", "cols"), sorted(SOLVED))
def test_solved_boards_every_winning_first_move(rows, cols):
    game = get_game("hadron", rows=rows, cols=cols)
    result = HadronSolver(game).solve(game.new_state(), all_moves=True)
    assert sorted(game.format_move(m) for m in result.best) == sorted(SOLVED[rows, cols].split())


@pytest.mark.parametrize(("rows", "cols", "value"), [(5, 5, 1), (3, 7, 1), (3, 8, 1)])
def test_solved_boards_values(rows, cols, value):
    game = get_game("hadron", rows=rows, cols=cols)
    assert HadronSolver(game).solve(game.new_state()).value == value


@pytest.mark.slow
def test_four_by_five_matches_brute_force_everywhere_at_the_root():
    brute = BruteForce(4, 5)
    game = get_game("hadron", rows=4, cols=5)
    result = HadronSolver(game).solve(game.new_state(), all_moves=True)
    assert sorted(result.best) == brute.winning_moves([])


@pytest.mark.slow
def test_every_first_move_wins_on_five_by_five():
    game = get_game("hadron", rows=5, cols=5)
    result = HadronSolver(game).solve(game.new_state(), all_moves=True)
    assert sorted(result.best) == list(range(25))


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), [(4, 7), (5, 6), (6, 5)])
def test_larger_boards_are_first_player_wins(rows, cols):
    """4 x 7 as the previous solver found it; 5 x 6 and 6 x 5 (one board turned)
    solved by this one, each a check of the other."""
    game = get_game("hadron", rows=rows, cols=cols)
    result = HadronSolver(game).solve(game.new_state())
    assert result.value == 1
