"""The edge solver's safe-edge model (`safe_only`) and `move_reaching`,
against plain minimax (tests/support/edge_reference.py)."""

from __future__ import annotations

import pytest

from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game
from support.edge_reference import final_margin, margin_after, model_reaches, positions


def few_safe(state) -> bool:
    return len(state.safe_moves()) <= 6 and not state.captures()


@pytest.mark.parametrize(
    ("name", "params"), [("hexifence", {"size": 2}), ("dots", {"rows": 2, "cols": 3})]
)
def test_the_safe_edge_model_against_plain_recursion(name, params):
    game = get_game(name, **params)
    model = EdgeSolver(game, safe_only=True)  # one table for every position
    memo: dict[int, int] = {}
    wins = losses = 0
    for seed in range(25):
        state = positions(game, seed, few_safe)
        if state.is_over():
            continue
        for target in (-1, 1, 3):
            move = model.move_reaching(state, target)
            assert (move is not None) == model_reaches(state, target, memo), state.history
            if move is None:
                losses += 1
                continue
            wins += 1
            assert move in state.safe_moves()
            p = state.to_move
            state.make(move)
            assert not model_reaches(state, 1 - target, memo), state.history
            assert state.to_move != p
            state.undo()
    assert wins >= 10 and losses >= 10


def test_move_reaching_of_the_game_keeps_the_target():
    game = get_game("hexifence", size=2)
    solver = EdgeSolver(game)
    memo: dict[int, int] = {}
    checked = 0
    for seed in range(20):
        state = positions(game, 100 + seed, lambda s: s.n_empty <= 12)
        if state.is_over():
            continue
        value = final_margin(state, memo)
        move = solver.move_reaching(state, value)
        assert move is not None and margin_after(state, move, memo) >= value
        assert solver.move_reaching(state, value + 1) is None
        checked += 1
    assert checked >= 12


def test_the_model_is_the_game_once_no_safe_edge_is_left():
    game = get_game("hexifence", size=2)
    model, exact = EdgeSolver(game, safe_only=True), EdgeSolver(game)
    for seed in range(20):
        state = positions(game, 200 + seed, lambda s: not s.safe_moves())
        if not state.is_over():
            assert model.solve(state).value == exact.solve(state).value
