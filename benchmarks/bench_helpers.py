"""Pieces shared by the benchmark files."""

from __future__ import annotations


def make_undo_all(state) -> None:
    """Play and take back every legal move of `state` once."""
    for move in state.legal_moves():
        state.make(move)
        state.undo()
