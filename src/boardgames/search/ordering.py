"""Move ordering: try the move most likely to cause a cutoff first.

Alpha-beta prunes most when the best move comes first.  The order is:

1. the transposition-table move (best move found here before);
2. the killer moves of this ply (two moves that recently caused a cutoff
   at the same distance from the root, in a sibling position);
3. the history heuristic (moves that caused cutoffs anywhere, weighted by
   depth squared so cutoffs near the root count most);
4. the game's static order (the order of `legal_moves()`), or the user's
   `order(state, moves)` callback.  Sorting is stable, so the static order
   breaks every tie of the history scores.
"""

from __future__ import annotations

from collections.abc import Callable

from ..game import S

MAX_PLY = 1024
#: A static move order, `Searcher(order=...)`: `order(state, moves)` returns
#: the moves reordered (best first).
Order = Callable[[S, list[int]], list[int]]


class Killers:
    """Two killer moves per ply; the newest first."""

    def __init__(self, max_ply: int = MAX_PLY) -> None:
        self.table: list[list[int]] = [[-1, -1] for _ in range(max_ply + 1)]

    def add(self, ply: int, move: int) -> None:
        """Remember `move` as the newest killer at `ply` (two kept per ply)."""
        slot = self.table[ply]
        if slot[0] != move:
            slot[1] = slot[0]
            slot[0] = move

    def clear(self) -> None:
        """Forget every killer move."""
        for slot in self.table:
            slot[0] = slot[1] = -1


class History:
    """Cutoff counts per (side to move, move), weighted by depth squared."""

    def __init__(self, num_moves: int) -> None:
        self.tables: list[list[int]] = [[0] * num_moves, [0] * num_moves]

    def add(self, side: int, move: int, depth: int) -> None:
        """Credit `move` of `side` with a cutoff at `depth` (depth squared)."""
        self.tables[side][move] += depth * depth

    def age(self) -> None:
        """Halve every count so that old searches fade instead of dominating."""
        for table in self.tables:
            for i, v in enumerate(table):
                if v:
                    table[i] = v >> 1

    def clear(self) -> None:
        """Forget every history score."""
        for table in self.tables:
            table[:] = [0] * len(table)


def order_moves(
    moves: list[int], tt_move: int, killers: list[int] | None, history: list[int] | None
) -> list[int]:
    """`moves` reordered: TT move, killers, then by history (stable).

    `moves` may be sorted in place; the returned list is the one to use.
    """
    if history is not None and len(moves) > 1:
        moves.sort(key=history.__getitem__, reverse=True)
    if killers is not None:
        k0, k1 = killers
        if k1 >= 0 and k1 != tt_move and k1 in moves:
            moves.remove(k1)
            moves.insert(0, k1)
        if k0 >= 0 and k0 != tt_move and k0 in moves:
            moves.remove(k0)
            moves.insert(0, k0)
    if tt_move >= 0 and tt_move in moves:
        moves.remove(tt_move)
        moves.insert(0, tt_move)
    return moves


def cutoff_recorder(
    killer_table: list[list[int]] | None, hist_tables: list[list[int]] | None
) -> Callable[[int, int, int, int], None]:
    """`remember(move, ply, side, weight)` after a cutoff (the solver's node
    function): the move becomes the newest killer of its ply and gains
    `weight` in the history of `side`.  A table given as None is left out.

    The alpha-beta node writes the same two updates in place (weight: depth
    squared), where one call per cutoff would cost it ~0.5% of its speed."""

    def remember(move: int, ply: int, side: int, weight: int) -> None:
        if killer_table is not None:
            slot = killer_table[ply]
            if slot[0] != move:
                slot[1] = slot[0]
                slot[0] = move
        if hist_tables is not None:
            hist_tables[side][move] += weight

    return remember
