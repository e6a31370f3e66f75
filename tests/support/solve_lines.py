"""Checks of a solve's principal line: replay it and read the result at its end."""

from __future__ import annotations

from boardgames.game import State


def final_value(state: State, line: list[int]) -> int:
    """Replay `line` on a copy of `state` (each move checked legal): the
    result at its end, from the view of the side to move in `state`."""
    work = state.copy()
    side = work.to_move
    for move in line:
        assert not work.is_over(), "the line goes on after the end"
        assert move in work.legal_moves(), "an illegal move in the line"
        work.make(move)
    assert work.is_over(), "the line stops before the end"
    if work.game.scored:
        a, b = work.scores()
        return a - b if side == 0 else b - a
    winner = work.winner()
    return 0 if winner is None else 1 if winner == side else -1


def sign(value: int) -> int:
    """-1, 0 or 1: the outcome a value stands for."""
    return (value > 0) - (value < 0)
