"""Geometry of the radius-9 hexagonal Andantino board: the tables built once
at import (cells, neighbours, lines, bitboard masks, symmetries) and the
bitboard helpers over them (dilation, the enclosure flood fill).

Cells are numbered with the seed player's tile index (seed 000): the centre
is 0 and ring r >= 1 holds 3r(r-1)+1 .. 3r(r+1), starting at its south-west
corner (-r, 0, r) and walking E x r, NE x r, NW x r, W x r, SW x r, SE x (r-1).
That index is the move number, the Zobrist slot and the list index of every
per-cell table below.

Cube coordinates (x, y, z) with x + y + z = 0.  On screen z grows downwards
(row A is z = -9) and x grows to the right.

For flood fills and pattern counts the board is also laid out as a bitboard
(a Python int): cell (x, z) is bit (z + 9) * STRIDE + (x + 9).  With a stride
of 20 the six neighbours are the shifts by 1, 19 and 20 either way, and a
step that would wrap round a row lands in the unused column 19 (or off the
board), which every mask excludes.
"""

from __future__ import annotations

RADIUS = 9
SIZE = 3 * RADIUS * (RADIUS + 1) + 1  # 271 cells
STRIDE = 20

Cube = tuple[int, int, int]

#: The six directions in clockwise order on screen: NE, E, SE, SW, W, NW.
#: Consecutive directions point at adjacent cells; opposites are three apart.
DIRECTIONS: tuple[Cube, ...] = (
    (1, 0, -1),
    (1, -1, 0),
    (0, -1, 1),
    (-1, 0, 1),
    (-1, 1, 0),
    (0, 1, -1),
)
#: Bit offset of each direction in the bitboard layout (dz * STRIDE + dx).
BIT_STEPS = tuple(d[2] * STRIDE + d[0] for d in DIRECTIONS)
#: The three line axes, as direction indices (E-W, SE-NW, SW-NE).
AXES = ((1, 4), (2, 5), (3, 0))


def ring_of(cube: Cube) -> int:
    """The distance of a cell from the centre (0 at the centre, 9 at the edge)."""
    return max(abs(cube[0]), abs(cube[1]), abs(cube[2]))


def _add(a: Cube, b: Cube, times: int = 1) -> Cube:
    return (a[0] + times * b[0], a[1] + times * b[1], a[2] + times * b[2])


def _seed_order() -> list[Cube]:
    """Cube coordinates in the seed's tile-index order."""
    east, ne, nw, west, sw, se = (DIRECTIONS[i] for i in (1, 0, 5, 4, 3, 2))
    cells: list[Cube] = [(0, 0, 0)]
    for r in range(1, RADIUS + 1):
        cube: Cube = (-r, 0, r)
        walk = [east] * r + [ne] * r + [nw] * r + [west] * r + [sw] * r + [se] * (r - 1)
        cells.append(cube)
        for step in walk:
            cube = _add(cube, step)
            cells.append(cube)
    return cells


#: CUBES[index] -> (x, y, z); INDEX[(x, y, z)] -> index.
CUBES: tuple[Cube, ...] = tuple(_seed_order())
INDEX: dict[Cube, int] = {c: i for i, c in enumerate(CUBES)}
RING: tuple[int, ...] = tuple(ring_of(c) for c in CUBES)

#: NEIGHBOURS6[i][d]: the neighbour in direction d, or -1 off the board.
NEIGHBOURS6: tuple[tuple[int, ...], ...] = tuple(
    tuple(INDEX.get(_add(c, d), -1) for d in DIRECTIONS) for c in CUBES
)
#: NEIGHBOURS[i]: the neighbours on the board.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in ns if n >= 0) for ns in NEIGHBOURS6
)


def _ray(i: int, d: int, limit: int = RADIUS * 2) -> tuple[int, ...]:
    out: list[int] = []
    j = NEIGHBOURS6[i][d]
    while j >= 0 and len(out) < limit:
        out.append(j)
        j = NEIGHBOURS6[j][d]
    return tuple(out)


#: LINE_RAYS[i]: for each axis, (cells one way, cells the other way), four each
#: at most: enough to see five in a row through i.
LINE_RAYS: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple((_ray(i, a, 4), _ray(i, b, 4)) for a, b in AXES) for i in range(SIZE)
)


#: LINES[l]: the cells of line l in order, every maximal straight line of the
#: board along the three axes (E, SE and SW, each from its far end): 57 lines
#: of 10 to 19 cells.  Five in a row and the five-cell windows of the
#: evaluator live on them.
def _lines() -> tuple[tuple[int, ...], ...]:
    out = []
    for d in (1, 2, 3):
        back = (d + 3) % 6
        for i in range(SIZE):
            if NEIGHBOURS6[i][back] < 0:
                out.append((i, *_ray(i, d)))
    return tuple(out)


LINES: tuple[tuple[int, ...], ...] = _lines()
#: LINE_SLOTS[i]: (line, position of i on it) for the three lines through i.
LINE_SLOTS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((l, line.index(i)) for l, line in enumerate(LINES) if i in line) for i in range(SIZE)
)

# --- bitboards ------------------------------------------------------------------


def bit_position(cube: Cube) -> int:
    """The bit of a cell in the bitboards, from its cube coordinates."""
    return (cube[2] + RADIUS) * STRIDE + (cube[0] + RADIUS)


#: BIT[i] = 1 << (bit position of cell i).
BIT: tuple[int, ...] = tuple(1 << bit_position(c) for c in CUBES)
#: Cell index of a bit position (for decoding bitboards), -1 off the board.
CELL_OF_POSITION: dict[int, int] = {bit_position(c): i for i, c in enumerate(CUBES)}
BOARD_MASK = sum(BIT)
BORDER_MASK = sum(b for b, r in zip(BIT, RING) if r == RADIUS)

#: RAY_MASKS[i][d]: the cells strictly beyond i in direction d, to the edge.
#: A region holding i reaches the border if one of these rays holds no wall.
RAY_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[j] for j in _ray(i, d)) for d in range(6)) for i in range(SIZE)
)


#: LINE_MASKS[i][a]: the (up to 8) cells of LINE_RAYS[i][a] as a bitboard.  A
#: five through i along axis a needs four of our stones in it.
LINE_MASKS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(BIT[j] for j in one + other) for one, other in rays) for rays in LINE_RAYS
)


def cells_of(bits: int) -> list[int]:
    """The cell indices of a bitboard, in bit order."""
    out = []
    while bits:
        low = bits & -bits
        out.append(CELL_OF_POSITION[low.bit_length() - 1])
        bits ^= low
    return out


def dilate(bits: int) -> int:
    """`bits` and all their neighbours (may include off-board bits: mask it)."""
    return (
        bits | (bits << 1) | (bits >> 1) | (bits << 19) | (bits >> 19) | (bits << 20) | (bits >> 20)
    )


#: RING_MASKS[r]: the cells of ring r; BEYOND[r]: the cells of rings > r plus
#: the border ring.
RING_MASKS: tuple[int, ...] = tuple(
    sum(b for b, ring in zip(BIT, RING) if ring == r) for r in range(RADIUS + 1)
)
BEYOND: tuple[int, ...] = tuple(
    sum(RING_MASKS[r + 1 :]) | RING_MASKS[RADIUS] for r in range(RADIUS + 1)
)


def escape_mask(walls: int) -> int:
    """Cells from which a region surely reaches the border: the rings beyond the
    outermost wall (walking straight out from there meets no wall) and ring 9."""
    r = RADIUS
    while r and not walls & RING_MASKS[r]:
        r -= 1
    return BEYOND[r]


def flood(region: int, passable: int, escape: int = 0) -> int:
    """The library's one flood fill: `region` grown through `passable` cells to
    the full extent of its connected parts, or 0 as soon as it touches
    `escape` (0: never stop early).

    The rules flood from one cell with `escape` the cells that surely reach
    the border (is the region enclosed?); the evaluator floods inwards from
    those cells with no escape (which cells can the border reach?)."""
    region &= passable
    if region & escape:
        return 0
    while True:
        grown = (
            region
            | (region << 1)
            | (region >> 1)
            | (region << 19)
            | (region >> 19)
            | (region << 20)
            | (region >> 20)
        ) & passable
        if grown & escape:
            return 0
        if grown == region:
            return region
        region = grown


#: Number of separate runs of non-wall neighbours around a cell, for each
#: 6-bit mask of wall neighbours (bit d = direction d).  A stone can only cut
#: a region in two when its non-wall neighbours form two or more runs.
def _open_runs(mask: int) -> int:
    if mask == 0:
        return 1
    return sum(1 for d in range(6) if not mask >> d & 1 and mask >> ((d - 1) % 6) & 1)


OPEN_RUNS: tuple[int, ...] = tuple(_open_runs(m) for m in range(64))

# --- symmetries -----------------------------------------------------------------


def _rotate(c: Cube) -> Cube:
    """60 degrees about the centre."""
    return (-c[2], -c[0], -c[1])


def _reflect(c: Cube) -> Cube:
    """The mirror that swaps y and z (x is kept)."""
    return (c[0], c[2], c[1])


def _symmetries() -> tuple[tuple[int, ...], ...]:
    perms = []
    for mirror in (False, True):
        for turns in range(6):
            perm = []
            for c in CUBES:
                image = _reflect(c) if mirror else c
                for _ in range(turns):
                    image = _rotate(image)
                perm.append(INDEX[image])
            perms.append(tuple(perm))
    return tuple(perms)


#: The 12 symmetries of the hexagon about the centre, as permutations of cell
#: indices; SYMMETRIES[0] is the identity.
SYMMETRIES: tuple[tuple[int, ...], ...] = _symmetries()
