"""Squatter's own evaluator, `Territory`, and the features it reads: one-move
captures (`closing_cells`, `threats`), half diamonds and fork cells
(`half_diamonds`), and the per-stones facts that make it fast
(`stone_facts`, `closing_regions`).  See docs/squatter.md, Evaluators.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .geometry import Geometry
from .rules import enclosed

if TYPE_CHECKING:
    from .rules import SquatterRules, SquatterState

#: (player, that player's live stones) -> `closing_cells`' answer.
ClosingCache = dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], int]]


class Territory:
    """The library's own evaluator: score, threats, shape and wasted moves.

    - captured cells, own minus enemy (x `capture`);
    - threats: the cells each side would gain by closing a loop at once
      (`SquatterState.capture_gain` over the free cells).  The side to move
      can cash its best threat now (x `tempo`); the other side's threats
      have to be parried one at a time, so its second best counts against
      the mover (x `pressure`).  This is a one-move quiescence: it keeps a
      shallow search from stopping just before a capture;
    - shape: own stones with one or two own neighbours (8 directions), the
      links of a future loop, minus the enemy's (x `shape`; 0 by default:
      it did not pay in matches against the seed players);
    - corner and side stones can never be captured but hardly ever help a
      loop: each costs `corner` / `side` (own minus enemy);
    - potential: half diamonds, cells two stones away from capture
      (`half_diamonds`), own minus enemy (x `potential`);
    - forks: free cells where one stone makes two threats, own minus enemy
      (x `fork`).  These two lifted the default against seed 003 on 6 x 6
      from 76% to 91% from the empty board (docs/squatter.md).

    The weights are fixed when the evaluator is made: its caches hold
    values (make another one for other weights).
    """

    def __init__(
        self,
        capture: float = 100.0,
        tempo: float = 60.0,
        pressure: float = 40.0,
        shape: float = 0.0,
        corner: float = -30.0,
        side: float = -6.0,
        potential: float = 3.0,
        fork: float = 30.0,
    ) -> None:
        self.weights = {
            "capture": capture,
            "tempo": tempo,
            "pressure": pressure,
            "shape": shape,
            "corner": corner,
            "side": side,
            "potential": potential,
            "fork": fork,
        }
        self.capture, self.tempo, self.pressure = capture, tempo, pressure
        self.shape, self.corner, self.side = shape, corner, side
        self.potential, self.fork = potential, fork
        self._weights = (capture, tempo, pressure, shape, corner, side, potential, fork)
        self._game: SquatterRules | None = None
        self._shifts = (0, 0, 0, 0)
        self._facts: tuple[FactsCache, FactsCache] = ({}, {})
        self._values: dict[tuple[int, ...], float] = {}

    def __call__(self, state: SquatterState) -> float:
        """The value from the side to move: `reference`'s, term by term.

        Per position only a few bitboard operations run: what depends on one
        player's live stones alone (closing cells, clumps, corner and side
        stones, the cells with two of them among four orthogonal neighbours,
        the cells next to them) is looked up by those stones (`StoneFacts`),
        and a position met again (a NegaScout re-search, a transposition
        among the leaves) is looked up whole.  The terms are added in the
        same order as in `reference`, so the value is the same float.

        The hot loop of a Squatter search (one call per leaf), kept whole:
        each helper call costs about 0.1 us of some 2 us (speed is measured
        in benchmarks/test_bench_squatter.py).
        """
        stones, terr, dead = state.stones, state.terr, state.dead
        me = state.to_move
        mine, yours = stones[me], stones[1 - me]
        key = (mine, yours, terr[0], terr[1], dead[0], dead[1], me)
        if state.game is not self._game:
            self._start(state.game)
        values = self._values
        value = values.get(key)
        if value is not None:
            return value
        you = 1 - me
        capture, tempo, pressure, shape, corner, side, potential, fork = self._weights
        value = capture * (terr[me].bit_count() - terr[you].bit_count())
        free = state.free
        if free:
            my_facts = self._facts[me].get(mine)
            if my_facts is None:
                my_facts = self._learn(me, mine, state)
            their_facts = self._facts[you].get(yours)
            if their_facts is None:
                their_facts = self._learn(you, yours, state)
            _, my_clumps, my_corners, my_edges, my_two, my_reach, my_cells, my_closing = my_facts
            _, op_clumps, op_corners, op_edges, op_two, op_reach, op_cells, op_closing = their_facts
            if tempo or pressure:
                # Closing cells are read on free cells only: each entry
                # covers the cells free when it was made and those of the
                # last moves (free again in the positions around it).
                if free & ~my_cells:
                    my_closing = self._widen(me, mine, my_facts, state)
                if free & ~op_cells:
                    op_closing = self._widen(you, yours, their_facts, state)
            if tempo:
                best = 0
                if my_closing:
                    own = terr[me] | dead[me]
                    best = max(
                        ((r & ~own).bit_count() for b, r in my_closing if free & b), default=0
                    )
                value += tempo * best
            if pressure and len(op_closing) > 1:
                own = terr[you] | dead[you]
                gains = sorted((r & ~own).bit_count() for b, r in op_closing if free & b)
                if len(gains) > 1:
                    value -= pressure * gains[-2]
            value += shape * (my_clumps - op_clumps)
            value += corner * (my_corners - op_corners)
            value += side * (my_edges - op_edges)
            if potential or fork:
                # A half diamond's four neighbours are own stones or free
                # cells: no enemy stone (op_reach), no captured cell.
                n, full, west, east = self._shifts
                captured = full & ~(mine | yours | free)
                if captured:
                    captured = (
                        ((captured << 1) & west)
                        | ((captured >> 1) & east)
                        | ((captured << n) & full)
                        | (captured >> n)
                    )
                my_half = my_two & ~(captured | op_reach | terr[me])
                their_half = op_two & ~(captured | my_reach | terr[you])
                my_forks = their_forks = 0
                if my_half:
                    we, ea = (my_half << 1) & west, (my_half >> 1) & east
                    so, no = (my_half << n) & full, my_half >> n
                    my_forks = ((we & ea) | (so & no) | ((we | ea) & (so | no))) & free
                if their_half:
                    we, ea = (their_half << 1) & west, (their_half >> 1) & east
                    so, no = (their_half << n) & full, their_half >> n
                    their_forks = ((we & ea) | (so & no) | ((we | ea) & (so | no))) & free
                value += potential * (my_half.bit_count() - their_half.bit_count())
                value += fork * (my_forks.bit_count() - their_forks.bit_count())
        if len(values) >= VALUES_CAP:
            values.clear()
        values[key] = value
        return value

    def _start(self, game: SquatterRules) -> None:
        """Empty caches for `game` (the stones' bitboards mean other cells on another size)."""
        self._game = game
        self._geometry = geo = game.geometry
        self._shifts = (geo.n, geo.full, geo.not_west, geo.not_east)
        self._facts = ({}, {})
        self._values = {}

    def _learn(self, player: int, mine: int, state: SquatterState) -> StoneFacts:
        """The `StoneFacts` of `player`'s stones `mine` (in `state`), cached."""
        facts = self._facts[player]
        if len(facts) >= FACTS_CAP:
            facts.clear()
        allowed = state.free
        for move in state.history[-RECENT:]:
            allowed |= 1 << move
        found = facts[mine] = stone_facts(self._geometry, mine, allowed)
        return found

    def _widen(
        self, player: int, mine: int, facts: StoneFacts, state: SquatterState
    ) -> tuple[tuple[int, int], ...]:
        """Widen the closing cells of `player`'s stones `mine` (`facts`) to
        every cell free in `state`; returns them."""
        allowed = facts[ALLOWED] | state.free
        closing = closing_regions(self._geometry, mine, facts[0], allowed)
        self._facts[player][mine] = (*facts[:ALLOWED], allowed, closing)
        return closing

    def reference(self, state: SquatterState) -> float:
        """The same value computed from scratch, term by term, with no cache:
        the definition that `__call__` must equal (the tests compare them)."""
        me = state.to_move
        you = 1 - me
        geo = state.game.geometry
        stones, terr = state.stones, state.terr
        value = self.capture * (terr[me].bit_count() - terr[you].bit_count())
        if not state.free:
            return value
        mine, my_clumps = closing_cells(state, me)
        theirs, their_clumps = closing_cells(state, you)
        free = state.free
        # A region's cells that score nothing for its encloser: the cells it
        # owns already and its own captured stones (they only come back to life).
        dead = state.dead
        if self.tempo:
            own = terr[me] | dead[me]
            best = max(((r & ~own).bit_count() for b, r in mine if free & b), default=0)
            value += self.tempo * best
        if self.pressure:
            own = terr[you] | dead[you]
            gains = sorted((r & ~own).bit_count() for b, r in theirs if free & b)
            if len(gains) > 1:
                value -= self.pressure * gains[-2]
        value += self.shape * (my_clumps - their_clumps)
        corners, edge = geo.corners, geo.border ^ geo.corners
        value += self.corner * (
            (stones[me] & corners).bit_count() - (stones[you] & corners).bit_count()
        )
        value += self.side * ((stones[me] & edge).bit_count() - (stones[you] & edge).bit_count())
        if self.potential or self.fork:
            my_half, my_forks = half_diamonds(state, me)
            their_half, their_forks = half_diamonds(state, you)
            value += self.potential * (my_half.bit_count() - their_half.bit_count())
            value += self.fork * (my_forks.bit_count() - their_forks.bit_count())
        return value

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v:g}" for k, v in self.weights.items())
        return f"Territory({args})"


def half_diamonds(state: SquatterState, player: int) -> tuple[int, int]:
    """(half diamonds, fork cells) of `player`, as bitboards.

    A half diamond is an interior cell, not the player's stone or territory,
    with two of the player's live stones among its four orthogonal neighbours
    and the other two free: two more stones capture it.  A fork cell is a
    free cell next to two half diamonds: a stone there makes two threats.
    """
    geo = state.game.geometry
    mine, free = state.stones[player], state.free
    n, full, west, east = geo.n, geo.full, geo.not_west, geo.not_east
    # Cells next to something that is neither the player's stone nor free.
    b = full & ~(mine | free)
    spoilt = ((b << 1) & west) | ((b >> 1) & east) | ((b << n) & full) | (b >> n)
    # Exactly two of the four orthogonal neighbours are the player's:
    # bitwise counters over the four shifted boards (this runs per node).
    we, ea, so, no = (mine << 1) & west, (mine >> 1) & east, (mine << n) & full, mine >> n
    one_pair, two_pairs = we & ea, so & no
    either, other = we | ea, so | no
    two = one_pair | two_pairs | (either & other)
    three = (one_pair & other) | (two_pairs & either)
    half = two & ~three & geo.interior & ~spoilt & ~mine & ~state.terr[player]
    we, ea, so, no = (half << 1) & west, (half >> 1) & east, (half << n) & full, half >> n
    forks = (we & ea) | (so & no) | ((we | ea) & (so | no))
    return half, forks & free


#: What `Territory` needs of one player's live stones, whatever the rest of
#: the board: (cells with two or more of them among their 8 neighbours,
#: clumps, corner stones, side stones, cells with exactly two of them among
#: their four orthogonal neighbours (interior, not a stone), cells next to a
#: stone, ALLOWED, CLOSING): the closing cells and regions (see
#: `closing_regions`) of the cells in the mask ALLOWED, replaced by a wider
#: entry when a free cell outside it is met.  Tuples of ints, which the
#: garbage collector stops tracking: a full cache adds nothing to its pauses.
StoneFacts = tuple[Any, ...]
ALLOWED, CLOSING = 6, 7
#: Closing cells are found for the free cells and the cells of the last
#: RECENT moves (free again in the positions around it in a search).
RECENT = 10
FactsCache = dict[int, StoneFacts]
#: Entries a `Territory` keeps (per player for the stone facts, about 370
#: bytes each; about 750 for a position's value) before it starts that
#: cache again from empty.  Measured in fixed-depth searches: facts beyond
#: 2**15 or values beyond 2**13 gain nothing; facts capped at 2**14 lose
#: 13% of the nodes per second on 7 x 7.
FACTS_CAP = 1 << 15
VALUES_CAP = 1 << 13


def stone_facts(geo: Geometry, mine: int, allowed: int = -1) -> StoneFacts:
    """The `StoneFacts` of the live stones `mine` of one player, with the
    closing cells of `allowed` (all cells by default)."""
    n, full, west, east = geo.n, geo.full, geo.not_west, geo.not_east
    we, ea, so, no = (mine << 1) & west, (mine >> 1) & east, (mine << n) & full, mine >> n
    # Orthogonal neighbours: at least two, at least three (pairs of shifts).
    one_pair, two_pairs = we & ea, so & no
    either, other = we | ea, so | no
    two = one_pair | two_pairs | (either & other)
    three = (one_pair & other) | (two_pairs & either)
    # All 8 neighbours: saturating counters over the orthogonal shifts and
    # the diagonal ones made from them (as `Geometry.neighbour_counts`).
    twos = two
    threes = three
    ones = either | other
    for diagonal in ((so << 1) & west, (so >> 1) & east, (no << 1) & west, (no >> 1) & east):
        threes |= twos & diagonal
        twos |= ones & diagonal
        ones |= diagonal
    return (
        twos,
        (mine & ones & ~threes).bit_count() - (mine & threes).bit_count(),
        (mine & geo.corners).bit_count(),
        (mine & geo.border & ~geo.corners).bit_count(),
        two & ~three & geo.interior & ~mine,
        either | other,
        allowed,
        closing_regions(geo, mine, twos, allowed),
    )


def closing_regions(
    geo: Geometry, mine: int, twos: int, allowed: int = -1
) -> tuple[tuple[int, int], ...]:
    """(cell bit, region) for every cell of `allowed` not in `mine` where one
    more stone would enclose `region`; `twos` holds the cells with two or
    more of `mine` among their 8 neighbours (no other cell can close a loop)."""
    cells = twos & ~mine & allowed
    if not cells:
        return ()
    ring_mask, ring_seeds = geo.ring_mask, geo.ring_seeds
    closing = []
    while cells:
        bit = cells & -cells
        cells ^= bit
        c = bit.bit_length() - 1
        around = mine & ring_mask[c]
        seeds = ring_seeds[c].get(around)
        if seeds is None:
            seeds = geo.seeds_at(c, around)
        if seeds:
            region = enclosed(geo, c, mine | bit, seeds)
            if region:
                closing.append((bit, region))
    return tuple(closing)


def threats(state: SquatterState, player: int, cache: ClosingCache | None = None) -> list[int]:
    """The gains of every free cell where `player` would capture at once
    (what the score would gain: a recaptured own stone counts nothing)."""
    free, own = state.free, state.terr[player] | state.dead[player]
    out = []
    for bit, region in closing_cells(state, player, cache)[0]:
        if free & bit:
            gain = (region & ~own).bit_count()
            if gain:
                out.append(gain)
    return out


def closing_cells(
    state: SquatterState, player: int, cache: ClosingCache | None = None
) -> tuple[tuple[tuple[int, int], ...], int]:
    """(cell bit, region) for every cell not holding a live stone of `player`
    where one more of its stones would enclose `region`; and the player's
    clump count (see `clumping`).

    Both depend only on that player's live stones, so they are cached by
    them: sibling leaves of a search share the stones of the side to move.
    Entries are tuples of ints, which the garbage collector stops tracking,
    so a full cache adds nothing to collection pauses.
    """
    mine = state.stones[player]
    key = (player, mine)
    if cache is not None:
        found = cache.get(key)
        if found is not None:
            return found
    geo = state.game.geometry
    ones, twos, threes = geo.neighbour_counts(mine)
    closing = closing_regions(geo, mine, twos)
    found = (closing, (mine & ones & ~threes).bit_count() - (mine & threes).bit_count())
    if cache is not None:
        if len(cache) > 50_000:
            cache.clear()
        cache[key] = found
    return found
