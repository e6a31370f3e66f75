"""The 'farrugiulian' sparring partner: each stage checked against plain
minimax (tests/support/edge_reference.py, independent of the edge solver)."""

from __future__ import annotations

import time

import pytest

from boardgames.ai import make_player
from boardgames.ai.hexifence.farrugiulian import FarrugiulianPlayer
from boardgames.budget import Limits
from boardgames.registry import get_game
from support.edge_reference import final_margin, model_reaches, positions


def test_opening_takes_a_capture_else_plays_a_random_safe_edge():
    game = get_game("hexifence", size=3)
    player = FarrugiulianPlayer(seed=1)
    state = game.new_state()
    for _ in range(6):
        move = player.choose(state)
        assert move in state.safe_moves()
        assert player.last_result is not None and player.last_result.algorithm == "random"
        state.make(move)
    # offer a cell: claim edges of one cell until one is left
    cell = next(c for c in range(game.num_cells) if state.empties[c] == 6)
    for edge in game.cell_edges[cell][:5]:
        if state.claimed[edge] < 0:
            state.make(edge)
    assert state.captures()
    assert player.choose(state) in state.captures()


def test_the_opening_is_reproducible_for_a_seed():
    game = get_game("hexifence", size=3)
    moves = []
    for _ in range(2):
        player = make_player(game, "farrugiulian:seed=7")
        state = game.new_state()
        line = []
        for _ in range(8):
            line.append(player.choose(state))
            state.make(line[-1])
        moves.append(line)
    assert moves[0] == moves[1]


@pytest.mark.parametrize("seed", range(8))
def test_midgame_search_plays_a_winning_safe_edge_of_its_model(seed):
    game = get_game("hexifence", size=2)
    state = positions(game, seed, lambda s: len(s.safe_moves()) <= 6 and not s.captures())
    if not state.safe_moves():
        pytest.skip("the safe edges ran out at once")
    memo: dict[int, int] = {}
    player = FarrugiulianPlayer(time=60, seed=seed)
    move = player.choose(state)
    assert move in state.safe_moves()
    assert player.last_result is not None and player.last_result.algorithm == "search"
    if model_reaches(state, 1, memo):
        state.make(move)
        assert not model_reaches(state, 0, memo), state.history


@pytest.mark.parametrize("seed", range(10))
def test_endgame_keeps_a_win_and_baits_a_greedy_opponent_when_lost(seed):
    game = get_game("hexifence", size=2)
    state = positions(game, 50 + seed, lambda s: not s.safe_moves() and not s.captures())
    if state.is_over():
        pytest.skip("no loony position in this game")
    memo: dict[int, int] = {}
    me = state.to_move
    value = final_margin(state, memo)
    player = FarrugiulianPlayer(time=60, seed=seed)
    move = player.choose(state)
    assert player.last_result is not None
    how = player.last_result.algorithm
    state.make(move)
    after = final_margin(state, memo)
    after = after if state.to_move == me else -after
    if value > 0:
        assert after == value and how == "endgame"
    elif how == "bait":
        # the opponent takes every cell offered, then it has lost
        while not state.is_over() and state.to_move != me and state.captures():
            state.make(state.captures()[0])
        greedy = final_margin(state, memo)
        assert (greedy if state.to_move == me else -greedy) > 0
    else:
        assert after == value


def test_a_smaller_per_move_limit_wins_over_its_own_time():
    game = get_game("hexifence", size=3)
    state = positions(game, 3, lambda s: len(s.safe_moves()) <= 26 and not s.captures())
    player = FarrugiulianPlayer(seed=0)  # its own 3 s
    started = time.perf_counter()
    move = player.choose(state, Limits(time=0.5))
    assert time.perf_counter() - started < 0.55
    assert move in state.safe_moves()
    assert player.last_result is not None and player.last_result.time < 0.5


def test_it_plays_dots_too():
    game = get_game("dots", rows=2, cols=2)
    player = make_player(game, "farrugiulian:seed=1")
    state = game.new_state()
    while not state.is_over():
        state.play(player.choose(state))
    assert sum(state.scores()) == 4


def test_a_bait_cut_short_falls_back_on_the_position_as_it_is():
    """Dots 2 x 3, lost for the side to move with no safe edge and no cell on
    offer: `_bait` plays each sacrifice and the greedy replies before it
    solves.  When the budget runs out there (here: the second solve), the
    fallback reads the position itself, not one with the bait's moves left
    on it: the cheapest edge, A2."""
    from boardgames.errors import SearchStopped

    game = get_game("dots", rows=2, cols=3)
    state = game.replay("D1 C4 B3 E2 D7 C2 D3 D5 B7 E4 A4 B5")
    player = FarrugiulianPlayer(seed=1)
    solver = player._solver(game)
    real, calls = solver.solve, []

    def solve(position, limits=None, **options):
        calls.append(position.moves_text())
        if len(calls) == 2:
            raise SearchStopped("out of time")
        return real(position, limits, **options)

    solver.solve = solve  # type: ignore[method-assign]
    move = player.choose(state)
    assert player.last_result.algorithm == "fallback" and len(calls) == 2
    assert game.format_move(move) == "A2" == game.format_move(player._cheapest(state))
