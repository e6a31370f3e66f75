"""An exact win/loss solver for Hadron.

Hadron has no draws and no scores: a position is a win for the side to move
iff some move leads to a loss for the opponent.  The solver is a depth-first
AND/OR search with a table of proven results, made fast by the game's
structure (values.py explains the terms):

- **Nodes, not boards** (nodes.py): the live cells by surplus, relative to
  the mover, with packed hashes over the board's symmetries; regions of at
  most `split` live cells are taken off as exact partizan values summed in
  s (values.py, cgt.py).  With no legal cell left on the board, s alone
  decides (the mover wins iff s is not <= 0).  Hadron is partizan (a stone
  of either colour on the same cell leaves different positions), so s is
  a canonical partizan game, not a nim heap; tests check both this and the
  sums against brute force.
- **The Tweedledum rule**: on boards with a mirror pairing (even x even), a
  board equal to its mirror image with the colours swapped is 0, so s
  decides; the root's moves try the mirror image of the last move first.
- **Move order**: fewest replies first (legal cells after the move,
  counted from the bitboards without making it), which finds refutations
  early, as in other last-player-wins games; the moves in s after the
  board's; at the root, ties go to the centre (on 5 x 5 every first move
  wins, and the centre's proof is the smallest by far).
- **Enhanced transposition cutoffs** at nodes with `etc` legal cells or
  more: a child already proven lost wins at once.
- **A capped table** (`max_entries`, about 100 bytes an entry): each entry
  keeps its subtree's node count; when the table is full the cheaper half
  goes (`solution.SolverBase`, which also keeps the node count and polls
  the budget).

`solve` returns the library's `SolveResult` (value +1/-1 from the side to
move) and raises the library's `SearchStopped` when its budget (`limits`:
time, nodes, stop signal) runs out; the AI layer
(`boardgames.ai.hadron.players`) registers it for `boardgames solve` and
lets the default player try it in the endgame.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, cast

from ...budget import Limits
from ...solution import SolverBase, SolveResult, line_by_solving, split_order
from .nodes import LANE, LANE_MASK, SPLIT, Node, Nodes

if TYPE_CHECKING:
    from ...game import State
    from .rules import HadronRules, HadronState


#: Added to the score of the moves in s: after every move on the board.
LAST = 1 << 10
#: A parallel solve (`SolverBase.share`) shares the entries of positions
#: with this many legal cells or more; the rest stay in the private table.
SHARE_LEGAL = 6


class HadronSolver(SolverBase, Nodes):
    """Solve positions of one Hadron game; the table persists across calls.

    Switches for cross-checks: `split` (0: no regions taken off),
    `symmetry`, `mirror` (the Tweedledum rule), `etc` (nodes with this many
    legal cells look their children up in the table first).
    """

    def __init__(
        self,
        game: HadronRules,
        *,
        max_entries: int = 8_000_000,
        split: int = SPLIT,
        symmetry: bool = True,
        mirror: bool = True,
        etc: int = 6,
        seed: int = 0x4AD0,
    ) -> None:
        Nodes.__init__(self, game, split=split, symmetry=symmetry, mirror=mirror, seed=seed)
        #: The table: key -> (bit length of the subtree's node count << 1) | (1 if
        #: the side to move wins): small ints, which Python shares (no object per entry).
        SolverBase.__init__(self, max_entries)
        #: Nodes with this many legal cells or more look their children up first.
        self.etc = etc

    # --- the driver --------------------------------------------------------------------
    def solve(
        self,
        state: HadronState,
        limits: Limits | None = None,
        *,
        all_moves: bool = False,
        line: bool = False,
    ) -> SolveResult:
        """Exact value of `state` for the side to move; `state` is left as it was.

        `value` is +1 (the side to move wins) or -1; `best` is one winning
        move, every winning move with `all_moves`, and [] when the side to
        move loses.  `line` adds a principal line, each step solved on the
        same table.  Raises SearchStopped ("solve gave up after S s (N
        nodes)") when the `limits` (time and nodes, for both; a stop
        signal) run out first.
        """
        if not line:
            return self._solve(state, all_moves, limits)
        result = self._solve(state, all_moves, limits)
        budget = self.budget

        def step(position: State[Any], left: Limits | None) -> SolveResult:
            return self._solve(cast("HadronState", position), False, left)

        result.line = line_by_solving(state, result, step, budget)
        result.time = budget.elapsed()
        return result

    def _solve(self, state: HadronState, all_moves: bool, limits: Limits | None) -> SolveResult:
        side = state.to_move
        self.begin(limits)
        if state.is_over():
            return self.result(-1, side, [])
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.game.cells + 500))
        work = state.copy()
        try:
            winning: list[int] = []
            for move in split_order(self._root_order(work), self.variant):
                self.poll()
                work.make(move)
                child_wins = self.wins(work)
                work.undo()
                if not child_wins:
                    winning.append(move)
                    if not all_moves:
                        break
        finally:
            sys.setrecursionlimit(limit)
        return self.result(1 if winning else -1, side, winning)

    def vary(self, index: int) -> bool:
        """Make this solver helper `index` of a parallel solve: it solves the
        root as the main process does, its moves in `split_order` (the last
        first for helper 1).  Where the root is lost every move must be
        refuted, and the two processes meet in the middle of the list,
        each finding the other's children in the shared table."""
        self.variant = index
        return True

    def wins(self, state: HadronState) -> bool:
        """True iff the side to move wins `state` (no clock reset: `solve` sets it)."""
        return self._win(*self.node(state), state.history[-1] if state.history else -1)

    def _root_order(self, state: HadronState) -> list[int]:
        """The legal moves: first the mirror images of the last move (the copying
        reply), then fewest replies first, ties by distance from the centre
        (the game's static order).  The order matters: on 5 x 5 every first
        move wins, and the centre's proof is the smallest by far."""
        rank = {move: i for i, move in enumerate(self.game.order)}
        mirrored = {p[state.history[-1]] for _, _, p in self.mirrors} if state.history else set()
        scored = []
        for move in state.legal_moves():
            state.make(move)
            scored.append((move not in mirrored, state.legal.bit_count(), rank[move], move))
            state.undo()
        return [move for *_, move in sorted(scored)]

    # --- the search ------------------------------------------------------------------------
    #: A table entry is the work (bit length of the node count) above the result bit.
    WORK_SHIFT = 1

    def _win(
        self, big: int, legal: int, p1: int, n1: int, p2: int, n2: int,
        hb: int, hp: int, hn: int, s: int, last: int,
    ) -> bool:
        """True iff the side to move wins.  A documented hot loop (longer than 80
        lines on purpose: one call per node, everything inline).

        big: the live cells left on the board; legal, p1, n1, p2, n2: those
        with d = 0, +1, -1, +2, -2 for the side to move; hb, hp, hn: the
        packed hashes (B-terms, A-terms of d > 0, of d < 0); s: the value of
        the regions taken off, the side to move as Left; last: the cell of
        the last move, whose mirror images are tried first (-1: none; the
        search passes -1, the driver the root's moves).
        """
        self.nodes += 1
        games = self.games
        if not legal:
            return games.left_wins_first(s)
        x = hb + hp - hn + self.offset
        key = self.lane_min(x) | s << LANE
        known = self.table.get(key)
        if known is None and self.shared is not None and legal.bit_count() >= SHARE_LEGAL:
            known = self.shared.get(key)
        if known is not None:
            return known & 1 == 1
        if self.nodes >= self.next_check:
            self.poll()
        first = -1
        for shift, bad, image in self.mirrors:
            if not big & bad:
                # Tweedledum: the board is its own mirror image with the colours
                # swapped, so it is 0 (the second player copies) and s decides.
                if x >> shift & LANE_MASK == (hb + hn - hp + self.offset) & LANE_MASK:
                    result = games.left_wins_first(s)
                    self.table[key] = 2 | result
                    return result
                if last >= 0 and legal >> image[last] & 1:
                    first = image[last]
        before = self.nodes
        nb = self.nb
        # Moves, fewest replies first: the legal cells after a stone on c are the
        # others, less c's legal neighbours, plus its neighbours at d = -1.  Sort
        # keys are ints: (score + 8) << 10 | c.
        scored = []
        m = legal
        while m:
            low = m & -m
            m ^= low
            c = low.bit_length() - 1
            around = nb[c]
            scored.append(
                (8 + (around & n1).bit_count() - (around & legal).bit_count()) << 10 | c)
        # Then the moves in s (measured: trying them last saves 6-16% of the nodes),
        # fewest replies first: key (LAST + replies) << 10 | (1023 - option).
        right = games.right
        for i, option in enumerate(games.left[s]):
            scored.append((LAST + len(right[option])) << 10 | (1023 - i))
        scored.sort()
        moves = [k & 1023 if k < LAST << 10 else (k & 1023) - 1024 for k in scored]
        if first >= 0:
            moves.insert(0, first)
        result = False
        play = self.play
        table = self.table
        children: list[Node] | None = None
        if legal.bit_count() >= self.etc:
            # Enhanced transposition cutoff: a child already proven lost.
            children = [play(c, big, legal, p1, n1, p2, n2, hb, hp, hn, s) for c in moves]
            for child in children:
                if child[1]:
                    known = table.get(self.key(child))
                    if known is not None and not known & 1:
                        result = True
                        break
        if not result:
            for i, c in enumerate(moves):
                child = (children[i] if children is not None
                         else play(c, big, legal, p1, n1, p2, n2, hb, hp, hn, s))
                if not child[1]:  # no legal cell left on the board: the sum decides
                    self.nodes += 1
                    if not games.left_wins_first(child[9]):
                        result = True
                        break
                elif not self._win(*child, -1):
                    result = True
                    break
        entry = (self.nodes - before).bit_length() << 1 | result
        table = self.table
        if len(table) >= self.max_entries:
            self.make_room()
            table = self.table
        table[key] = entry
        if self.shared is not None and legal.bit_count() >= SHARE_LEGAL:
            self.shared.put(key, entry)
        return result
