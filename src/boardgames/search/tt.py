"""A fixed-size transposition table stored as parallel lists.

Each canonical Zobrist key maps to a bucket of two slots:

- slot 0 is *depth-preferred*: it keeps the entry searched deepest, unless
  that entry belongs to an older search (`new_search` ages the table);
- slot 1 is *always-replace*: it takes every entry slot 0 refuses, so
  recent shallow results are still found.

An entry is (key, depth, value, bound, move).  `bound` says what `value`
is: EXACT, a LOWER bound (the search failed high) or an UPPER bound (it
failed low).  `move` is the best move in the *canonical frame* of the
position (the symmetry whose hash is the key), or -1.

Values of forced wins and losses depend on the distance from the root, so
they are stored as the distance from the stored node (`to_tt`) and turned
back into the distance from the root on probing (`from_tt`).

Why parallel arrays instead of one object per entry: the search reads and
writes entries at every node, and indexing is the cheapest thing CPython
can do.  Why `array.array` rather than lists: an array holds plain machine
numbers, not objects, so the garbage collector never walks it.  A table of
2^18 entries in six lists was 1.5 million object pointers that every full
collection followed (30-100 ms a pass, and a pause of that size lands in
the middle of a timed search); as arrays it costs the collector nothing.
Keys are stored modulo 2^63 (`KEY_MASK`), so that -1 can mark an empty slot.

The node functions of the search and the solver read and write the arrays
in place (a call per node costs them a few percent); `lookup_function`
gives them a closure over the keys for the cheaper lookups.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import NamedTuple

from .result import MATE_BOUND

EXACT, LOWER, UPPER = 0, 1, 2
#: Key of an empty slot (stored keys are never negative).
EMPTY = -1
#: Keys are stored as 63-bit numbers (signed 64-bit slots, -1 free for EMPTY).
KEY_MASK = (1 << 63) - 1
#: XORed into the key when the second player is to move, so positions that
#: differ only by the side to move (extra turns) never share an entry.
SIDE_KEY = 0x2545F4914F6CDD1D
#: Stored depth of an entry whose subtree ended inside the horizon everywhere:
#: its value (or bound) is the game's own, good for any depth.
SOLVED = 1 << 30


def to_tt(value: float, ply: int) -> float:
    """A value as stored: proven results counted from the node, not the root."""
    if value >= MATE_BOUND:
        return value + ply
    if value <= -MATE_BOUND:
        return value - ply
    return value


def from_tt(value: float, ply: int) -> float:
    """Inverse of `to_tt` for a node `ply` moves from the root."""
    if value >= MATE_BOUND:
        return value - ply
    if value <= -MATE_BOUND:
        return value + ply
    return value


class TTEntry(NamedTuple):
    """One entry as `TranspositionTable.entry` returns it (tests and tools)."""

    depth: int
    value: float
    bound: int
    move: int


class TranspositionTable:
    """`size` entries (rounded down to a power of two, at least 2)."""

    def __init__(self, size: int) -> None:
        if size < 2:
            raise ValueError("a transposition table needs at least 2 entries")
        size = 1 << (size.bit_length() - 1)
        self.size = size
        #: Bucket index mask: a key's bucket starts at (key & mask) << 1.
        self.mask = (size >> 1) - 1
        self.generation = 0
        #: Parallel arrays (see the module docstring); keys masked by KEY_MASK.
        self.keys = array("q", [EMPTY]) * size
        self.depths = array("q", [-1]) * size
        self.values = array("d", [0.0]) * size
        self.bounds = array("b", [EXACT]) * size
        self.moves = array("q", [-1]) * size
        self.ages = array("q", [0]) * size

    def clear(self) -> None:
        """Empty the table in place (the search holds references to the arrays).

        Only the keys need resetting: a new generation makes every old depth
        replaceable, and the other fields are only read behind a key match.
        """
        self.keys[:] = array("q", [EMPTY]) * self.size
        self.generation += 1

    def new_search(self) -> None:
        """Age the table: entries of earlier searches lose their depth priority."""
        self.generation += 1

    def probe(self, key: int) -> int:
        """Index of the entry for `key`, or -1."""
        key &= KEY_MASK
        i = (key & self.mask) << 1
        keys = self.keys
        if keys[i] == key:
            return i
        if keys[i + 1] == key:
            return i + 1
        return -1

    def store(self, key: int, depth: int, value: float, bound: int, move: int) -> None:
        """Write an entry, choosing the slot by the two-tier policy."""
        key &= KEY_MASK
        i = (key & self.mask) << 1
        if not (self.keys[i] == key or depth >= self.depths[i] or self.ages[i] != self.generation):
            i += 1
        self.keys[i] = key
        self.depths[i] = depth
        self.values[i] = value
        self.bounds[i] = bound
        self.moves[i] = move
        self.ages[i] = self.generation

    def entry(self, key: int) -> TTEntry | None:
        """The entry for `key`, or None (for the root, the PV, tests and tools)."""
        i = self.probe(key)
        if i < 0:
            return None
        return TTEntry(self.depths[i], self.values[i], self.bounds[i], self.moves[i])

    def used(self) -> int:
        """How many slots hold an entry."""
        return self.size - self.keys.count(EMPTY)

    def __len__(self) -> int:
        return self.size


def lookup_function(tt: TranspositionTable) -> Callable[[int], int]:
    """`lookup(key)`: the index of a (masked) key's entry, or -1."""
    keys, mask = tt.keys, tt.mask

    def lookup(key: int) -> int:
        i = (key & mask) << 1
        if keys[i] == key:
            return i
        if keys[i + 1] == key:
            return i + 1
        return -1

    return lookup

