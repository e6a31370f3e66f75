"""Cross-check the edge-capture engine against OpenSpiel's dots_and_boxes.

Needs the optional extra: `pip install boardgames-ai[crosscheck]`; skipped
cleanly without it.  Compared on random games: the legal moves, who moves
(extra turns after captures), the end of the game and its winner; and the
solved outcome of small boards (up to 2x2, the whole game) and of 2x2, 2x3
and 3x3 positions against OpenSpiel's own alpha-beta.
"""

from __future__ import annotations

import random
import re

import pytest

from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game

pyspiel = pytest.importorskip("pyspiel")
minimax = pytest.importorskip("open_spiel.python.algorithms.minimax")


def action_map(rows: int, cols: int) -> tuple[object, dict[int, int]]:
    """OpenSpiel's game and its action -> our move index, from the action names."""
    spiel = pyspiel.load_game(f"dots_and_boxes(num_rows={rows},num_cols={cols})")
    game = get_game("dots", rows=rows, cols=cols)
    state = spiel.new_initial_state()
    mapping = {}
    for action in state.legal_actions():
        kind, r, c = re.search(r"\((\w),(\d+),(\d+)\)", state.action_to_string(action)).groups()
        r, c = int(r), int(c)
        point = (2 * r, 2 * c + 1) if kind == "h" else (2 * r + 1, 2 * c)
        mapping[action] = game.point_to_edge[point]
    assert sorted(mapping.values()) == list(range(game.num_moves))
    return spiel, mapping


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 2)])
def test_random_games_agree(rows, cols):
    spiel, mapping = action_map(rows, cols)
    game = get_game("dots", rows=rows, cols=cols)
    rng = random.Random(rows * 10 + cols)
    for _ in range(20):
        ours, theirs = game.new_state(), spiel.new_initial_state()
        while not theirs.is_terminal():
            assert not ours.is_over()
            assert ours.to_move == theirs.current_player()
            actions = theirs.legal_actions()
            assert sorted(mapping[a] for a in actions) == sorted(ours.legal_moves())
            action = rng.choice(actions)
            theirs.apply_action(action)
            ours.play(mapping[action])
        assert ours.is_over()
        returns = theirs.returns()
        a, b = ours.scores()
        assert (returns[0] > returns[1]) == (a > b)
        assert (returns[0] < returns[1]) == (a < b)


def outcome(value: int) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2)])
def test_solved_small_boards_agree(rows, cols):
    spiel, _ = action_map(rows, cols)
    value, _ = minimax.alpha_beta_search(spiel, maximizing_player_id=0)
    state = get_game("dots", rows=rows, cols=cols).new_state()
    assert outcome(EdgeSolver(state.game).solve(state).value) == outcome(value)


@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 3)])
@pytest.mark.parametrize("seed", range(4))
def test_solved_positions_agree(rows, cols, seed):
    """Positions with 9 edges left: the sign of our final margin is
    OpenSpiel's outcome (its dots_and_boxes scores win, draw or loss)."""
    spiel, mapping = action_map(rows, cols)
    rng = random.Random(seed)
    theirs = spiel.new_initial_state()
    ours = get_game("dots", rows=rows, cols=cols).new_state()
    while ours.n_empty > 9:
        action = rng.choice(theirs.legal_actions())
        theirs.apply_action(action)
        ours.play(mapping[action])
    value, _ = minimax.alpha_beta_search(spiel, state=theirs.clone(), maximizing_player_id=0)
    mine = EdgeSolver(ours.game).solve(ours).value  # the final margin for the side to move
    final = mine if ours.to_move == 0 else -mine
    assert outcome(final) == outcome(value)
