"""A player's endgame solver on several cores (`SolverHelpers`): helpers
forked at the first solve and kept for the game, the answer of one
process, what a helper proves found by the player's solve, and no process
or segment left behind."""

from __future__ import annotations

import multiprocessing

import pytest

from boardgames.ai import make_player
from boardgames.budget import Limits
from boardgames.registry import get_game
from boardgames.solving.position import solver_for
from boardgames.solving.shared import SolverHelpers, _SolveMirror
from support.processes import alive, children_gone, shm_names

#: (game, options, moves, solve options) for each player's solver.
CASES = [
    ("squatter", {"size": 4}, "", {"outcome": True}),
    ("hadron", {"rows": 5, "cols": 5}, "", {}),
]


def helper_pids(helpers: SolverHelpers) -> list[int]:
    assert helpers._helpers is not None
    return [p.pid for p in helpers._helpers.processes if p.pid is not None]


@pytest.mark.parametrize(("name", "options", "moves", "solve"), CASES)
def test_helpers_start_once_give_the_answer_of_one_process_and_end(name, options, moves, solve):
    game = get_game(name, **options)
    state = game.replay(moves.split())
    alone = solver_for(game).solve(state, **solve)
    before, children = shm_names(), set(multiprocessing.active_children())
    solver = solver_for(game)
    helpers = SolverHelpers(2, 1 << 16, solve)
    pids: list[int] = []
    try:
        positions = [state]
        for move in state.legal_moves()[:2]:
            positions.append(game.replay([*state.history, move]))
        for position in positions:
            with helpers.solving(solver, position, Limits(time=60)):
                result = solver.solve(position, Limits(time=60), **solve)
            pids = pids or helper_pids(helpers)
            assert helper_pids(helpers) == pids  # forked once, kept
            if position is state:
                assert (result.value, result.bound) == (alone.value, alone.bound)
        assert len(pids) == 1 and all(alive(pid) for pid in pids)
        other = solver_for(game)  # a new game's solver: new helpers
        with helpers.solving(other, state, Limits(time=60)):
            other.solve(state, **solve)
        assert helper_pids(helpers) != pids and not any(alive(pid) for pid in pids)
    finally:
        helpers.close()
    assert children_gone(children)
    assert shm_names() <= before


@pytest.mark.parametrize(("name", "options", "moves", "solve"), CASES)
def test_what_a_helper_proves_the_players_solve_finds(name, options, moves, solve):
    """A helper's solve (run here, on the main solver's shared table) leaves
    its proofs where the main solve looks them up."""
    game = get_game(name, **options)
    state = game.replay(moves.split())
    alone = solver_for(game).solve(state, **solve)
    main, copy = solver_for(game), solver_for(game)
    main.share(1 << 18)
    copy.shared = main.shared
    mirror = _SolveMirror(copy, game, solve)
    mirror.become_helper(1)
    mirror.search(state, Limits(time=60))
    result = main.solve(state, **solve)
    assert result.value == alone.value
    assert result.nodes < 0.5 * alone.nodes


def test_one_thread_starts_no_helper():
    game = get_game("squatter", size=4)
    solver = solver_for(game)
    helpers = SolverHelpers(1, 1 << 16, {})
    with helpers.solving(solver, game.new_state(), Limits(time=10)):
        solver.solve(game.new_state())
    assert helpers._helpers is None and solver.shared is None


def test_squatters_default_solves_its_endgame_with_helpers():
    game = get_game("squatter", size=5)
    state = game.replay(["C3", "B2", "C2", "B3", "C4"])
    player = make_player(game, "default:threads=2,book=false,solve_at=25,time=3")
    before, children = shm_names(), set(multiprocessing.active_children())
    try:
        move = player.choose(state)
        assert move in state.legal_moves()
        pids = helper_pids(player.solving)
        state.make(move)
        state.make(player.choose(state))
        assert helper_pids(player.solving) == pids
    finally:
        player.close()
    assert children_gone(children)
    assert shm_names() <= before
