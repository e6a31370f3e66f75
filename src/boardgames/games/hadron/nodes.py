"""The Hadron solver's positions: live cells by surplus, packed symmetric
hashes, and small regions taken off as partizan values.

The solver (solver.py) searches *nodes*, not board states:

- **Only the live cells matter.**  A node is the set of live cells with the
  surplus d of each, from the mover's point of view (mover's minus
  opponent's neighbours), as five bitboards by value of d (-2..2; a live
  cell never has more: |d| is at most its stone neighbours and at most its
  live ones, four in all).  The stones are forgotten: positions with the
  same live cells and surpluses are one node, and a position equals the one
  with both the colours and the mover swapped, so the node is relative to
  the mover.  A stone moves its live neighbours up one plane; the cells left
  with |d| above their live neighbours die (followed as far as it goes).
- **Small regions leave the board.**  When a region of at most `split` live
  cells breaks off, its exact value as a partizan game (values.py, cgt.py)
  is added to a running sum `s` and its cells are dropped.  The node is then
  "the big regions + s": moves on the board, or a move in s to one of its
  options for the mover.
- **Keys over the board's symmetries.**  Each live cell with surplus d adds
  B[c] + d A[c] (random 90-bit numbers) to a hash; one hash per symmetry of
  the board (4 or 8; 1-wide boards have fewer), packed in 100-bit lanes of
  one integer and updated together with a few additions per move.  The key
  is the smallest lane (plus s); the opponent's hash is the same sums with
  the d terms negated.  Without reductions mod 2**k two positions collide
  only when a small integer combination of the random numbers vanishes
  (chance about 2**-90 per pair).
- **Mirror pairs.**  An involution of the board under which no cell is
  fixed or next to its image (the half turn on an even x even board) gives
  the Tweedledum rule: a board equal to its image with the colours swapped
  is 0 (the second player copies every move), and the solver uses it.

A node is the tuple (big, legal, p1, n1, p2, n2, hb, hp, hn, s): the live
cells on the board; those with d = 0, +1, -1, +2, -2; the packed hashes
(B-terms, A-terms of d > 0, A-terms of d < 0); s, the value of the regions
taken off with the side to move as Left.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from .cgt import ZERO, Games
from .values import Cells, RegionValues

if TYPE_CHECKING:
    from .rules import HadronRules, HadronState

#: Bits per symmetry lane of the packed hash; the random terms have HASH_BITS.
LANE = 100
HASH_BITS = 90
LANE_MASK = (1 << LANE) - 1
#: Regions of at most this many live cells are replaced by their value.
SPLIT = 5
#: A search node: (big, legal, p1, n1, p2, n2, hb, hp, hn, s).
Node = tuple[int, int, int, int, int, int, int, int, int, int]


def lane_min(lanes: int) -> Callable[[int], int]:
    """The function giving the smallest of `lanes` packed lanes."""
    m, w = LANE_MASK, LANE
    if lanes == 1:
        return lambda x: x & m
    if lanes == 2:
        return lambda x: min(x & m, x >> w & m)
    if lanes == 4:
        return lambda x: min(x & m, x >> w & m, x >> 2 * w & m, x >> 3 * w)
    if lanes == 8:
        return lambda x: min(
            x & m, x >> w & m, x >> 2 * w & m, x >> 3 * w & m,
            x >> 4 * w & m, x >> 5 * w & m, x >> 6 * w & m, x >> 7 * w,
        )
    shifts = [w * f for f in range(lanes)]
    return lambda x: min([x >> k & m for k in shifts])


class Nodes:
    """The node tables of one board, and the moves on nodes."""

    def __init__(
        self,
        game: HadronRules,
        *,
        split: int = SPLIT,
        symmetry: bool = True,
        mirror: bool = True,
        seed: int = 0x4AD0,
    ) -> None:
        self.game = game
        self.split = split
        cols, n = game.cols, game.cells
        self.cols = cols
        self.full = (1 << n) - 1
        self.not_first_col = sum(1 << i for i in range(n) if i % cols)
        self.not_last_col = sum(1 << i for i in range(n) if i % cols != cols - 1)
        self.nb: list[int] = list(game.neighbour_mask)
        frames = game.symmetries if symmetry else game.symmetries[:1]
        rng = random.Random(seed)
        base = [rng.getrandbits(HASH_BITS) for _ in range(n)]
        slope = [rng.getrandbits(HASH_BITS) for _ in range(n)]
        #: Per cell: its B and A terms in every symmetry lane.
        self.pb = [sum(base[p[c]] << LANE * f for f, p in enumerate(frames)) for c in range(n)]
        self.pa = [sum(slope[p[c]] << LANE * f for f, p in enumerate(frames)) for c in range(n)]
        #: The involutions of the board that move every cell to a cell other than
        #: itself and its neighbours: (lane shift, the cells that fail, the map).
        self.mirrors: list[tuple[int, int, tuple[int, ...]]] = []
        if mirror:
            for f, p in enumerate(frames):
                if f and all(p[p[c]] == c for c in range(n)):
                    bad = sum(1 << c for c in range(n) if p[c] == c or self.nb[c] >> p[c] & 1)
                    if bad != self.full:
                        self.mirrors.append((LANE * f, bad, p))
        self.offset = sum(1 << (LANE * f + LANE - 1) for f in range(len(frames)))
        self.shifts = tuple(LANE * f for f in range(len(frames)))
        #: The smallest lane of a packed hash (unrolled: a third faster than a loop).
        self.lane_min = lane_min(len(frames))
        #: A-terms of every set of neighbours of one cell (the d updates of a move).
        self.pa_sum: dict[int, int] = {}
        for c in range(n):
            around = [j for j in range(n) if self.nb[c] >> j & 1]
            for subset in range(1 << len(around)):
                mask = sum(1 << j for k, j in enumerate(around) if subset >> k & 1)
                self.pa_sum[mask] = sum(self.pa[j] for k, j in enumerate(around) if subset >> k & 1)
        self.games = Games()
        self.values = RegionValues(self.games)
        #: Small regions seen: (cells, planes) -> (value, B-terms, A+ terms, A- terms).
        self.small: dict[tuple[int, int, int, int, int], tuple[int, int, int, int]] = {}

    # --- nodes -------------------------------------------------------------------------
    def node(self, state: HadronState) -> Node:
        """The search node of a position: (live, legal, p1, n1, p2, n2, hb, hp, hn, s)."""
        nb = self.nb
        sign = 1 if state.to_move == 0 else -1
        surplus = {c: sign * state.diff[c] for c in range(self.game.cells)
                   if state.board[c] < 0}
        live = sum(1 << c for c in surplus)
        changed = True
        while changed:  # the greatest set whose cells have |d| <= live neighbours
            changed = False
            for c, d in surplus.items():
                if live >> c & 1 and abs(d) > (nb[c] & live).bit_count():
                    live ^= 1 << c
                    changed = True
        planes = {d: sum(1 << c for c, e in surplus.items() if e == d and live >> c & 1)
                  for d in (-2, -1, 0, 1, 2)}
        hb = hp = hn = 0
        for c, d in surplus.items():
            if live >> c & 1:
                hb += self.pb[c]
                if d > 0:
                    hp += d * self.pa[c]
                elif d < 0:
                    hn -= d * self.pa[c]
        s = ZERO
        big = live
        for part in self._parts(live):
            if part.bit_count() <= self.split:
                value, db, dp, dn = self.small_value(
                    part, planes[1], planes[-1], planes[2], planes[-2])
                s = self.games.add(s, value)
                big ^= part
                hb, hp, hn = hb - db, hp - dp, hn - dn
        return (big, planes[0] & big, planes[1] & big, planes[-1] & big, planes[2] & big,
                planes[-2] & big, hb, hp, hn, s)

    def key(self, node: Node) -> int:
        """The table key of a node: its smallest symmetric hash, and s above it."""
        return self.lane_min(node[6] + node[7] - node[8] + self.offset) | node[9] << LANE

    def _parts(self, cells: int) -> list[int]:
        """The connected parts of a set of cells."""
        parts = []
        while cells:
            part = cells & -cells
            while True:
                grown = (part | self._spread(part)) & cells
                if grown == part:
                    break
                part = grown
            parts.append(part)
            cells ^= part
        return parts

    def _spread(self, mask: int) -> int:
        cols = self.cols
        return (
            (mask << cols) | (mask >> cols)
            | ((mask & self.not_last_col) << 1) | ((mask & self.not_first_col) >> 1)
        ) & self.full

    def small_value(
        self, part: int, p1: int, n1: int, p2: int, n2: int
    ) -> tuple[int, int, int, int]:
        """(value, B-terms, A-terms of d > 0, A-terms of d < 0) of a small region."""
        key = (part, part & p1, part & n1, part & p2, part & n2)
        known = self.small.get(key)
        if known is None:
            cols = self.cols
            cells: Cells = {}
            db = dp = dn = 0
            rest = part
            while rest:
                low = rest & -rest
                rest ^= low
                c = low.bit_length() - 1
                d = (1 if p1 & low else -1 if n1 & low else 2 if p2 & low
                     else -2 if n2 & low else 0)
                cells[divmod(c, cols)] = d
                db += self.pb[c]
                if d > 0:
                    dp += d * self.pa[c]
                elif d < 0:
                    dn -= d * self.pa[c]
            known = self.small[key] = (self.values.value(cells), db, dp, dn)
        return known

    def play(
        self, c: int, big: int, legal: int, p1: int, n1: int, p2: int, n2: int,
        hb: int, hp: int, hn: int, s: int,
    ) -> Node:
        """The node after the mover's stone on the legal cell c (c >= 0) or the
        mover's move to the option -1 - c of s (c < 0), from the opponent's
        side.  A documented hot loop (one call per child searched, kept whole
        and inline for speed: the per-node cost is what the solver's times
        are made of)."""
        games = self.games
        if c < 0:
            return (big, legal, n1, p1, n2, p2, hb, hn, hp, games.neg(games.left[s][-1 - c]))
        nb, pb, pa, pa_sum, split = self.nb, self.pb, self.pa, self.pa_sum, self.split
        cols, nfc, nlc = self.cols, self.not_first_col, self.not_last_col
        negative = n1 | n2
        bit = 1 << c
        nx = nb[c] & big  # live neighbours: each moves up one plane
        keep = ~nx
        big2 = big ^ bit
        q_l = ((legal ^ bit) & keep) | (n1 & nx)
        q_p1 = (p1 & keep) | (legal & nx)
        q_n1 = (n1 & keep) | (n2 & nx)
        q_p2 = (p2 & keep) | (p1 & nx)
        q_n2 = n2 & keep
        hb2 = hb - pb[c]
        hp2 = hp + pa_sum[nx & ~negative]
        hn2 = hn - pa_sum[nx & negative]
        gone = p2 & nx  # now d = 3: dead
        # Cells with |d| above their live neighbours die, and so on outwards: the
        # candidates are the cells that lost a live neighbour (d = 0 never dies).
        cand = nx & ~gone & ~q_l
        if gone:
            big2 ^= gone
            m = gone
            while m:
                low = m & -m
                m ^= low
                y = low.bit_length() - 1
                hb2 -= pb[y]
                hp2 -= 3 * pa[y]
            cand |= (
                (gone << cols) | (gone >> cols) | ((gone & nlc) << 1) | ((gone & nfc) >> 1)
            ) & big2 & ~q_l
        while cand:
            died = 0
            twos = q_p2 | q_n2
            m = cand
            while m:
                low = m & -m
                m ^= low
                count = (nb[low.bit_length() - 1] & big2).bit_count()
                if not count or (count == 1 and low & twos):
                    died |= low
            if not died:
                break
            gone |= died
            big2 ^= died
            m = died
            while m:
                low = m & -m
                m ^= low
                y = low.bit_length() - 1
                hb2 -= pb[y]
                if low & q_p1:
                    hp2 -= pa[y]
                elif low & q_p2:
                    hp2 -= 2 * pa[y]
                elif low & q_n1:
                    hn2 -= pa[y]
                else:
                    hn2 -= 2 * pa[y]
            keep = ~died
            q_p1 &= keep
            q_n1 &= keep
            q_p2 &= keep
            q_n2 &= keep
            cand = (
                (died << cols) | (died >> cols)
                | ((died & nlc) << 1) | ((died & nfc) >> 1)
            ) & big2 & ~q_l
        # Regions of at most `split` cells that broke off go into s.
        s2 = s
        if split:
            if gone:
                seeds = (nx | (gone << cols) | (gone >> cols)
                         | ((gone & nlc) << 1) | ((gone & nfc) >> 1)) & big2
            else:
                seeds = nx & big2
            while seeds:
                part = seeds & -seeds
                grown = (nb[part.bit_length() - 1] | part) & big2
                while grown != part and grown.bit_count() <= split:
                    part = grown
                    grown = (
                        part | (part << cols) | (part >> cols)
                        | ((part & nlc) << 1) | ((part & nfc) >> 1)
                    ) & big2
                seeds &= ~grown
                if grown == part:
                    value, db, dp, dn = self.small_value(part, q_p1, q_n1, q_p2, q_n2)
                    s2 = games.add(s2, value)
                    big2 ^= part
                    q_l &= ~part
                    q_p1 &= ~part
                    q_n1 &= ~part
                    q_p2 &= ~part
                    q_n2 &= ~part
                    hb2 -= db
                    hp2 -= dp
                    hn2 -= dn
        return (big2, q_l, q_n1, q_p1, q_n2, q_p2, hb2, hn2, hp2, games.neg(s2) if s2 else s2)
