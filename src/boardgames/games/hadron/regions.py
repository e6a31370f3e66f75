"""The Regions reading of Hadron: the position as a sum of independent
regions, read with combinatorial game theory (`Regions`), and the bitboard
helper it shares with the specials (`neighbour_counts`).

The Sums evaluator (sums.py) builds on it; experts.py names both in the
game's `EVALUATORS` table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rules import WHITE

if TYPE_CHECKING:
    from .rules import HadronRules, HadronState

#: Score of a position whose side to move has no legal cell (a loss).
LOST = -1_000_000.0


def neighbour_counts(mask: int, game: HadronRules) -> tuple[int, int]:
    """Bitboards of the cells with at least one and with at least two
    orthogonal neighbours in `mask` (bits past the board may be set: callers
    intersect with a board mask)."""
    cols = game.cols
    up, down = mask >> cols, mask << cols
    left, right = (mask & game.not_last_col) << 1, (mask & game.not_first_col) >> 1
    vertical, horizontal = up | down, left | right
    return vertical | horizontal, (up & down) | (left & right) | (vertical & horizontal)



class Regions:
    """Hadron as a sum of independent regions, read with combinatorial game theory.

    An empty cell is *live* while the stones still to come could balance it
    (|White - Black| <= its empty neighbours); live cells that touch form
    regions, and a move only changes its own region, so the position is the
    sum of its regions.  Small regions have exact values:
    - no legal cell: 0; one legal cell, or two legal cells side by side: *
      (one move for whoever takes it);
    - a legal cell R next to a live cell P with one more White than Black:
      White playing R kills P, Black playing R opens it, so {0 | *} = up
      (good for White), and down for one more Black: Aenigma's special move
      in its exact form.
    Larger regions are estimated the same way (their legal cells as stars,
    their special pairs as ups and downs).  A sum of n ups and k stars is a
    win for the side to move iff it has at least one up more, or k is odd
    and it is at most one up behind; the score is that verdict (certain
    when every region was exact) plus a small term for the up balance.
    """

    def __init__(self, unit: float = 200.0, sure: float = 100_000.0, up: float = 20.0) -> None:
        self.unit, self.sure, self.up = unit, sure, up

    def analyse(self, state: HadronState) -> tuple[int, int, bool]:
        """(ups for White minus ups for Black, stars, every region exact).

        The same numbers as `analyse_regions` (the region by region reading,
        tests compare the two), without finding the regions: a large
        region's reading is a sum over its cells, and a small region's agrees
        with that sum except for two legal cells side by side (* alone, not
        two stars), so
        - stars = legal cells - special pairs - isolated legal dominoes;
        - ups = the sum of the special pairs' +1 / -1, where a special pair
          is a closed live cell P (one more White, or one more Black) with
          exactly one legal neighbour;
        - exact unless some legal cell lies in a live region of 3 or more
          cells: it has two live neighbours, or its one live neighbour has
          another one.
        Each set is a few bitboard operations over the whole board; only the
        special pairs are visited one by one.
        """
        return self.read(state.game, state.legal, state.live, state.diff)

    @staticmethod
    def read(game: HadronRules, legal: int, live: int, diff: list[int]) -> tuple[int, int, bool]:
        """`analyse` of the cells of `live` (with the legal ones `legal`, a
        subset): the whole board, or some of its regions."""
        cols, left_ok, right_ok = game.cols, game.not_first_col, game.not_last_col
        # Cells with >= 1 and >= 2 live neighbours.
        up, down = live >> cols, live << cols
        left, right = (live & right_ok) << 1, (live & left_ok) >> 1
        vertical, horizontal = up | down, left | right
        one = vertical | horizontal
        two = (up & down) | (left & right) | (vertical & horizontal)
        single = legal & one & ~two  # legal cells with exactly one live neighbour
        exact = not (legal & two or game.spread(single) & live & two)
        # Legal cells whose one live neighbour is a legal cell with no other one.
        dominoes = (single & (single >> 1) & right_ok).bit_count() + (
            single & (single >> cols)
        ).bit_count()
        # Closed live cells with exactly one legal neighbour.
        up, down = legal >> cols, legal << cols
        left, right = (legal & right_ok) << 1, (legal & left_ok) >> 1
        vertical, horizontal = up | down, left | right
        closed = (live ^ legal) & (vertical | horizontal) & ~(
            (up & down) | (left & right) | (vertical & horizontal)
        )
        ups = pairs = 0
        while closed:
            low = closed & -closed
            closed ^= low
            d = diff[low.bit_length() - 1]
            if d == 1:
                ups += 1
                pairs += 1
            elif d == -1:
                ups -= 1
                pairs += 1
        return ups, legal.bit_count() - pairs - dominoes, exact

    def analyse_regions(self, state: HadronState) -> tuple[int, int, bool]:
        """`analyse` region by region (flood fills through the live cells): the
        definition, slower; tests check that `analyse` agrees with it."""
        game = state.game
        diff, neighbour_mask = state.diff, game.neighbour_mask
        legal, live = state.legal, state.live
        cols, left_ok, right_ok = game.cols, game.not_first_col, game.not_last_col
        ups = stars = 0
        exact = True
        remaining = live
        while remaining:
            region = remaining & -remaining
            while True:  # flood fill through live cells
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
            remaining &= ~region
            moves = region & legal
            if not moves:
                continue
            size = region.bit_count()
            count = moves.bit_count()
            if size <= 2:
                if count == 2 or size == 1:
                    stars += 1
                    continue
                other = (region & ~moves).bit_length() - 1
                d = diff[other]
                if d == 1:
                    ups += 1
                elif d == -1:
                    ups -= 1
                else:
                    stars += 1
                continue
            exact = False
            stars += count
            closed = region & ~moves
            while closed:
                low = closed & -closed
                closed ^= low
                p = low.bit_length() - 1
                d = diff[p]
                if d not in (1, -1):
                    continue
                touching = neighbour_mask[p] & legal
                if touching and not touching & (touching - 1):
                    ups += d
                    stars -= 1  # the pair counts as one up, not as a star
        return ups, stars, exact

    def __call__(self, state: HadronState) -> float:
        """A win or loss verdict for the side to move by the regions' sum (larger
        when every region was read exactly), plus a small term per up."""
        if not state.legal:
            return LOST
        ups, stars, exact = self.analyse(state)
        mine = ups if state.to_move == WHITE else -ups
        odd = stars & 1
        wins = mine >= 1 or (odd and mine >= -1)
        verdict = self.sure if exact else self.unit
        return (verdict if wins else -verdict) + self.up * mine

    def __repr__(self) -> str:
        return "Regions()"


def regions_evaluator(*, unit: float = 200.0, up: float = 20.0) -> Regions:
    """The Regions evaluator: `unit` scores an estimated
    verdict, `up` each up in the side to move's favour."""
    return Regions(unit=float(unit), up=float(up))
