"""Hadron's knowledge: Aenigma, the evaluation of the 2022/23 Calabria
tournament winner (seed 002), the `analyse` report, and the `EVALUATORS`
table (with the Regions and Sums readings of regions.py and sums.py).

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
from .regions import LOST, Regions, neighbour_counts, regions_evaluator
from .rules import BLACK, WHITE
from .sums import sums_evaluator

if TYPE_CHECKING:
    from .rules import HadronState

UNIT = 100.0


class Specials(NamedTuple):
    """The special moves of a position (Aenigma's reading): how many each
    side owns, the legal cells that are not special, and the legal cells."""
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
    """The special moves of `state` (`scan_specials`)."""
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
        """The parameters by name, as a parameters file holds them."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AenigmaParams:
        """Parameters from a dict of names and values (a parameters file).

        Raises:
            OptionError: an unknown name, or a value that is not a finite
                number >= 0."""
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
        """The weights (special moves, parity) for a position with `n` legal
        cells: the opening's while `n >= t`, the endgame's after."""
        p = self.params
        return (p.w1_open, p.w2_open) if n >= p.t else (p.w1_end, p.w2_end)

    def __call__(self, state: HadronState) -> float:
        """Aenigma's score for the side to move (LOST with no legal cell), with
        the noise added."""
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


# --- the report of `analyse` -----------------------------------------------------------


def report(state: HadronState) -> str:
    """While the game goes on: both sides' special moves and the regions'
    reading ("" once it is over)."""
    if state.is_over():
        return ""
    info = special_moves(state)
    ups, stars, exact = Regions().analyse(state)
    return "\n".join([
        f"white specials: {info.white}",
        f"black specials: {info.black}",
        f"non-special moves: {info.plain}",
        f"regions: {describe_ups(ups)}, stars {stars}, {'exact' if exact else 'estimated'}",
    ])


def describe_ups(ups: int) -> str:
    """The Regions reading's net ups in words: '2 ups (White's favour)',
    '3 downs (Black's favour)', 'no net ups'.  An up is worth a little to
    White, a down (a negative up) as much to Black."""
    if ups == 0:
        return "no net ups"
    word, side = ("up", "White") if ups > 0 else ("down", "Black")
    count = abs(ups)
    return f"{count} {word}{'s' if count > 1 else ''} ({side}'s favour)"


# --- the table ---------------------------------------------------------------------------


#: Evaluator factories by name (`Hadron.evaluators()`; "default" is the best).
EVALUATORS: dict[str, Callable[..., Callable[[HadronState], float]]] = {
    "default": sums_evaluator,
    "aenigma": aenigma_evaluator,
    "regions": regions_evaluator,
    "sums": sums_evaluator,
}
