"""Andantino's incremental counts: the evaluator's line, surround, bridge and
mobility counts, kept up to date by make/undo instead of being rescanned at
every leaf.

`AndantinoState.tally` is one Python int of side-by-side fields, so that a
move adds one signed delta per changed cell or line and undo restores the
old int.  Each field is a count (never negative, always below 2^16), so the
packed sum is exact and the fields read back with one `struct` unpack.

Fields, 16 bits each, colour c = WHITE (0) or BLACK (1):

- `N2 + 3c + k - 2`, k = 2, 3, 4: five-cell windows holding no stone of the
  other colour and exactly k stones of colour c;
- `S3 + 3c + k - 3`, k = 3, 4, 5: colour c's stones off the border with
  exactly k stones of the other colour around them;
- `BRIDGES + c`: arcs of three consecutive neighbours, all of the other
  colour, round colour c's stones (the seed's bridges);
- `MOBILITY + c`: legal cells touching a stone of colour c.

Above them, one flag bit per (line, colour), set while the line holds a
window with four of that colour's stones and no other (`four_flags`), and
at the top the number of windows full of each colour (a five).

Per cell the state keeps a neighbour mask (`masks`): bit d (0..5) is set
when the neighbour in direction d holds a White stone, bit 6 + d a Black
one, bit 12 marks a cell off the border, and the bits from 13 up count the
occupied neighbours (`mask >> COUNT_SHIFT`, the placement rule's count), so
that a stone adds one precomputed delta to each neighbour's mask.  A
stone's surround and bridge counts and an empty cell's mobility are table
lookups on that mask (`STONE_VALUE`, `CAND_VALUE`).

Per line the state keeps its contents as one int (`line_keys`: bit i for a
White stone at position i, bit 20 + i for a Black one); the line's share of
the tally is memoised per line pattern (`line_value`), so a move updates
three lines with a few dictionary look-ups.
"""

from __future__ import annotations

from collections.abc import Iterator
from struct import Struct

from .geometry import (
    BIT,
    CELL_OF_POSITION,
    LINE_SLOTS,
    LINES,
    NEIGHBOURS6,
    RADIUS,
    RING,
    SIZE,
)

FIELD_BITS = 16
FIELD_MASK = (1 << FIELD_BITS) - 1
#: Field numbers (add 3 * colour, or colour for BRIDGES and MOBILITY).
N2, S3 = 0, 6
BRIDGES = 12
MOBILITY = 14
FIELDS = 16
LOW_BITS = FIELDS * FIELD_BITS
LOW_MASK = (1 << LOW_BITS) - 1
#: `FIELD_STRUCT.unpack(...)` reads the 16 fields (see `fields`).
FIELD_STRUCT = Struct("<16H")
#: Bit FOUR_FLAGS + 2 * line + colour: the line holds a four of that colour.
FOUR_FLAGS = LOW_BITS
#: Bit masks of the four flags of each colour (after `>> FOUR_FLAGS`).
COLOUR_FLAGS = (
    sum(1 << (2 * line) for line in range(len(LINES))),
    sum(1 << (2 * line + 1) for line in range(len(LINES))),
)
#: The two five counts (White, then Black) sit above everything else, so
#: `tally >> FIVES` changes exactly when a five is made.
FIVES = FOUR_FLAGS + 2 * len(LINES)
#: Bit of a line key for a stone of each colour at position 0.
LINE_COLOUR_SHIFT = 20
LINE_POSITION_MASK = (1 << LINE_COLOUR_SHIFT) - 1

INNER_FLAG = 1 << 12
#: A mask's occupied-neighbour count is `mask >> COUNT_SHIFT`.
COUNT_SHIFT = 13
COUNT_UNIT = 1 << COUNT_SHIFT
#: Every value a mask can take is below MASK_LIMIT (the tables' length).
MASK_LIMIT = 7 << COUNT_SHIFT
#: The neighbour mask of each cell on an empty board.
INITIAL_MASKS: tuple[int, ...] = tuple(INNER_FLAG if RING[c] < RADIUS else 0 for c in range(SIZE))


def field(number: int) -> int:
    """The unit of field `number` in the packed tally."""
    return 1 << (FIELD_BITS * number)


def fields(tally: int) -> tuple[int, ...]:
    """The 16 count fields of a tally, in field order."""
    return FIELD_STRUCT.unpack((tally & LOW_MASK).to_bytes(LOW_BITS // 8, "little"))


# --- cells: stones and legal cells, by neighbour mask ------------------------------------


def _arcs(mask6: int) -> int:
    """Arcs of three consecutive directions all set in a 6-bit mask."""
    return sum(1 for d in range(6) if all(mask6 >> ((d + k) % 6) & 1 for k in range(3)))


def _stone_value(owner: int, mask: int) -> int:
    enemy = mask >> (6 * (1 - owner)) & 63
    value = _arcs(enemy) * field(BRIDGES + owner)
    k = enemy.bit_count()
    if mask & INNER_FLAG and 3 <= k <= 5:
        value += field(S3 + 3 * owner + k - 3)
    return value


def _stone_values(owner: int) -> tuple[int, ...]:
    """`_stone_value(owner, m)` for every mask m, read from the few masks that
    matter (the enemy's six bits and the inner flag): built in milliseconds,
    so importing the game stays cheap."""
    shift = 6 * (1 - owner)
    small = {
        (enemy, inner): _stone_value(owner, (enemy << shift) | (INNER_FLAG if inner else 0))
        for enemy in range(64)
        for inner in (0, 1)
    }
    return tuple(small[m >> shift & 63, m >> 12 & 1] for m in range(MASK_LIMIT))


#: STONE_VALUE[owner][mask]: a stone's share of the tally (surround, bridges).
STONE_VALUE: tuple[tuple[int, ...], ...] = (_stone_values(0), _stone_values(1))
#: CAND_VALUE[mask]: a legal cell's share (mobility of each colour it touches).
CAND_VALUE: tuple[int, ...] = tuple(
    (field(MOBILITY) if m & 63 else 0) + (field(MOBILITY + 1) if m >> 6 & 63 else 0)
    for m in range(MASK_LIMIT)
)
#: FIVE_AROUND[owner][mask]: a stone off the border with exactly five enemy
#: stones around it (one stone from enclosure, see `AndantinoState.sur5`).
FIVE_AROUND: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        bool(m & INNER_FLAG) and (m >> (6 * (1 - owner)) & 63).bit_count() == 5
        for m in range(MASK_LIMIT)
    )
    for owner in (0, 1)
)
#: GAP[mask6]: the one direction missing from a 6-bit mask with five bits set.
GAP: dict[int, int] = {63 ^ (1 << d): d for d in range(6)}
#: ONE_NEIGHBOUR[colour][mask]: exactly one neighbour of that colour (a second
#: one makes the cell a potential wall of that colour, see `AndantinoState.two`).
ONE_NEIGHBOUR: tuple[tuple[bool, ...], ...] = tuple(
    tuple((m >> (6 * colour) & 63).bit_count() == 1 for m in range(MASK_LIMIT)) for colour in (0, 1)
)
#: NEIGHBOUR_BITS[colour][i]: (neighbour n, what a stone of `colour` on i
#: adds to n's mask: its direction bit and one to the count) for the
#: neighbours of i on the board.
NEIGHBOUR_BITS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (n, COUNT_UNIT + (1 << (6 * colour + (d + 3) % 6)))
            for d, n in enumerate(NEIGHBOURS6[i])
            if n >= 0
        )
        for i in range(SIZE)
    )
    for colour in (0, 1)
)
# --- lines: memoised per pattern -----------------------------------------------------------

#: The memo of each line: line key -> its share of the tally.  Bounded by
#: MEMO_LIMIT entries in all (cleared when full).
VALUES: list[dict[int, int]] = [{0: 0} for _ in LINES]
#: line key -> (White's, Black's) completion cells of the line's fours, a bitboard each.
COMPLETIONS: list[dict[int, tuple[int, int]]] = [{} for _ in LINES]
#: LINE_BITS[colour][i]: (line, the bit a stone of `colour` on i sets in its
#: key, the line's memo) for the three lines through i.
LINE_BITS: tuple[tuple[tuple[tuple[int, int, dict[int, int]], ...], ...], ...] = tuple(
    tuple(
        tuple(
            (line, 1 << (pos + LINE_COLOUR_SHIFT * colour), VALUES[line])
            for line, pos in LINE_SLOTS[i]
        )
        for i in range(SIZE)
    )
    for colour in (0, 1)
)
MEMO_LIMIT = 1 << 18
_memo_size = 0


def clear_line_memos() -> None:
    """Empty the line memos (they refill as lines are seen)."""
    global _memo_size
    for memo in VALUES:
        memo.clear()
        memo[0] = 0
    for found in COMPLETIONS:
        found.clear()
    _memo_size = 0


def _windows(line: int, key: int) -> Iterator[tuple[int, int, int]]:
    """(start, White count, Black count) of each five-cell window of the line."""
    white, black = key & LINE_POSITION_MASK, key >> LINE_COLOUR_SHIFT
    for start in range(len(LINES[line]) - 4):
        yield start, (white >> start & 31).bit_count(), (black >> start & 31).bit_count()


def line_value(line: int, key: int) -> int:
    """The line's share of the tally for the contents `key` (memoised)."""
    global _memo_size
    memo = VALUES[line]
    value = memo.get(key)
    if value is not None:
        return value
    value = fours = 0
    for _, white, black in _windows(line, key):
        for colour, own, other in ((0, white, black), (1, black, white)):
            if other or own < 2:
                continue
            if own == 5:
                value += 1 << (FIVES + FIELD_BITS * colour)
            else:
                value += field(N2 + 3 * colour + own - 2)
                if own == 4:
                    fours |= 1 << colour
    value |= fours << (FOUR_FLAGS + 2 * line)
    if _memo_size >= MEMO_LIMIT:
        clear_line_memos()
        memo = VALUES[line]
    memo[key] = value
    _memo_size += 1
    return value


def line_completions(line: int, key: int) -> tuple[int, int]:
    """(White's, Black's) cells that complete a five in a four of the line."""
    memo = COMPLETIONS[line]
    found = memo.get(key)
    if found is not None:
        return found
    cells = LINES[line]
    white, black = key & LINE_POSITION_MASK, key >> LINE_COLOUR_SHIFT
    out = [0, 0]
    for start, w, b in _windows(line, key):
        for colour, own, count, other in ((0, white, w, b), (1, black, b, w)):
            if count == 4 and not other:
                for pos in range(start, start + 5):
                    if not own >> pos & 1:
                        out[colour] |= BIT[cells[pos]]
    found = (out[0], out[1])
    memo[key] = found
    return found


def four_completions(tally: int, keys: list[int], colour: int) -> int:
    """The cells completing a five in some four of `colour` (a bitboard)."""
    flags = tally >> FOUR_FLAGS & COLOUR_FLAGS[colour]
    out = 0
    while flags:
        low = flags & -flags
        line = low.bit_length() - 1 >> 1
        out |= line_completions(line, keys[line])[colour]
        flags ^= low
    return out


#: A cell's mask is at least TWO_STONES when two or more of its neighbours
#: are occupied (the placement rule), and so on.
ONE_STONE, TWO_STONES, THREE_STONES = COUNT_UNIT, 2 * COUNT_UNIT, 3 * COUNT_UNIT
#: The mask bits of each colour's neighbours, and its unit of mobility.
COLOUR_BITS = (63, 63 << 6)
MOBILITY_UNITS = (field(MOBILITY), field(MOBILITY + 1))
#: Per colour, the tables `AndantinoState.make` reads, in one tuple (one
#: look-up per move): its stones' and the enemy's STONE_VALUE, FIVE_AROUND
#: of both, ONE_NEIGHBOUR, COLOUR_BITS, its mobility unit, NEIGHBOUR_BITS
#: and LINE_BITS.
SIDES = tuple(
    (
        STONE_VALUE[colour],
        STONE_VALUE[1 - colour],
        FIVE_AROUND[colour],
        FIVE_AROUND[1 - colour],
        ONE_NEIGHBOUR[colour],
        COLOUR_BITS[colour],
        MOBILITY_UNITS[colour],
        NEIGHBOUR_BITS[colour],
        LINE_BITS[colour],
    )
    for colour in (0, 1)
)


def enclosing_cells(board: list[int], masks: list[int], stones: int, player: int) -> int:
    """The empty cells where `player` would enclose one of `stones` (enemy
    stones with five of `player`'s around them): the sixth neighbour of each."""
    out = 0
    shift = 6 * player
    while stones:
        low = stones & -stones
        stone = CELL_OF_POSITION[low.bit_length() - 1]
        n = NEIGHBOURS6[stone][GAP[masks[stone] >> shift & 63]]
        if board[n] < 0:
            out |= BIT[n]
        stones ^= low
    return out
