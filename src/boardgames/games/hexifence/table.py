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
holds) up to the solver's `max_entries`; when it is full, `purge` drops the
cheapest entries (work at or below the median) and keeps the expensive
ones, which are the ones worth not redoing.
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


def purge(table: dict[int, int]) -> int:
    """Drop the cheaper half of a full table (by work): the entries below the
    median work, or, when fewer than a quarter are, those at the median too.
    Returns how many were dropped."""
    works = sorted(entry >> WORK_SHIFT for entry in table.values())
    median = works[len(works) // 2]
    cheap = [key for key, entry in table.items() if entry >> WORK_SHIFT < median]
    if len(cheap) < len(table) // 4:
        cheap = [key for key, entry in table.items() if entry >> WORK_SHIFT <= median]
    for key in cheap:
        del table[key]
    return len(cheap)
