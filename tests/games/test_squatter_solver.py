"""Squatter's exact solver (games/squatter/solver.py) and the facts it rests
on (games/squatter/potential.py), against brute force and the generic solver.

Why dead cells may be passed over (potential.py): a region X captures is a
4-connected set of cells off the border whose 4-neighbours are all live X
stones at that moment; the cells that can ever hold a live X stone ("walls":
free cells, X's live stones, X's captured stones) only become fewer, so the
capturable cells only become fewer; a captured region lies inside them and
its loop next to them.  A free cell outside and away from both colours'
capturable cells is therefore never captured and never part of a loop.  The
tests below check each step on positions of random games: every region
actually captured lies in `capturable` as computed before, dead cells stay
dead, filling a dead cell with either colour leaves the brute-force value
unchanged, and the bounds hold.
"""

from __future__ import annotations

import random
import threading

import pytest

from boardgames.budget import Limits
from boardgames.errors import SearchStopped
from boardgames.games.squatter.potential import capturable, dead_cells, upper_bound
from boardgames.games.squatter.rules import SquatterState
from boardgames.games.squatter.solver import SquatterSolver
from boardgames.registry import get_game
from boardgames.search import solve as generic_solve
from boardgames.solving.position import solve_position, solver_info

_MEMO: dict[tuple[int, ...], int] = {}


def brute(state: SquatterState, memo: dict | None = None) -> int:
    """Final margin for the side to move: plain negamax over every free cell
    (corners and all), memoised on the exact position (no symmetry)."""
    memo = _MEMO if memo is None else memo
    if not state.free:
        a, b = state.scores()
        return a - b if state.to_move == 0 else b - a
    key = (state.game.size, *state.stones, *state.terr, *state.dead, state.free, state.to_move)
    value = memo.get(key)
    if value is None:
        value = -999
        for move in state.legal_moves():
            state.make(move)
            value = max(value, -brute(state, memo))
            state.undo()
        memo[key] = value
    return value


def random_position(rng: random.Random, size: int, free_left: int) -> SquatterState:
    """A position of a random game with `free_left` free cells, steered
    towards the middle so that loops and captures happen."""
    state = get_game("squatter", size=size).new_state()
    while state.free.bit_count() > free_left:
        moves = state.legal_moves()
        if rng.random() < 0.7:
            moves = moves[: max(3, len(moves) // 2)]
        state.make(rng.choice(moves))
    return state


def positions(count: int, seed: int, sizes=(4, 5, 5, 6), free=(6, 11)) -> list[SquatterState]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = random_position(rng, rng.choice(sizes), rng.randint(*free))
        if state.free:
            found.append(state)
    return found


# --- hand-checked boards --------------------------------------------------------------------


def test_3x3_is_a_draw_and_every_first_move_keeps_it():
    # Only B2 can ever be captured, by four stones of one colour round it;
    # the opponent breaks that with one stone: no one scores.
    game = get_game("squatter", size=3)
    result = SquatterSolver(game).solve(game.new_state(), all_moves=True)
    assert (result.value, result.winner) == (0, None)
    assert sorted(result.best) == list(range(9))


def test_a_closing_move_wins_its_cell():
    # 4 x 4, White's A2 B1 B3 round B2, Black to move with C2 free: Black
    # must block at C2, after which nothing more can be captured.
    game = get_game("squatter", size=4)
    state = game.replay(["A2", "D4", "B1", "D3", "B3"])
    result = SquatterSolver(game).solve(state, all_moves=True)
    assert result.value == brute(state.copy())
    assert [game.format_move(m) for m in result.best] == ["C2"]
    # White to move in the same shape closes the diamond: +1 at least.
    state = game.replay(["A2", "D4", "B1", "D3", "B3", "D2"])
    result = SquatterSolver(game).solve(state)
    assert result.value == brute(state.copy()) >= 1
    assert game.format_move(result.best[0]) == "C2"


def test_corners_are_dead_from_the_start():
    game = get_game("squatter", size=6)
    assert dead_cells(game.new_state()) == game.geometry.corners


# --- the facts behind the pruning ----------------------------------------------------------


def _captured_later(state: SquatterState, depth: int, found: list[int]) -> None:
    """found[p] |= every cell p's captures take in the next `depth` plies."""
    if depth == 0 or not state.free:
        return
    for move in state.legal_moves():
        p = state.to_move
        before = state.terr[p]
        state.make(move)
        found[p] |= state.terr[p] & ~before
        _captured_later(state, depth - 1, found)
        state.undo()


def test_captures_stay_inside_capturable():
    for state in positions(40, seed=3, sizes=(5, 6), free=(6, 9)):
        geo = state.game.geometry
        reach = [
            capturable(geo, state.free, state.stones[p], state.dead[p]) for p in (0, 1)
        ]
        found = [0, 0]
        _captured_later(state, 4, found)
        for p in (0, 1):
            assert found[p] & ~reach[p] == 0


def test_dead_cells_stay_dead_and_do_not_matter():
    for state in positions(60, seed=4, free=(5, 9)):
        dead = dead_cells(state)
        if not dead:
            continue
        value = brute(state.copy())
        for cell in (dead & -dead).bit_length() - 1, dead.bit_length() - 1:
            for first in (0, 1):
                # Fill the dead cell with a stone of colour `first`, the
                # side to move unchanged: the value must not change.
                copy = state.copy()
                side = copy.to_move
                copy.to_move = first
                copy.make(cell)
                copy.to_move = side
                assert brute(copy) == value
                assert dead_cells(copy) & dead == dead & ~(1 << cell)


def test_bounds_bracket_the_value():
    for state in positions(60, seed=5, free=(6, 9)):
        geo = state.game.geometry
        me, op = state.to_move, 1 - state.to_move
        reach = [capturable(geo, state.free, state.stones[p], state.dead[p]) for p in (0, 1)]
        value = brute(state.copy())
        assert -upper_bound(state, op, reach[op]) <= value <= upper_bound(state, me, reach[me])


# --- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "count, free",
    [(40, (6, 9)), pytest.param(200, (8, 12), marks=pytest.mark.slow)],
)
def test_values_and_best_moves_match_brute_force(count, free):
    won = 0
    for state in positions(count, seed=6, free=free):
        solver = SquatterSolver(state.game, tt_cap=1 << 10)
        value = brute(state.copy())
        won += value != 0
        result = solver.solve(state, all_moves=True)
        assert result.value == value
        # Every move named best keeps the value, and every move that does is named.
        keeping = []
        for move in state.legal_moves():
            state.make(move)
            if -brute(state) == value:
                keeping.append(move)
            state.undo()
        assert sorted(result.best) == sorted(keeping)
        outcome = solver.solve(state, outcome=True)
        assert outcome.value == (value > 0) - (value < 0)
    assert won >= count // 5  # not only dead draws


@pytest.mark.parametrize(
    "switches",
    [
        {"passes": False},
        {"bounds": False},
        {"order": False},
        {"symmetry": False},
        {"passes": False, "bounds": False, "order": False, "symmetry": False},
        {"tt_cap": 64},
    ],
)
def test_every_switch_keeps_the_value(switches):
    for state in positions(25, seed=7, free=(6, 9)):
        assert SquatterSolver(state.game, **switches).solve(state).value == brute(state.copy())


def test_4x4_is_a_draw_like_the_generic_solver_says():
    game = get_game("squatter", size=4)
    result = SquatterSolver(game).solve(game.new_state(), all_moves=True)
    assert (result.value, result.winner) == (0, None)
    assert len(result.best) == 16  # every first move keeps the draw


def test_agrees_with_the_generic_solver_on_5x5_middle_games():
    for state in positions(6, seed=8, sizes=(5,), free=(11, 13)):
        assert SquatterSolver(state.game).solve(state).value == generic_solve(state).value


@pytest.mark.slow
def test_5x5_is_a_draw():
    game = get_game("squatter", size=5)
    result = SquatterSolver(game).solve(game.new_state())
    assert (result.value, result.winner) == (0, None)


@pytest.mark.slow
def test_5x5_every_first_move_draws():
    # docs/squatter.md: C3, B3, B2, A3, A2 and A1 up to symmetry (a few minutes).
    game = get_game("squatter", size=5)
    result = SquatterSolver(game).solve(game.new_state(), outcome=True, all_moves=True)
    assert result.value == 0 and sorted(result.best) == list(range(25))


# --- the interface --------------------------------------------------------------------------


def test_limits_raise_and_leave_the_state():
    game = get_game("squatter", size=5)
    state = game.replay(["C3"])
    before = state.to_text()
    with pytest.raises(SearchStopped):
        SquatterSolver(game).solve(state, Limits(nodes=500))
    stop = threading.Event()
    stop.set()
    with pytest.raises(SearchStopped):
        SquatterSolver(game).solve(state, Limits(stop=stop))
    with pytest.raises(SearchStopped):
        SquatterSolver(game).solve(state, Limits(time=0.01))
    assert state.to_text() == before and state.history == [game.parse_move("C3")]
    assert state.to_move == 1


def test_registered_for_the_solve_command():
    game = get_game("squatter", size=4)
    assert solver_info(game).own
    state = game.replay(["A2", "D4", "B1", "D3", "B3", "D2"])
    assert solve_position(state).value == brute(state.copy())


def test_a_finished_game_and_a_principal_line():
    game = get_game("squatter", size=4)
    state = game.replay(["A2", "D4", "B1", "D3", "B3", "D2"])
    solver = SquatterSolver(game)
    value = solver.solve(state).value
    line = solver.principal_line(state)
    end = state.copy()
    for move in line:
        end.make(move)
    assert not end.free
    a, b = end.scores()
    assert (a - b) == value  # White to move at the start of the line
    result = solver.solve(end)
    assert result.best == []
    assert result.value == (b - a if end.to_move else a - b)


def test_windows_bound_the_exact_value():
    from boardgames.solution import EXACT, LOWER, UPPER

    for state in positions(15, seed=9, free=(6, 9)):
        value = brute(state.copy())
        solver = SquatterSolver(state.game)
        for alpha, beta in ((value - 2, value + 2), (value, value + 1), (value - 1, value),
                            (float("-inf"), value - 0.5), (value + 0.5, float("inf"))):
            result = solver.solve(state, window=(alpha, beta))
            if result.bound == EXACT:
                assert result.value == value and alpha < value < beta
                assert result.best
            elif result.bound == LOWER:
                assert value >= result.value >= beta
            else:
                assert result.bound == UPPER and value <= result.value <= alpha


def test_lines_replay_to_the_value():
    for state in positions(10, seed=10, free=(6, 10)):
        solver = SquatterSolver(state.game)
        for outcome in (False, True):
            result = solver.solve(state, line=True, outcome=outcome)
            end = state.copy()
            for move in result.line:
                end.make(move)
            assert not end.free
            a, b = end.scores()
            margin = a - b if state.to_move == 0 else b - a
            assert (margin if not outcome else (margin > 0) - (margin < 0)) == result.value


def test_the_session_keeps_its_table():
    from boardgames.solving.position import solver_for

    game = get_game("squatter", size=5)
    session = solver_for(game, reuse=True)
    assert isinstance(session, SquatterSolver)
    state = positions(1, seed=11, sizes=(5,), free=(10, 10))[0]
    first = session.solve(state)
    again = session.solve(state)
    assert again.value == first.value and again.nodes < first.nodes
