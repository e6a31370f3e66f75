"""Random Andantino games that favour crowded cells, where threats,
ladders and enclosures come up often (for the games/andantino tests)."""

from __future__ import annotations

import random

from boardgames.registry import get_game

GAME = get_game("andantino")


def surround_game(rng: random.Random, plies: int, *, keep_end: bool = False):
    """A game of up to `plies` moves: 7 in 10 on the legal cell with the most
    stones around it (ties broken at random), the others at random.  A move
    that ends the game is taken back (the position stays open), or kept with
    `keep_end`."""
    state = GAME.new_state()
    for _ in range(plies):
        if state.is_over():
            break
        legal = state.legal_moves()
        if rng.random() < 0.7:
            move = max(legal, key=lambda c: (state.masks[c] >> 36) + 3 * rng.random())
        else:
            move = rng.choice(legal)
        state.make(move)
        if state.is_over() and not keep_end:
            state.undo()
            break
    return state
