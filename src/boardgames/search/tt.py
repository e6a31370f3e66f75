"""A transposition table stored as parallel arrays, fixed or growing.

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

Growing: `TranspositionTable(cap, start=n)` starts with `n` entries and
grows, four times larger each time, up to `cap` (never beyond: the cap is
the table's memory bound).  A short search then allocates a small table
instead of paying for the full one (2^18 entries took 3-5 ms to allocate,
a third of a depth-8 Connect Four search).  The table cannot see the
writes the search makes in its arrays, so the search tells it (`added`)
how many new keys it wrote (its probes that missed, each followed by a
store); once they reach a quarter of its entries the table grows, every
entry moved to its new bucket (`grow`), and the search takes the new
arrays.  Growing later, at half the entries, cost 9% more nodes than a
fixed table in a depth-14 Connect Four search (entries lost while the
table was small); at a quarter, the nodes stay within 3% of a fixed
table's in Connect Four, Andantino, Hadron and Squatter searches of
0.1-0.5 M nodes.  Only the alpha-beta node function lets a table grow
(search/alphabeta.py); `start=None` gives a fixed table, which the solver
and the minimax reference use.

Shared: `TranspositionTable(size, shared=True)` keeps the same arrays in
one anonymous shared memory map (`mmap.mmap(-1, n)`), seen through typed
memoryviews, so that processes forked after it was made (the helpers of a
parallel search, search/smp.py) read and write one table.  The map has no
name, so nothing can leak: the kernel frees it when the last process that
maps it exits.  A shared table is fixed (it cannot grow: its arrays are
already in every process).  Processes write entries without locks, so a
reader may see the fields of two writes mixed; each entry therefore also
stores a check word, `seal(key, depth, value, bound, move)`, and a reader
that finds the word not matching the fields it read treats the slot as
empty.  Indexing a memoryview costs the same as indexing an array.

A shared table also keeps `busy`, the marks of the positions each process
is searching right now (busy.py), by which the search leaves a move
another process is already searching for later (search/alphabeta.py).
"""

from __future__ import annotations

import mmap
from array import array
from collections.abc import Callable
from itertools import compress
from typing import NamedTuple, cast

from ..busy import busy_marks, clear_marks
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
#: A growing table grows this many times larger each time.
GROWTH = 4
#: A growing table grows when the search has written 1/LOAD of its size in new keys.
LOAD = 4
#: "Never": the room of a table that cannot grow.
NEVER = 1 << 62


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


#: The arrays read behind a key match: values, bounds, moves, ages.
Fields = tuple["array[float]", "array[int]", "array[int]", "array[int]"]


#: Bytes of one entry of a shared table: key, depth, value, move, age and
#: check as 8-byte words, bound as one byte.
SHARED_ENTRY_BYTES = 6 * 8 + 1


def seal(key: int, depth: int, value: float, bound: int, move: int) -> int:
    """The check word of a shared entry: its fields folded into its key.

    `hash(value)` is the value's bits folded by Python (the same in every
    process); depth (at most SOLVED), bound and move sit in distinct bit
    ranges.  The node function of search/alphabeta.py computes it in place.
    """
    return key ^ hash(value) ^ (depth << 32) ^ (bound << 29) ^ (move + 1)


def power_of_two(n: int) -> int:
    """The largest power of two not above `n` (n >= 1)."""
    return 1 << (n.bit_length() - 1)


class TranspositionTable:
    """`size` entries (rounded down to a power of two, at least 2); with
    `start`, a table that starts with `start` entries (rounded the same way)
    and grows up to `size` as the search fills it (see the module docstring).

    `size` is the current number of entries, `cap` the most it may have.
    `shared=True` makes a fixed table in shared memory that forked processes
    share (`start` is then ignored; see the module docstring); its memory
    is `SHARED_ENTRY_BYTES` per entry, plus the `busy` marks.  `checks` is
    the array of check words of a shared table and `busy` its marks of the
    positions being searched; both are None for a private table.
    """

    def __init__(self, size: int, start: int | None = None, *, shared: bool = False) -> None:
        if size < 2 or (start is not None and start < 2):
            raise ValueError("a transposition table needs at least 2 entries")
        self.cap = power_of_two(size)
        self.start = self.cap if start is None or shared else min(power_of_two(start), self.cap)
        self.generation = 0
        self.checks: array[int] | None = None
        self.busy: array[int] | None = None
        self.memory: mmap.mmap | None = None
        if shared:
            self._share(self.cap)
        else:
            self._allocate(self.start)

    def _share(self, size: int) -> None:
        """The arrays as views of one anonymous shared map (keys and depths -1)."""
        self.size = size
        self.mask = (size >> 1) - 1
        self.memory = memory = mmap.mmap(-1, size * SHARED_ENTRY_BYTES)
        view = memoryview(memory)
        self.busy = busy_marks()
        words = [view[k * 8 * size : (k + 1) * 8 * size] for k in range(6)]
        # Typed memoryviews index (and slice-assign) as arrays do, at the same
        # speed; the growth code, the one user of array-only methods, never
        # sees them.
        ints = (words[0], words[1], words[3], words[4], words[5])
        self.keys, self.depths, self.moves, self.ages, self.checks = (
            cast("array[int]", w.cast("q")) for w in ints
        )
        self.values = cast("array[float]", words[2].cast("d"))
        self.bounds = cast("array[int]", view[6 * 8 * size :].cast("b"))
        self._empty()
        self.filled = 0

    def _empty(self) -> None:
        """Mark every slot of a shared table empty (keys and depths -1), and
        no position busy."""
        empty = array("q", [EMPTY]) * self.size
        self.keys[:] = empty
        self.depths[:] = empty
        self.filled = 0
        self.clear_busy()

    def clear_busy(self) -> None:
        """No position marked busy (a search stopped by a limit leaves its
        marks behind; the next one starts without them)."""
        if self.busy is not None:
            clear_marks(self.busy)

    def _allocate(self, size: int, fields: Fields | None = None) -> None:
        """Empty arrays of `size` entries (`fields`: the values, bounds, moves
        and ages arrays to use instead of new ones)."""
        self.size = size
        #: Bucket index mask: a key's bucket starts at (key & mask) << 1.
        self.mask = (size >> 1) - 1
        #: Parallel arrays (see the module docstring); keys masked by KEY_MASK.
        self.keys = array("q", [EMPTY]) * size
        self.depths = array("q", [-1]) * size
        if fields is None:
            fields = (
                array("d", [0.0]) * size,
                array("b", [EXACT]) * size,
                array("q", [-1]) * size,
                array("q", [0]) * size,
            )
        self.values, self.bounds, self.moves, self.ages = fields
        #: New keys written since the arrays were made (`added`): their fill.
        self.filled = 0

    def clear(self) -> None:
        """Empty the table.  A growing table shrinks back to its start size
        (new arrays: a search builds its node function after this); a fixed
        one is emptied in place, where the solver holds its arrays.

        Only the keys need resetting: a new generation makes every old depth
        replaceable, and the other fields are only read behind a key match.
        """
        if self.checks is not None:
            self._empty()
        elif self.start < self.cap:
            self._allocate(self.start)
        else:
            self.keys[:] = array("q", [EMPTY]) * self.size
            self.filled = 0
        self.generation += 1

    # --- growth --------------------------------------------------------------
    def room(self) -> int:
        """New keys the table takes before it should grow (at least 1), or
        NEVER once it has reached its cap."""
        if self.size >= self.cap:
            return NEVER
        return max(1, self.size // LOAD - self.filled)

    def added(self, count: int) -> bool:
        """The search wrote `count` new keys; grow if they reach 1/LOAD of
        the table.  True when the arrays were replaced (the search must take
        the new ones, and the new `mask`)."""
        self.filled += count
        if self.size >= self.cap or self.filled < self.size // LOAD:
            return False
        self.grow()
        return True

    def grow(self) -> None:
        """GROWTH times the entries (at most `cap`), every entry kept.

        The new mask has the old one's bits and more, so an entry's bucket
        only gains a high part, k x the old number of buckets (k < growth),
        and the entry at old index j belongs at j + k x the old size: the
        same slot of the k-th copy of the old table.  So the arrays read
        behind a key match (values, bounds, moves, ages) are copied whole,
        k times over; only keys and depths are placed entry by entry, since
        an empty slot must have no key and no depth (a depth would keep the
        depth-preferred slot from taking a new entry).
        """
        size, old_keys, old_depths = self.size, self.keys, self.depths
        times = min(size * GROWTH, self.cap) // size
        copies = (self.values * times, self.bounds * times, self.moves * times, self.ages * times)
        shift = self.mask.bit_length()  # log2 of the old number of buckets
        self._allocate(size * times, copies)
        keys, depths, spread = self.keys, self.depths, times - 1
        for j in compress(range(size), map(EMPTY.__ne__, old_keys)):  # the used slots
            key = old_keys[j]
            i = j + ((key >> shift) & spread) * size
            keys[i] = key
            depths[i] = old_depths[j]
        self.filled = size - old_keys.count(EMPTY)

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
        if self.checks is not None:
            self.checks[i] = seal(key, depth, value, bound, move)

    def entry(self, key: int) -> TTEntry | None:
        """The entry for `key`, or None (for the root, the PV, tests and tools)."""
        i = self.probe(key)
        if i < 0:
            return None
        entry = TTEntry(self.depths[i], self.values[i], self.bounds[i], self.moves[i])
        if self.checks is not None and self.checks[i] != seal(key & KEY_MASK, *entry):
            return None  # two processes' writes mixed
        return entry

    def used(self) -> int:
        """How many slots hold an entry."""
        if self.checks is not None:  # memoryviews have no count()
            return self.size - self.keys.tolist().count(EMPTY)
        return self.size - self.keys.count(EMPTY)

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        grows = f", cap={self.cap}" if self.size < self.cap else ""
        shared = ", shared=True" if self.checks is not None else ""
        return f"TranspositionTable(size={self.size}{grows}{shared})"


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
