"""Exact values of small Hadron regions, as partizan games (see cgt.py).

A *live* cell is an empty cell that later stones could still balance: its
surplus d (White minus Black neighbours) is at most the number of its live
neighbours in size.  Only live cells can ever receive a stone (a cell
needs |d| stones of the other colour around it first, all of them on live
cells), so the live cells are the greatest set with that property, and
the rest of the board is settled.  Live cells that touch form *regions*; a
stone changes the surplus of its neighbours only, so the regions are
independent and the position is their sum.  A region's future depends on
its cells and their surpluses alone: where the stones that made them are,
and the board's edge, no longer matter.  So a region's value is a function
of a small labelled polyomino, the same on every board, in every place
and under every rotation or reflection; swapping the colours negates it.

`RegionValues.value(cells)` computes the canonical value of a connected
region given as {(row, col): d} with Left the player whose stones count
positive, from the values of the regions its moves leave; the cache is
keyed by the region moved to the origin under the best of the 8 symmetries
and the sign (so one entry serves 16 variants).
"""

from __future__ import annotations

from .cgt import ZERO, Games

Cells = dict[tuple[int, int], int]

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))

Key = tuple[tuple[int, int, int], ...]


def normal_form(cells: Cells) -> tuple[Key, int]:
    """The smallest of the region's 16 images (8 symmetries x 2 signs), moved to
    the origin, and the sign used (-1: the image has the colours swapped)."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    plus = list(cells.values())
    minus = [-d for d in plus]
    back_rows = [-r for r in rows]
    back_cols = [-c for c in cols]
    best: Key | None = None
    best_sign = 1
    for ys, xs in (
        (rows, cols), (rows, back_cols), (back_rows, cols), (back_rows, back_cols),
        (cols, rows), (cols, back_rows), (back_cols, rows), (back_cols, back_rows),
    ):
        top, left = min(ys), min(xs)
        ys = [y - top for y in ys]
        xs = [x - left for x in xs]
        for sign, ds in ((1, plus), (-1, minus)):
            key = tuple(sorted(zip(ys, xs, ds)))
            if best is None or key < best:
                best, best_sign = key, sign
    assert best is not None
    return best, best_sign


def settle(cells: Cells, todo: list[tuple[int, int]]) -> None:
    """Remove the cells that died (|d| above their live neighbours), starting from
    `todo` and following each removal to its neighbours."""
    while todo:
        p = todo.pop()
        d = cells.get(p)
        if d is None:
            continue
        r, c = p
        around = [q for q in ((r + dr, c + dc) for dr, dc in STEPS) if q in cells]
        if abs(d) > len(around):
            del cells[p]
            todo.extend(around)


def components(cells: Cells) -> list[Cells]:
    """The connected parts of a set of cells (orthogonal adjacency)."""
    seen: set[tuple[int, int]] = set()
    parts = []
    for start in cells:
        if start in seen:
            continue
        part: Cells = {}
        stack = [start]
        seen.add(start)
        while stack:
            p = stack.pop()
            part[p] = cells[p]
            r, c = p
            for dr, dc in STEPS:
                q = (r + dr, c + dc)
                if q in cells and q not in seen:
                    seen.add(q)
                    stack.append(q)
        parts.append(part)
    return parts


class RegionValues:
    """Canonical values of connected live regions, cached by normal form."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.cache: dict[Key, int] = {}
        #: The same values by the region as given, moved to the origin only.
        self.placed: dict[Key, int] = {}
        #: Regions evaluated (cache misses), for the reports.
        self.evaluated = 0

    def value(self, cells: Cells) -> int:
        """The value of a connected live region {(row, col): d}, Left counted positive."""
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        placed = tuple(sorted((r - top, c - left, d) for (r, c), d in cells.items()))
        value = self.placed.get(placed)
        if value is None:
            key, sign = normal_form(cells)
            value = self.cache.get(key)
            if value is None:
                value = self.cache[key] = self._evaluate({(r, c): d for r, c, d in key})
            if sign < 0:
                value = self.games.neg(value)
            self.placed[placed] = value
        return value

    def after(self, cells: Cells, cell: tuple[int, int], colour: int) -> int:
        """The value left after a stone of `colour` (+1 Left, -1 Right) on the
        legal `cell`: the sum of the regions that remain live."""
        rest = dict(cells)
        del rest[cell]
        r, c = cell
        touched = []
        for dr, dc in STEPS:
            q = (r + dr, c + dc)
            if q in rest:
                rest[q] += colour
                touched.append(q)
        settle(rest, touched)
        games = self.games
        return games.total(self.value(part) for part in components(rest))

    def _evaluate(self, cells: Cells) -> int:
        self.evaluated += 1
        legal = [p for p, d in cells.items() if not d]
        if not legal:
            return ZERO
        return self.games.make(
            [self.after(cells, p, 1) for p in legal], [self.after(cells, p, -1) for p in legal]
        )
