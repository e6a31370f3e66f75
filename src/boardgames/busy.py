"""Busy marks: what the processes of a parallel search are searching right now.

Processes that search one tree and share a table (Lazy SMP) also share a
small array of marks, so that one of them can leave for later a move
another is already searching (ABDADA, after Weill 1996).  A searcher
writes a mark (a 63-bit hash of the position, or of a position and a move)
into the slot `mark & MASK` before it searches there, and zero after,
if the slot still holds its mark.  Another process that finds the mark
in its slot puts that move after its other moves.  Marks are hints: a mark
overwritten by another, left by a search that was stopped, or matched by
two positions of the same hash only changes an order, never a value.

The array is an anonymous shared memory map (`busy_marks`), seen by every
process forked after it was made; the kernel frees it with the last of
them.
"""

from __future__ import annotations

import mmap
from array import array
from typing import cast

#: Slots of a busy array: a power of two, 8 bytes each (128 KB).
SLOTS = 1 << 14
#: A mark's slot is `mark & MASK`.
MASK = SLOTS - 1
#: Marks are 63-bit numbers (signed 64-bit slots; 0 is an empty slot).
MARK_BITS = (1 << 63) - 1


def busy_marks() -> array[int]:
    """A new busy array in shared memory, every slot empty (0)."""
    return cast("array[int]", memoryview(mmap.mmap(-1, SLOTS * 8)).cast("q"))


def move_mark(key: int, move: int) -> int:
    """The mark of searching `move` at the position of key `key` (any int;
    moves from -2 up).  The solvers mark moves rather than the positions
    they lead to: a child's key would cost a move made and taken back."""
    return (key * 1021 + move + 2) & MARK_BITS


def clear_marks(marks: array[int]) -> None:
    """Empty every slot (a stopped search leaves its marks behind)."""
    marks[:] = array("q", [0]) * SLOTS
