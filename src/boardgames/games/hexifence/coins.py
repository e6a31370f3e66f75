"""The strings-and-coins view of an edge-capture layout, for the solver.

Berlekamp's dual of dots-and-boxes: every cell is a coin, every edge a
string, an edge between two cells ties their coins together and an edge on
the border ties its one coin to the ground.  Claiming an edge cuts its
string; a coin whose last string is cut is captured.

The ground is one node, so the border edges of a cell are interchangeable:
which of them are claimed never matters, only how many.  `Coins` numbers
the solver's moves accordingly:

- moves 0 .. inner-1: the edges between two cells (`inner_edges`);
- move inner + c: "claim one border edge of cell c" (`cell_ground[c]` of them).

So the solver tries one border edge per cell, not each of them, and its
position key counts the claimed border edges of each cell instead of naming
them.  On dots-and-boxes this is the corner symmetry Barker and Korf point
out (the two outer edges of a corner box are the same move); on HexiFence
each rim cell has two or three such edges.

`deltas[m]` holds, for every board symmetry (frame), the amount the key of
that frame grows when move m is made: a bit for an inner edge, one unit of
the cell's counter field for a border edge.  The canonical key of a position
is the smallest of its frame keys.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .geometry import Layout


@dataclass(frozen=True)
class Coins:
    """Cells, their strings and the symmetric key deltas of one layout."""

    num_cells: int
    #: the layout's edge index of every inner move
    inner_edges: tuple[int, ...]
    #: the two cells of every inner move
    inner_cells: tuple[tuple[int, int], ...]
    #: the layout's border edges of every cell (possibly none)
    ground_edges: tuple[tuple[int, ...], ...]
    #: for every cell, (inner move, other cell) of each of its inner edges
    cell_links: tuple[tuple[tuple[int, int], ...], ...]
    #: for every move, one key delta per frame
    deltas: tuple[tuple[int, ...], ...]
    #: for every move, its cells (one for a border move)
    move_cells: tuple[tuple[int, ...], ...]
    #: moves in search order: nearest the centre of the board first
    centre_order: tuple[int, ...]
    #: the solver's move of every layout edge (border edges: their cell's move)
    edge_move: tuple[int, ...]
    #: for every frame, the image of every move (`to_frame`) and back (`from_frame`)
    to_frame: tuple[tuple[int, ...], ...]
    from_frame: tuple[tuple[int, ...], ...]

    @property
    def inner(self) -> int:
        """The number of inner moves (edges between two cells)."""
        return len(self.inner_edges)

    @property
    def num_moves(self) -> int:
        """The number of moves: the inner ones and one border move per cell."""
        return self.inner + self.num_cells

    @property
    def frames(self) -> int:
        """The number of symmetry frames (1 without symmetries)."""
        return len(self.deltas[0]) if self.deltas else 1


@cache
def coins_of(layout: Layout, symmetric: bool = True) -> Coins:
    """The coins view of `layout`; `symmetric=False` keys in one frame only."""
    cells = layout.num_cells
    edge_cells = layout.edge_cells()
    inner_edges = tuple(e for e in range(layout.num_edges) if len(edge_cells[e]) == 2)
    inner_index = {e: i for i, e in enumerate(inner_edges)}
    inner_cells = tuple((edge_cells[e][0], edge_cells[e][1]) for e in inner_edges)
    ground = [[] for _ in range(cells)]  # type: list[list[int]]
    for e in range(layout.num_edges):
        if len(edge_cells[e]) == 1:
            ground[edge_cells[e][0]].append(e)
    links = [[] for _ in range(cells)]  # type: list[list[tuple[int, int]]]
    for i, (a, b) in enumerate(inner_cells):
        links[a].append((i, b))
        links[b].append((i, a))
    width = max(len(g) for g in ground).bit_length() or 1
    field: dict[int, int] = {}
    for c in range(cells):
        if ground[c]:
            field[c] = len(inner_edges) + width * len(field)
    frames = range(len(layout.symmetries)) if symmetric else range(1)
    deltas = []
    for e in inner_edges:
        deltas.append(tuple(1 << inner_index[layout.symmetries[f][e]] for f in frames))
    for c in range(cells):
        deltas.append(
            tuple(1 << field[layout.cell_symmetries[f][c]] if ground[c] else 0 for f in frames)
        )
    move_cells = tuple(inner_cells) + tuple((c,) for c in range(cells))
    edge_move = [0] * layout.num_edges
    for e in range(layout.num_edges):
        cs = edge_cells[e]
        edge_move[e] = inner_index[e] if len(cs) == 2 else len(inner_edges) + cs[0]
    to_frame = []
    for f in frames:
        perm, cperm = layout.symmetries[f], layout.cell_symmetries[f]
        image = [inner_index[perm[e]] for e in inner_edges]
        to_frame.append(tuple(image + [len(inner_edges) + cperm[c] for c in range(cells)]))
    from_frame = [tuple(sorted(range(len(p)), key=p.__getitem__)) for p in to_frame]
    return Coins(
        num_cells=cells,
        inner_edges=inner_edges,
        inner_cells=inner_cells,
        ground_edges=tuple(tuple(g) for g in ground),
        cell_links=tuple(tuple(x) for x in links),
        deltas=tuple(deltas),
        move_cells=move_cells,
        centre_order=_centre_order(layout, inner_edges, ground),
        edge_move=tuple(edge_move),
        to_frame=tuple(to_frame),
        from_frame=tuple(from_frame),
    )


def _centre_order(
    layout: Layout, inner_edges: tuple[int, ...], ground: list[list[int]]
) -> tuple[int, ...]:
    """Moves by distance of their edge point from the board's centre, inner
    edges first on ties (Barker and Korf order moves centre first).  The
    distance is averaged over the edge's images under the symmetries, so that
    symmetric edges tie (on HexiFence's skewed grid too)."""
    mid_i = (layout.rows - 1) / 2
    mid_j = (layout.cols - 1) / 2

    def plain(edge: int) -> float:
        i, j = layout.edge_points[edge]
        return (i - mid_i) ** 2 + (j - mid_j) ** 2

    def distance(edge: int) -> float:
        return sum(plain(s[edge]) for s in layout.symmetries) / len(layout.symmetries)

    moves = [(distance(e), 0, m) for m, e in enumerate(inner_edges)]
    for c, edges in enumerate(ground):
        if edges:
            moves.append((min(distance(e) for e in edges), 1, len(inner_edges) + c))
    return tuple(m for _, _, m in sorted(moves))
