"""The edge solver's transposition table: bounds, best move, work, replacement.

One entry per canonical key (coins.py): the lower and upper bounds of the
margin of the cells still to be captured, for the side to move, the move
that last proved a bound (tried first next time), and the work the entry
cost (bit length of the nodes searched below it).  The value of the
remaining game depends on the claimed edges alone, not on the score so far
nor on who claimed what, so one entry serves every path to the position.

Everything is packed into one int (`pack`), so the table is a plain dict of
ints: the garbage collector never walks it.

The table grows with the problem (a dict only takes the memory of what it
holds) up to half the solver's `max_entries`; then it becomes the old
generation, still read but no longer written, the generation before it is
dropped, and a new one starts (`EdgeSolver.make_room`).  A position
searched again is stored in the new generation, so what is still used
survives.  The switch costs nothing
in the search; a purge that sorted out the cheap half of a full table cost
0.4 s of CPU per 2 M entries, which could land inside a move's clock.
"""

from __future__ import annotations

#: Offset of the bounds, so that they pack as non-negative fields.
OFFSET = 256
_B = 9  # bits of a bound
_M = 11  # bits of a move (+1, 0 = none)
HI_SHIFT = _B
MOVE_SHIFT = 2 * _B
WORK_SHIFT = 2 * _B + _M
FIELD = (1 << _B) - 1
MOVE_FIELD = (1 << _M) - 1


def pack(lo: int, hi: int, move: int, work: int) -> int:
    """One entry: bounds `lo` <= value <= `hi`, best `move` (-1: none), `work`."""
    return (
        (lo + OFFSET)
        | ((hi + OFFSET) << HI_SHIFT)
        | ((move + 1) << MOVE_SHIFT)
        | (work << WORK_SHIFT)
    )


def unpack(entry: int) -> tuple[int, int, int, int]:
    """(lo, hi, move, work) of a packed entry."""
    return (
        (entry & FIELD) - OFFSET,
        ((entry >> HI_SHIFT) & FIELD) - OFFSET,
        ((entry >> MOVE_SHIFT) & MOVE_FIELD) - 1,
        entry >> WORK_SHIFT,
    )
