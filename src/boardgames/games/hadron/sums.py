"""The Sums evaluator: the Regions reading with every small region's exact value.

`Regions` (regions.py) reads a position as a sum of independent regions but
knows the exact value of regions of one or two live cells only; larger ones
are estimated (their legal cells as stars, their special pairs as ups).
`Sums` settles the live cells the way the solver does (values.py: a cell is
live while its surplus is at most its live neighbours, followed to the
greatest such set), finds the regions that hold a legal cell, and adds up
the exact canonical value (values.py, cgt.py) of each region of at most
`small` cells.  Only the regions above that size are estimated as Regions
estimates them, ups and stars, and added to the exact part as games.  The
sum decides who wins moving first, exactly when no region was estimated:

- every region exact: +-`sure` (the verdict is certain);
- otherwise +-`unit` plus `up` for each up of the estimated regions in the
  mover's favour (Regions' scale, so the search sees the same numbers
  where both readings agree).

Positions whose regions are all of one or two cells are left to `Regions`
(the same exact verdict, several times cheaper), and so are positions with
more than `from_live` live cells: early in the game the live cells form one
big region, whose estimate is Regions' own.  Measured on 9 x 9 (docs/
hadron.md, "Strength"): several times slower than Regions per call, worth
it in the late middle game, where most regions are small but not tiny.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...weights import Weight, Weights
from .cgt import ZERO, Games
from .regions import LOST, Regions, neighbour_counts
from .rules import WHITE
from .values import Cells, RegionValues

if TYPE_CHECKING:
    from .rules import HadronState

#: Entries of the region cache (region and surpluses -> value) before it is cleared.
CACHE_LIMIT = 400_000


class Sums:
    """A sum of exact values of small regions and estimates of large ones."""

    def __init__(
        self,
        small: int = 8,
        from_live: int = 60,
        unit: float = 200.0,
        sure: float = 100_000.0,
        up: float = 20.0,
    ) -> None:
        self.small, self.from_live = small, from_live
        self.unit, self.sure, self.up = unit, sure, up
        self.games = Games()
        self.values = RegionValues(self.games)
        self.regions = Regions(unit=unit, sure=sure, up=up)
        games = self.games
        self.star = games.star(1)
        up = games.make([ZERO], [self.star])  # {0 | *}
        #: Up (a spare move for White) and down (for Black).
        self.ups = (up, games.neg(up))
        #: The region and its +1, -1, +2, -2 cells packed in one int (ints are
        #: not tracked by the garbage collector, tuples are) -> the region's value.
        self.cache: dict[int, int] = {}

    def settle(self, state: HadronState) -> tuple[int, int, int, int, int]:
        """(live cells, and those of them with surplus +1, -1, +2, -2), after
        removing the cells that can no longer be balanced by their live
        neighbours (repeated until none is left to remove)."""
        game, diff = state.game, state.diff
        live = state.live
        closed = live & ~state.legal
        plus1 = minus1 = plus2 = minus2 = 0
        while closed:
            low = closed & -closed
            closed ^= low
            d = diff[low.bit_length() - 1]
            if d == 1:
                plus1 |= low
            elif d == -1:
                minus1 |= low
            elif d == 2:
                plus2 |= low
            else:  # a live cell's surplus is at most 2 in size
                minus2 |= low
        ones, twos = plus1 | minus1, plus2 | minus2
        full = game.full_mask
        while True:
            one, two = neighbour_counts(live, game)
            dead = live & ((ones & ~one) | (twos & ~two)) & full
            if not dead:
                return live, plus1 & live, minus1 & live, plus2 & live, minus2 & live
            live ^= dead

    def value(self, region: int, signs: tuple[int, int, int, int], state: HadronState) -> int:
        """The canonical value of one region (White counted positive)."""
        plus1, minus1, plus2, minus2 = signs
        n = state.game.cells
        key = (
            ((((region & minus2) << n | region & plus2) << n | region & minus1) << n
             | region & plus1) << n
        ) | region
        known = self.cache.get(key)
        if known is None:
            cols, diff = state.game.cols, state.diff
            cells: Cells = {}
            m = region
            while m:
                low = m & -m
                m ^= low
                x = low.bit_length() - 1
                cells[(x // cols, x % cols)] = diff[x]
            if len(self.cache) >= CACHE_LIMIT:
                self.cache.clear()
            known = self.cache[key] = self.values.value(cells)
        return known

    def __call__(self, state: HadronState) -> float:
        """The score of `state` for the side to move: the regions' reading, with
        the small regions' values exact once few enough cells are live."""
        legal = state.legal
        if not legal:
            return LOST
        if self.from_live < state.live.bit_count():
            return self.regions(state)
        white = state.to_move == WHITE
        game = state.game
        ups, stars, exact = self.regions.analyse(state)
        if exact:
            mine = ups if white else -ups
            wins = mine >= 1 or (stars & 1 and mine >= -1)
            return self.sure if wins else -self.sure
        live, plus1, minus1, plus2, minus2 = self.settle(state)
        signs = (plus1, minus1, plus2, minus2)
        games = self.games
        add = games.add
        total = ZERO
        big = 0
        cols, left_ok, right_ok = game.cols, game.not_first_col, game.not_last_col
        todo = legal
        while todo:
            region = todo & -todo
            while True:  # flood fill through the live cells (game.spread, inlined)
                grown = region | (
                    (
                        (region << cols) | (region >> cols)
                        | ((region & right_ok) << 1) | ((region & left_ok) >> 1)
                    )
                    & live
                )
                if grown == region:
                    break
                region = grown
            todo &= ~region
            if region.bit_count() <= self.small:
                total = add(total, self.value(region, signs, state))
            else:
                big |= region
        mine = 0
        if big:
            ups, stars, _ = Regions.read(game, legal & big, live & big, state.diff)
            if stars & 1:
                total = add(total, self.star)
            one_up = self.ups[0] if ups > 0 else self.ups[1]
            for _ in range(abs(ups)):
                total = add(total, one_up)
            mine = ups if white else -ups
        wins = games.left_wins_first(total) if white else games.right_wins_first(total)
        verdict = self.unit if big else self.sure
        return (verdict if wins else -verdict) + self.up * mine

    def __repr__(self) -> str:
        return f"Sums(small={self.small}, from_live={self.from_live})"


#: The Sums evaluator's tunable weights (the default AI's evaluator).
SUMS_WEIGHTS = Weights(
    "hadron",
    "sums",
    (
        Weight("unit", 200.0, 1.0, 50_000.0, "an estimated verdict"),
        Weight("up", 20.0, 0.0, 10_000.0, "each up in the mover's favour"),
    ),
    build=lambda weights: Sums(unit=weights["unit"], up=weights["up"]),
    linear=("unit", "up"),
    random_plies=6,
)


def sums_evaluator(
    *,
    params: str | None = None,
    small: int = 8,
    from_live: int = 60,
    unit: float | None = None,
    up: float | None = None,
) -> Sums:
    """The Sums evaluator: regions of up to `small` live cells exact, larger
    ones estimated (`unit` scores an estimated verdict, `up` each up: from
    the params file `params`, then these options); with more than
    `from_live` live cells, the Regions reading alone."""
    weights = SUMS_WEIGHTS.resolve(params, {"unit": unit, "up": up})
    return Sums(small=int(small), from_live=int(from_live), **weights)
