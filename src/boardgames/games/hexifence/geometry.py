"""Board layouts: HexiFence's hexagon of hexagons and dots-and-boxes' grid.

A `Layout` says which edges surround which cell; the rules (rules.py) work
on any layout.

Both live on an edge grid of points (row, column): cell centres at odd/odd
points, edges at the points between cells.  Edges and cells are numbered in
reading order of their points, so sorting moves sorts them by position.
Symmetries are computed geometrically on the grid points and checked to map
cells to cells with their edges.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from ...zobrist import closure

Point = tuple[int, int]


@dataclass(frozen=True)
class Layout:
    """Cells and edges of one board, as move indices, plus its symmetries.

    `edge_points` / `cell_points` give each edge and cell a point (row,
    column) of the board's edge grid: notation and pictures use them.
    `symmetries` permute edges and `cell_symmetries` the cells, in the same
    order (identity first).
    """

    rows: int
    cols: int
    cell_edges: tuple[tuple[int, ...], ...]
    edge_points: tuple[tuple[int, int], ...]
    cell_points: tuple[tuple[int, int], ...]
    symmetries: tuple[tuple[int, ...], ...]
    cell_symmetries: tuple[tuple[int, ...], ...]

    @property
    def num_edges(self) -> int:
        """The number of edges of the layout."""
        return len(self.edge_points)

    @property
    def num_cells(self) -> int:
        """The number of cells of the layout."""
        return len(self.cell_points)

    def edge_cells(self) -> tuple[tuple[int, ...], ...]:
        """For every edge, the one or two cells it borders."""
        out: list[list[int]] = [[] for _ in range(self.num_edges)]
        for c, edges in enumerate(self.cell_edges):
            for e in edges:
                out[e].append(c)
        return tuple(tuple(cells) for cells in out)


def _build(
    rows: int,
    cols: int,
    on_board: Callable[[int, int], bool],
    cell_offsets: tuple[Point, ...],
    point_maps: list[Callable[[int, int], Point]],
) -> Layout:
    points = [(i, j) for i in range(rows) for j in range(cols) if on_board(i, j)]
    cells = [p for p in points if p[0] % 2 == 1 and p[1] % 2 == 1]
    cell_set = set(cells)
    edge_set = {(i + di, j + dj) for i, j in cells for di, dj in cell_offsets}
    edges = [p for p in points if p in edge_set and p not in cell_set]
    edge_index = {p: k for k, p in enumerate(edges)}
    cell_index = {p: k for k, p in enumerate(cells)}
    cell_edges = tuple(
        tuple(sorted(edge_index[(i + di, j + dj)] for di, dj in cell_offsets)) for i, j in cells
    )
    generators = []
    for fn in point_maps:
        edge_perm = tuple(edge_index[fn(*p)] for p in edges)
        cell_perm = tuple(cell_index[fn(*p)] for p in cells)
        generators.append(edge_perm + tuple(len(edges) + c for c in cell_perm))
    group = closure(generators, len(edges) + len(cells))
    n = len(edges)
    symmetries = tuple(g[:n] for g in group)
    cell_symmetries = tuple(tuple(x - n for x in g[n:]) for g in group)
    for perm, cperm in zip(symmetries, cell_symmetries, strict=True):
        for c, ce in enumerate(cell_edges):
            assert sorted(perm[e] for e in ce) == list(cell_edges[cperm[c]])
    return Layout(rows, cols, cell_edges, tuple(edges), tuple(cells), symmetries, cell_symmetries)


@cache
def hex_layout(n: int) -> Layout:
    """HexiFence of dimension n: a (4n-1)-square edge grid, |i - j| <= 2n - 1.

    Around a cell centre the six edges sit at offsets (-1,-1) (-1,0) (0,-1)
    (0,1) (1,0) (1,1): axial hex coordinates.  In offsets (a, b) from the
    centre point, a 60-degree turn is (a, b) -> (a - b, a) and a mirror is
    (a, b) -> (-b, -a): together they give the 12 symmetries.
    """
    size = 4 * n - 1
    mid = 2 * n - 1

    def rotate(i: int, j: int) -> Point:
        a, b = i - mid, j - mid
        return a - b + mid, a + mid

    def mirror(i: int, j: int) -> Point:
        a, b = i - mid, j - mid
        return -b + mid, -a + mid

    offsets = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1))
    return _build(size, size, lambda i, j: abs(i - j) <= mid, offsets, [rotate, mirror])


@cache
def square_layout(rows: int, cols: int) -> Layout:
    """Dots-and-boxes with rows x cols boxes: a (2r+1) x (2c+1) grid, edges
    where row + column is odd; 8 symmetries on a square, 4 otherwise."""
    h, w = 2 * rows, 2 * cols
    maps: list[Callable[[int, int], Point]] = [
        lambda i, j: (h - i, j),
        lambda i, j: (i, w - j),
    ]
    if rows == cols:
        maps.append(lambda i, j: (j, i))
    offsets = ((-1, 0), (0, -1), (0, 1), (1, 0))
    return _build(h + 1, w + 1, lambda i, j: True, offsets, maps)
