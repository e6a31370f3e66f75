"""Dots-and-boxes on the shared edge-capture engine: rules, text, solver, players."""

from __future__ import annotations

import random

import pytest

from boardgames.ai import make_player
from boardgames.ai.hexifence.players import capture_choice
from boardgames.budget import Limits
from boardgames.errors import NotationError
from boardgames.games.hexifence.experts import components, loony_value
from boardgames.registry import get_game
from boardgames.solving.position import solve_position
from support.edge_reference import brute_force
from support.protocol_checks import check_protocol


@pytest.mark.parametrize(("rows", "cols", "frames"), [(1, 1, 8), (1, 2, 4), (3, 3, 8), (2, 3, 4)])
def test_sizes_and_symmetries(rows, cols, frames):
    game = get_game("dots", rows=rows, cols=cols)
    assert game.num_cells == rows * cols
    assert game.num_moves == rows * (cols + 1) + cols * (rows + 1)
    assert len(game.symmetries) == frames


@pytest.mark.parametrize(("rows", "cols"), [(2, 3), (3, 3)])
def test_protocol(rows, cols):
    check_protocol(get_game("dots", rows=rows, cols=cols), examples=10)


def test_line_drawing_round_trip():
    game = get_game("dots", rows=2, cols=3)
    rng = random.Random(9)
    state = game.new_state()
    while not state.is_over():
        state.make(rng.choice(state.legal_moves()))
        again = game.parse_position(state.to_text())
        assert again.to_text() == state.to_text()
        assert again.scores() == state.scores() and again.to_move == state.to_move


def test_bad_drawings():
    game = get_game("dots")
    for text in ["", "+--+\n", "+---+\n| x |\n+---+\n", "+---+\n|   |\n+---+\nto move: third\n"]:
        with pytest.raises(NotationError):
            game.parse_position(text)


@pytest.mark.parametrize(("rows", "cols", "value"), [(1, 1, -1), (1, 2, 0), (2, 1, 0)])
def test_hand_solved_tiny_boards(rows, cols, value):
    """1 x 1: the fourth edge (second player's) takes the box.  1 x 2: a draw."""
    state = get_game("dots", rows=rows, cols=cols).new_state()
    assert brute_force(state) == value
    result = solve_position(state)
    assert result.value == value


def test_two_by_two_first_player_wins_by_two():
    state = get_game("dots", rows=2, cols=2).new_state()
    assert solve_position(state).value == 2


def two_chains_of_three():
    """2 x 3 with every horizontal edge claimed: two chains of three boxes."""
    game = get_game("dots", rows=2, cols=3)
    state = game.new_state()
    for move in range(game.num_moves):
        if game.layout.edge_points[move][0] % 2 == 0:
            state.make(move)
    return state


def test_chains_and_loony_value():
    state = two_chains_of_three()
    assert sorted(components(state)) == [(0, 3), (0, 3)]
    # The opener of the first chain loses: 3 then the controller keeps control: 2-4.
    assert loony_value(state) == -2


def test_default_double_deals_to_keep_control():
    state = two_chains_of_three()
    game = state.game
    state.play(game.parse_move("B1"))  # open the top chain at its left end
    mover = state.to_move
    state.play(game.parse_move("B3"))  # take the first box
    assert state.to_move == mover
    caps = state.captures()
    move = capture_choice(state, caps)
    assert game.format_move(move) == "B7"  # the far edge: hand back the last two
    player = make_player(game, "default", exact=0, seed=1)
    assert player.choose(state) == move


def test_players_finish_games():
    game = get_game("dots", rows=3, cols=3)
    players = [make_player(game, "default", seed=1), make_player(game, "seed", seed=2)]
    state = game.new_state()
    while not state.is_over():
        state.play(players[state.to_move].choose(state, Limits(time=2.0)))
    assert sum(state.scores()) == 9
