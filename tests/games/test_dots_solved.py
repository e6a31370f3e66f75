"""Solved values of the edge games: regression tests of the exact solver.

Values are final margins for the first player (own cells minus the
opponent's) under perfect play.  Published values (docs/hexifence.md):
dots-and-boxes 3x3 = -3 with every opening line losing by 3 and 4x4 = 0
(Wilson's analysis), 2x2 = +2 (Berlekamp).  The others were found here and
agree across the solver's technique switches; the small ones also agree
with brute force (test_hexifence.py) and OpenSpiel
(test_openspiel_crosscheck.py).  The quick ones run by default, the rest
under `-m slow`.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from boardgames.cli import main
from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game

QUICK = [(1, 1, -1), (1, 2, 0), (1, 3, -1), (2, 2, 2), (1, 4, 0), (2, 3, -2), (2, 4, 2), (3, 3, -3)]
SLOW = [(2, 5, -2), (3, 4, 0)]


def solved(game):
    return EdgeSolver(game).solve(game.new_state(), all_moves=True)


@pytest.mark.parametrize(
    ("rows", "cols", "value"),
    [*QUICK, *(pytest.param(*case, marks=pytest.mark.slow) for case in SLOW)],
)
def test_dots_values(rows, cols, value):
    game = get_game("dots", rows=rows, cols=cols)
    result = EdgeSolver(game).solve(game.new_state())
    assert result.value == value
    if (cols, rows) != (rows, cols):
        turned = get_game("dots", rows=cols, cols=rows)
        assert EdgeSolver(turned).solve(turned.new_state()).value == value


def test_dots_3x3_every_opening_loses_by_three():
    """Wilson's table: each of the 24 first lines gives -3."""
    game = get_game("dots", rows=3, cols=3)
    result = solved(game)
    assert result.value == -3 and result.best == list(range(24))


def test_hexifence_1_second_player_takes_the_cell():
    game = get_game("hexifence", size=1)
    assert solved(game).value == -1


@pytest.mark.slow
def test_hexifence_2_second_player_wins_by_three():
    """Every first edge is optimal; the principal line ends 2-5."""
    game = get_game("hexifence", size=2)
    solver = EdgeSolver(game)
    result = solver.solve(game.new_state(), all_moves=True)
    assert result.value == -3 and result.winner == 1
    assert result.best == list(range(30))
    state = game.new_state()
    for move in solver.principal_line(state):
        state.play(move)
    assert state.scores() == (2, 5)


def test_cli_solves_dots_3x3():
    result = CliRunner().invoke(main, ["solve", "dots", "--rows", "3", "--cols", "3", "--all"])
    assert result.exit_code == 0, result.output
    assert "winner: second" in result.output and "value: -3" in result.output
    assert "best: A2 A4 A6 B1" in result.output


@pytest.mark.slow
def test_cli_solves_hexifence_2():
    result = CliRunner().invoke(main, ["solve", "hexifence", "--size", "2", "--all"])
    assert result.exit_code == 0, result.output
    assert "winner: second" in result.output and "value: -3" in result.output
