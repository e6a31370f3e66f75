"""Hadron by plain recursion: the reference the solver, the AI and the sums are tested against."""

from __future__ import annotations


def brute_force_win(state) -> bool:
    """Plain negamax over win/loss: no table, no ordering, no shortcuts."""
    for move in state.legal_moves():
        state.make(move)
        lost = not brute_force_win(state)
        state.undo()
        if lost:
            return True
    return False
