"""Andantino's threat counts defined from scratch on bitboards: line
windows, surrounded stones, bridges and the winning cells, and the
`analyse` report built on them.

Every count is a handful of shifts and ANDs over 380-bit Python ints.
`nb(bits, d)` moves each cell's neighbour in direction d onto the cell, so
`E & nb(B, d)` marks the enemy stones whose neighbour d is one of ours.
These are the definitions: the ThreatEvaluator (experts.py) reads the same
counts from the state's incremental tally (tallies.py), and the tests check
the two against each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import (
    BIT,
    BIT_STEPS,
    BOARD_MASK,
    BORDER_MASK,
    CUBES,
    INDEX,
    cells_of,
)
from .notation import format_cell

if TYPE_CHECKING:
    from .rules import AndantinoState

#: Bit steps of the three line axes (E, SE, SW), each window runs 5 cells along one.
AXIS_STEPS = (BIT_STEPS[1], BIT_STEPS[2], BIT_STEPS[3])
_AXIS_CUBES = ((1, -1, 0), (0, -1, 1), (-1, 0, 1))
#: WINDOW_STARTS[a]: cells where a five-cell window along axis a fits on the board.
WINDOW_STARTS = tuple(
    sum(
        BIT[i] for i, (x, y, z) in enumerate(CUBES) if (x + 4 * dx, y + 4 * dy, z + 4 * dz) in INDEX
    )
    for dx, dy, dz in _AXIS_CUBES
)
INNER_MASK = BOARD_MASK & ~BORDER_MASK
#: Three consecutive directions round a cell (the seed's bridge arcs).
ARCS = tuple((d, (d + 1) % 6, (d + 2) % 6) for d in range(6))


def nb(bits: int, step: int) -> int:
    """Bit c set iff cell c + step is set in `bits`."""
    return bits >> step if step > 0 else bits << -step


def around(bits: int) -> list[int]:
    """`[nb(bits, step) for step in BIT_STEPS]`, written out (the hot path)."""
    return [bits << 19, bits >> 1, bits >> 20, bits >> 19, bits << 1, bits << 20]


def back(bits: int, step: int) -> int:
    """Inverse of `nb`: bit c + step set iff bit c is set."""
    return bits << step if step > 0 else bits >> -step


def _legal_cells(state: AndantinoState, bits: int) -> int:
    """The cells of `bits` where a stone may be played now."""
    candidates = state.candidates
    return sum(BIT[c] for c in cells_of(bits) if c in candidates)


def bridges(own: int, enemy: int) -> int:
    """Enemy stones with three of our stones on consecutive neighbours, counted
    once per such arc (the seed's Bridge feature)."""
    n = around(own)
    return sum((enemy & n[d] & n[e] & n[f]).bit_count() for d, e, f in ARCS)


def line_windows_both(
    a: int, b: int
) -> tuple[tuple[int, int, int, int], tuple[int, int, int, int]]:
    """`line_windows` for both colours at once, sharing the shifted boards.

    Per axis, `w0..w4` mark a window's start when its k-th cell holds our
    stone; a bit-sliced adder turns the five boards into the three bits of
    each window's count, for all windows at once.
    """
    totals = [0, 0, 0, 0, 0, 0, 0, 0]  # a: n4 n3 n2 holes, b: n4 n3 n2 holes
    for axis in range(3):
        s = AXIS_STEPS[axis]
        starts = WINDOW_STARTS[axis]
        a1, a2, a3, a4 = a >> s, a >> 2 * s, a >> 3 * s, a >> 4 * s
        b1, b2, b3, b4 = b >> s, b >> 2 * s, b >> 3 * s, b >> 4 * s
        any_a = a | a1 | a2 | a3 | a4
        any_b = b | b1 | b2 | b3 | b4
        for offset, free, w0, w1, w2, w3, w4 in (
            (0, starts & ~any_b & any_a, a, a1, a2, a3, a4),
            (4, starts & ~any_a & any_b, b, b1, b2, b3, b4),
        ):
            if not free:
                continue
            w0 &= free
            w1 &= free
            w2 &= free
            w3 &= free
            w4 &= free
            x01 = w0 ^ w1
            s1 = x01 ^ w2
            c1 = (w0 & w1) | (w2 & x01)
            x = s1 ^ w3
            c2 = (s1 & w3) | (w4 & x)
            bit0 = x ^ w4
            bit1 = c1 ^ c2
            bit2 = c1 & c2
            fours = bit2 & ~bit0 & ~bit1
            if fours:
                totals[offset] += fours.bit_count()
                totals[offset + 3] |= (
                    (fours & ~w0)
                    | ((fours & ~w1) << s)
                    | ((fours & ~w2) << 2 * s)
                    | ((fours & ~w3) << 3 * s)
                    | ((fours & ~w4) << 4 * s)
                )
            low = bit1 & ~bit2
            if low:
                totals[offset + 1] += (low & bit0).bit_count()
                totals[offset + 2] += (low & ~bit0).bit_count()
    return (totals[0], totals[1], totals[2], totals[3]), (
        totals[4],
        totals[5],
        totals[6],
        totals[7],
    )


def line_windows(own: int, enemy: int) -> tuple[int, int, int, int]:
    """Five-cell windows free of enemy stones holding 4, 3 and 2 of ours, and the
    cells that would complete a five (the empty cell of each 4-window)."""
    return line_windows_both(own, enemy)[0]


def _surround(target: int, n: list[int], empty: int) -> tuple[int, int, int, int]:
    """Stones of `target` with 3, 4 and 5 marked neighbours (`n[d]`: neighbour d
    is marked), and the empty cells that would complete the sixth."""
    n0 = target & n[0]
    n1 = target & n[1]
    n2 = target & n[2]
    n3 = target & n[3]
    n4 = target & n[4]
    n5 = target & n[5]
    x = n0 ^ n1
    s1 = x ^ n2
    c1 = (n0 & n1) | (n2 & x)
    y = n3 ^ n4
    s2 = y ^ n5
    c2 = (n3 & n4) | (n5 & y)
    b0 = s1 ^ s2
    c3 = s1 & s2
    b1 = c1 ^ c2 ^ c3
    b2 = (c1 & c2) | (c3 & (c1 ^ c2))
    fours = b2 & ~b1 & ~b0
    fives = b2 & ~b1 & b0
    completions = 0
    if fives:
        for s in BIT_STEPS:
            completions |= back(fives & nb(empty, s), s)
    threes = b1 & b0 & ~b2
    return threes.bit_count(), fours.bit_count(), fives.bit_count(), completions


def surround(own: int, enemy: int) -> tuple[int, int, int]:
    """Inner enemy stones with exactly 4 and 5 of our stones around them, and the
    empty cells that would enclose a 5-surrounded stone."""
    empty = BOARD_MASK & ~(own | enemy)
    return _surround(enemy & INNER_MASK, around(own), empty)[1:]


def winning_cells(state: AndantinoState, player: int) -> list[int]:
    """Legal cells where `player` would win at once by five or by enclosing a
    lone stone (larger enclosures are left to the search)."""
    own, enemy = state.bits[player], state.bits[1 - player]
    cells = line_windows(own, enemy)[3] | surround(own, enemy)[2]
    return cells_of(_legal_cells(state, cells)) if cells else []


def describe(state: AndantinoState) -> str:
    """A human summary of both sides' threats (the `analyse` command)."""
    lines = []
    for player, name in enumerate(state.game.player_names):
        own, enemy = state.bits[player], state.bits[1 - player]
        n4, n3, n2, _ = line_windows(own, enemy)
        s4, s5, _ = surround(own, enemy)
        wins = " ".join(format_cell(c) for c in winning_cells(state, player)) or "-"
        lines.append(
            f"{name}: windows 4/3/2 = {n4}/{n3}/{n2}, enemy stones 5/4-surrounded = "
            f"{s5}/{s4}, bridges = {bridges(own, enemy)}, winning cells: {wins}"
        )
    return "\n".join(lines)
