"""Andantino's incremental counts computed from scratch: the references that
the tests compare the state's counts with (tallies.py keeps them up to date
move by move; threats.py defines the threat counts on bitboards)."""

from __future__ import annotations

from boardgames.games.andantino.geometry import BIT, BIT_STEPS, LINES, SIZE
from boardgames.games.andantino.tallies import (
    CAND_VALUE,
    FIVE_AROUND,
    INITIAL_MASKS,
    LINE_BITS,
    NEIGHBOUR_BITS,
    STONE_VALUE,
    line_value,
)
from boardgames.games.andantino.threats import nb


def recompute(board: list[int], candidates: set[int]) -> tuple[int, list[int], list[int]]:
    """(tally, masks, line keys) of a board from scratch."""
    masks = list(INITIAL_MASKS)
    for c, player in enumerate(board):
        if player >= 0:
            for n, bit in NEIGHBOUR_BITS[player][c]:
                masks[n] += bit
    keys = [0] * len(LINES)
    for c, player in enumerate(board):
        if player >= 0:
            for line, bit, _ in LINE_BITS[player][c]:
                keys[line] |= bit
    tally = sum(line_value(line, key) for line, key in enumerate(keys))
    for c, player in enumerate(board):
        if player >= 0:
            tally += STONE_VALUE[player][masks[c]]
    tally += sum(CAND_VALUE[masks[c]] for c in candidates)
    return tally, masks, keys


def five_around(board: list[int], masks: list[int]) -> tuple[int, int]:
    """Per colour, its stones with five enemy stones around them (a bitboard:
    `AndantinoState.sur5`)."""
    out = [0, 0]
    for c, owner in enumerate(board):
        if owner >= 0 and FIVE_AROUND[owner][masks[c]]:
            out[owner] |= BIT[c]
    return out[0], out[1]


def walls_from_masks(board: list[int], masks: list[int]) -> list[int]:
    """Per colour, the empty cells with two or more neighbours of that colour
    (a bitboard: `AndantinoState.two` on the empty cells)."""
    out = [0, 0]
    for c in range(SIZE):
        if board[c] < 0:
            for colour in (0, 1):
                if (masks[c] >> (6 * colour) & 63).bit_count() >= 2:
                    out[colour] |= BIT[c]
    return out


def two_or_more(boards: list[int]) -> int:
    """Bits set in at least two of `boards`."""
    ones = twos = 0
    for b in boards:
        twos |= ones & b
        ones |= b
    return twos


def potential_walls(walls: int, near_walls: list[int], empty: int) -> int:
    """Our stones plus the empty cells touching two or more of them (the gaps
    one stone would plug), from `near_walls = around(walls)`."""
    return walls | (two_or_more(near_walls) & empty)


def mobility(state, player: int) -> float:
    """Legal cells next to `player`'s stones minus legal cells next to the
    opponent's (the tally's MOBILITY fields)."""
    legal = sum(BIT[c] for c in state.candidates)
    own, enemy = state.bits[player], state.bits[1 - player]
    near_own = near_enemy = 0
    for s in BIT_STEPS:
        near_own |= nb(own, s)
        near_enemy |= nb(enemy, s)
    return float((legal & near_own).bit_count() - (legal & near_enemy).bit_count())
