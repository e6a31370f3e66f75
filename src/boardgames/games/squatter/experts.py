"""Squatter knowledge: the two seed evaluators, a stronger one, move orders,
the features of `Squatter.analyse`, and the `EVALUATORS` table.

Every evaluator is a callable `state -> float` from the side to move, built
by a factory whose keyword arguments are its weights (so a tuner or an AI
spec such as `eval=seed001,corner=-500` can change them).

The seed evaluators were written for a minimax that always scores from the
AI's own colour; their terms are not symmetric (seed 001 counts its own
side stones but not the enemy's).  `perspective` reproduces that: when set,
the terms are computed for that colour and negated when the other side is
to move.  When it is None the side to move is "own", as negamax expects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .geometry import BLOCK_SEEDS, bits, block_seeds

if TYPE_CHECKING:
    from .rules import SquatterState

#: (player, that player's live stones) -> `closing_cells`' answer.
ClosingCache = dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], int]]


class _PerspectiveEvaluator:
    """Base of the seed evaluators: terms for one colour, negamax sign."""

    weights: dict[str, float]

    def __init__(self, perspective: int | None = None) -> None:
        self.perspective = perspective

    def terms(self, state: SquatterState, me: int) -> float:
        raise NotImplementedError

    def __call__(self, state: SquatterState) -> float:
        me = self.perspective
        if me is None:
            return self.terms(state, state.to_move)
        value = self.terms(state, me)
        return value if state.to_move == me else -value

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v:g}" for k, v in self.weights.items())
        return f"{type(self).__name__}({args})"


class Seed001(_PerspectiveEvaluator):
    """Seed 001 (HeZhao): a linear evaluator of four features.

    own captured x 100 and enemy captured x -200, both as a share of the
    cells; own side stones x 10 as a share of the side (border) cells; own
    corner stones x -2000 (a corner stone can neither capture nor be captured).
    """

    def __init__(
        self,
        own_captured: float = 100.0,
        enemy_captured: float = -200.0,
        side: float = 10.0,
        corner: float = -2000.0,
        perspective: int | None = None,
    ) -> None:
        super().__init__(perspective)
        self.weights = {
            "own_captured": own_captured,
            "enemy_captured": enemy_captured,
            "side": side,
            "corner": corner,
        }
        self.own_captured, self.enemy_captured = own_captured, enemy_captured
        self.side, self.corner = side, corner

    def terms(self, state: SquatterState, me: int) -> float:
        geo = state.game.geometry
        cells = geo.cells
        mine = state.stones[me]
        side_cells = geo.border.bit_count()
        return (
            self.own_captured * state.terr[me].bit_count() / cells
            + self.enemy_captured * state.terr[1 - me].bit_count() / cells
            + self.side * (mine & geo.border).bit_count() / side_cells
            + self.corner * (mine & geo.corners).bit_count()
        )


class Seed003(_PerspectiveEvaluator):
    """Seed 003 (Sutanahadi & Thamrin): layer + capture + clump + corners.

    layer: while more than half the board is free, each own stone scores its
    distance (in rings) from the centre, the enemy's the same negated;
    capture: own minus enemy captured cells, x 100; clump: each own stone
    with one or two own neighbours (8 directions) scores +1, one with more
    than two -1 (clumps waste stones), minus the same for the enemy, x 10;
    corner: own corner stones x -9001.
    """

    def __init__(
        self,
        layer: float = 1.0,
        capture: float = 100.0,
        clump: float = 10.0,
        corner: float = -9001.0,
        perspective: int | None = None,
    ) -> None:
        super().__init__(perspective)
        self.weights = {"layer": layer, "capture": capture, "clump": clump, "corner": corner}
        self.layer, self.capture, self.clump, self.corner = layer, capture, clump, corner

    def terms(self, state: SquatterState, me: int) -> float:
        geo = state.game.geometry
        stones = state.stones
        value = self.capture * (state.terr[me].bit_count() - state.terr[1 - me].bit_count())
        value += self.corner * (stones[me] & geo.corners).bit_count()
        if self.layer and state.free.bit_count() * 2 > geo.cells:
            depth = geo.max_layer
            layer = geo.layer
            value += self.layer * (
                sum(depth - layer[c] for c in bits(stones[me]))
                - sum(depth - layer[c] for c in bits(stones[1 - me]))
            )
        if self.clump:
            value += self.clump * (clumping(state, me) - clumping(state, 1 - me))
        return value


def clumping(state: SquatterState, player: int) -> int:
    """+1 per stone with one or two own neighbours, -1 per stone with more."""
    mine = state.stones[player]
    ones, _, threes = state.game.geometry.neighbour_counts(mine)
    return (mine & ones & ~threes).bit_count() - (mine & threes).bit_count()


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
        self._cache: ClosingCache = {}

    def __call__(self, state: SquatterState) -> float:
        me = state.to_move
        you = 1 - me
        geo = state.game.geometry
        stones, terr = state.stones, state.terr
        value = self.capture * (terr[me].bit_count() - terr[you].bit_count())
        if not state.free:
            return value
        mine, my_clumps = closing_cells(state, me, self._cache)
        theirs, their_clumps = closing_cells(state, you, self._cache)
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
    n = geo.n
    block_valid, block_key = geo.block_valid, geo.block_key
    enclosed_by = state.enclosed_by
    ones, twos, threes = geo.neighbour_counts(mine)
    block = mine << (n + 1)
    closing = []
    for c in bits(twos & ~mine):
        index = (
            block_key[c]
            | ((block >> c & 7) | (block >> (c + n) & 7) << 3 | (block >> (c + n + n) & 7) << 6)
            & block_valid[c]
        )
        seeds = BLOCK_SEEDS.get(index)
        if seeds is None:
            seeds = block_seeds(index)
        if seeds:
            bit = 1 << c
            region = enclosed_by(c, player, mine | bit, seeds)
            if region:
                closing.append((bit, region))
    found = (tuple(closing), (mine & ones & ~threes).bit_count() - (mine & threes).bit_count())
    if cache is not None:
        if len(cache) > 50_000:
            cache.clear()
        cache[key] = found
    return found


def seed003_order(state: SquatterState, moves: list[int]) -> list[int]:
    """Seed 003's move order: cells next to stones first, border and corners last.

    Stable within each class, so the static order breaks ties.
    """
    geo = state.game.geometry
    occupied = state.stones[0] | state.stones[1]
    ring_mask = geo.ring_mask
    border, corners = geo.border, geo.corners
    near, far, edge, corner = [], [], [], []
    for m in moves:
        bit = 1 << m
        if bit & corners:
            corner.append(m)
        elif bit & border:
            edge.append(m)
        elif occupied & ring_mask[m]:
            near.append(m)
        else:
            far.append(m)
    return near + far + edge + corner


# --- the report of `Squatter.analyse` --------------------------------------------------------


def report(state: SquatterState) -> str:
    """Per colour: live and captured stones, threats (cells that capture at
    once, and the best gain), half diamonds and fork cells."""
    names = state.game.player_names
    lines = []
    for p in (0, 1):
        gains = threats(state, p)
        half, forks = half_diamonds(state, p)
        best = f" (best +{max(gains)})" if gains else ""
        lines.append(
            f"{names[p]}: {state.stones[p].bit_count()} live stones, "
            f"{state.dead[p].bit_count()} captured stones; threats {len(gains)}{best}; "
            f"half diamonds {half.bit_count()}; forks {forks.bit_count()}"
        )
    return "\n".join(lines)


# --- the table ---------------------------------------------------------------------------------


def score(capture: float = 1.0) -> Territory:
    """Captured cells only (own minus enemy, x `capture`)."""
    return Territory(capture, tempo=0, pressure=0, shape=0, corner=0, side=0, potential=0, fork=0)


#: Named evaluator factories (`Squatter.evaluators`); their keyword
#: arguments are the weights (`eval=seed001,corner=-500`).
EVALUATORS: dict[str, Callable[..., Callable[[SquatterState], float]]] = {
    "default": Territory,
    "territory": Territory,
    "seed001": Seed001,
    "seed003": Seed003,
    "score": score,
}
