"""Aenigma, the evaluation of the 2022/23 Calabria tournament winner (seed 002).

Two ideas, both about who places the last stone:
- a *special move* R is a legal cell next to an empty, unplayable cell P that
  only R can still unlock: if the owner plays R, P stays dead; if the opponent
  does, P becomes one extra (isolated) move.  Specials are spare tempo moves.
- *parity*: with the specials balanced, the side to move wants an odd number
  of ordinary moves left.

The classification follows the original exactly, including its quirk: edge
and interior cells that are not "one more Black" count for White.  A P
qualifies only when R is its single empty legal neighbour (the original's
"Black + White + blocked = neighbours - 1"), and P is classified by its
number of on-board neighbours (2 corner, 3 edge, 4 interior; cells of
1 x C boards with fewer neighbours never qualify).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from ...errors import BadFileError, NotationError, OptionError
from ...io import parse_json, read_text
from ...options import check_number

if TYPE_CHECKING:
    from .rules import Hadron, HadronState

WHITE, BLACK = 0, 1
#: Score of a position whose side to move has no legal cell (a loss).
LOST = -1_000_000.0
UNIT = 100.0


class Specials(NamedTuple):
    white: int  # special moves owned by White (one per qualifying P)
    black: int
    plain: int  # legal cells with no qualifying P: the non-special moves
    legal: int  # number of legal cells


def _owner(degree: int, white: int, black: int) -> int:
    """Who owns the special made by an unplayable cell with these neighbour counts."""
    if degree == 2:
        return BLACK if black == 1 else WHITE if white == 1 else -1
    if degree == 3:
        return BLACK if black - white == 1 else WHITE
    if degree == 4:
        if black >= 3 or white >= 3:
            return -1
        return BLACK if black - white == 1 else WHITE
    return -1


def neighbour_counts(mask: int, game: Hadron) -> tuple[int, int]:
    """Bitboards of the cells with at least one and with at least two
    orthogonal neighbours in `mask` (bits past the board may be set: callers
    intersect with a board mask)."""
    cols = game.cols
    up, down = mask >> cols, mask << cols
    left, right = (mask & game.not_last_col) << 1, (mask & game.not_first_col) >> 1
    vertical, horizontal = up | down, left | right
    return vertical | horizontal, (up & down) | (left & right) | (vertical & horizontal)


def scan_specials(state: HadronState, detail: dict[int, list[int]] | None = None) -> Specials:
    """Count specials and non-special moves; fill `detail` {R: [owners]} if given.

    A candidate P is an empty cell that is not legal and has exactly one
    legal neighbour R (found for all cells at once with bitboards); its
    neighbour counts decide the owner."""
    game = state.game
    legal = state.legal
    if not legal:
        return Specials(0, 0, 0, 0)
    diff, filled, degree = state.diff, state.filled, game.degree
    one, two = neighbour_counts(legal, game)
    candidates = one & ~(two | legal | state.occupied) & game.full_mask
    neighbour_mask = game.neighbour_mask
    white_count = black_count = 0
    special_cells = 0
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        p = low.bit_length() - 1
        f = filled[p]
        white = (f + diff[p]) >> 1
        owner = _owner(degree[p], white, f - white)
        if owner < 0:
            continue
        if owner:
            black_count += 1
        else:
            white_count += 1
        r = neighbour_mask[p] & legal
        special_cells |= r
        if detail is not None:
            detail.setdefault(r.bit_length() - 1, []).append(owner)
    n = legal.bit_count()
    return Specials(white_count, black_count, n - special_cells.bit_count(), n)


def special_moves(state: HadronState) -> Specials:
    return scan_specials(state)


@dataclass
class AenigmaParams:
    """The tunable part of Aenigma: weights per phase and the phase threshold.

    The opening phase lasts while the number of legal moves n >= t.
    """

    w1_open: float = 1.0
    w2_open: float = 0.0
    w1_end: float = 0.5
    w2_end: float = 0.5
    t: float = 10

    def to_dict(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AenigmaParams:
        names = set(cls.__dataclass_fields__)
        unknown = set(data) - names
        if unknown:
            raise OptionError(f"unknown Aenigma parameter(s): {', '.join(sorted(unknown))}")
        # As the AI's options: finite numbers >= 0 (a file's NaN, Infinity or
        # true was taken, and searched with).
        return cls(**{k: check_number(k, v) for k, v in data.items()})

    @classmethod
    def load(cls, path: str | Path) -> AenigmaParams:
        """Read a parameter file: either the parameters or a tuner result with "best"."""
        try:
            data = parse_json(read_text(path), str(path))
        except OSError as exc:
            raise NotationError(str(path), f"cannot read parameter file: {exc.strerror}") from None
        if isinstance(data, dict) and isinstance(data.get("best"), dict):
            data = data["best"]
        if not isinstance(data, dict):
            raise NotationError(str(path), "expected a JSON object of Aenigma parameters")
        data = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        try:
            return cls.from_dict(data)
        except OptionError as exc:
            raise BadFileError(str(path), str(exc)) from None


@dataclass
class Aenigma:
    """The Aenigma evaluator: w1 * hSpecial + w2 * hParity + noise * U[-1, 1)."""

    params: AenigmaParams = field(default_factory=AenigmaParams)
    noise: float = 1.0
    seed: int | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def terms(self, state: HadronState) -> tuple[float, float]:
        """(hS, hP) from the side to move; the caller checks n > 0."""
        s = scan_specials(state)
        h_special = UNIT * (s.white - s.black)
        if state.to_move == BLACK:
            h_special = -h_special
        h_parity = UNIT if s.plain & 1 else -UNIT
        return h_special, h_parity

    def weights(self, n: int) -> tuple[float, float]:
        p = self.params
        return (p.w1_open, p.w2_open) if n >= p.t else (p.w1_end, p.w2_end)

    def __call__(self, state: HadronState) -> float:
        n = state.legal.bit_count()
        if not n:
            return LOST
        h_special, h_parity = self.terms(state)
        w1, w2 = self.weights(n)
        score = w1 * h_special + w2 * h_parity
        if self.noise:
            score += self.noise * (2.0 * self.rng.random() - 1.0)
        return score

    def __repr__(self) -> str:
        return f"Aenigma({self.params}, noise={self.noise})"


def aenigma_evaluator(
    *,
    params: str | None = None,
    noise: float = 1.0,
    seed: int | None = None,
    w1_open: float | None = None,
    w2_open: float | None = None,
    w1_end: float | None = None,
    w2_end: float | None = None,
    t: float | None = None,
) -> Aenigma:
    """Aenigma from options: `params=FILE` and/or w1_open, w2_open, w1_end,
    w2_end, t (None keeps the file's value, or the default)."""
    values = (AenigmaParams.load(params) if params else AenigmaParams()).to_dict()
    given = {"w1_open": w1_open, "w2_open": w2_open, "w1_end": w1_end, "w2_end": w2_end, "t": t}
    values.update({name: value for name, value in given.items() if value is not None})
    return Aenigma(AenigmaParams.from_dict(values), noise=float(noise), seed=seed)


# --- a sum-of-regions evaluator ---------------------------------------------------------


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
    def read(game: Hadron, legal: int, live: int, diff: list[int]) -> tuple[int, int, bool]:
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
    """The Regions evaluator (the game's default): `unit` scores an estimated
    verdict, `up` each up in the side to move's favour."""
    return Regions(unit=float(unit), up=float(up))


def sums_evaluator(
    *, small: int = 8, from_live: int = 60, unit: float = 200.0, up: float = 20.0
) -> Callable[[HadronState], float]:
    """The Sums evaluator (sums.py: Regions with exact values of small regions);
    its options named here so that a misspelt one is refused by name."""
    from .sums import sums_evaluator as make

    return make(small=small, from_live=from_live, unit=unit, up=up)


#: Evaluator factories by name (`Hadron.evaluators()`; "default" is the best).
EVALUATORS: dict[str, Callable[..., Callable[[HadronState], float]]] = {
    "default": sums_evaluator,
    "aenigma": aenigma_evaluator,
    "regions": regions_evaluator,
    "sums": sums_evaluator,
}
