"""Opening books (games/hexifence/book.py): built moves keep the value, the
shipped book agrees with fresh solves."""

from __future__ import annotations

import random

import pytest

from boardgames.games.hexifence import book
from boardgames.games.hexifence.book_data import BOOKS
from boardgames.games.hexifence.solver import EdgeSolver
from boardgames.registry import get_game
from support.edge_reference import final_margin, margin_after


def safe_prefix(game, plies: int, seed: int):
    rng = random.Random(seed)
    state = game.new_state()
    for _ in range(plies):
        state.make(rng.choice(state.safe_moves()))
    return state


def test_a_built_book_keeps_the_value_against_minimax():
    game = get_game("dots", rows=2, cols=2)
    solver = EdgeSolver(game)
    entries = book.build(game, 3, solver)
    assert book.decode(book.encode(entries)) == entries
    memo: dict[int, int] = {}
    checked = 0
    for seed in range(40):
        state = safe_prefix(game, seed % 4, seed)
        key, frame = solver.canonical(state)
        move = solver.from_frame(state, frame, entries[key])
        assert state.claimed[move] < 0
        assert margin_after(state, move, memo) == final_margin(state, memo), state.history
        checked += 1
    assert checked == 40


def test_the_shipped_hexifence_book_is_there_and_decodes():
    game = get_game("hexifence", size=2)
    entries = book.shipped(game)
    assert ("hexifence", (("size", 2),)) in BOOKS and len(entries) > 100
    assert book.shipped(get_game("hexifence", size=3)) == {}
    solver = EdgeSolver(game)
    assert book.lookup(solver, game.new_state()) is not None


def shipped_book_agrees(plies: int, samples: int) -> None:
    game = get_game("hexifence", size=2)
    probe = EdgeSolver(game)
    for seed in range(samples):
        state = safe_prefix(game, plies, seed)
        move = book.lookup(probe, state)
        assert move is not None
        checker = EdgeSolver(game)  # a fresh table each time
        value = checker.solve(state).value
        p = state.to_move
        state.make(move)
        after = checker.solve(state).value
        assert (after if state.to_move == p else -after) == value, state.history
        state.undo()


def test_the_shipped_book_agrees_with_fresh_solves_late_in_it():
    shipped_book_agrees(plies=5, samples=2)


@pytest.mark.slow
@pytest.mark.parametrize("plies", [0, 1, 2, 3, 4, 5])
def test_the_shipped_book_agrees_with_fresh_solves(plies):
    shipped_book_agrees(plies, samples=6)
