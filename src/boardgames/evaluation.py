"""Evaluators: callables `state -> float`, scored from the side to move.

Three ways to build one:
- `Linear({feature: weight})`: named features of (state, player) times
  plain weights that a tuner can change;
- `Weighted([(expert, weight), ...])`: a weighted sum of game experts;
- `RandomExpert(scale, seed)`: seeded noise to break ties between equal moves.

Scores must stay well inside +-`MAX_EVAL` so that the search's win scores
always dominate.

`Evaluator` is generic in the state type: `Evaluator[SquatterState]` is a
`Callable[[SquatterState], float]`, and a bare `Evaluator` takes any state.
`Linear` and `Weighted` are generic the same way, so an evaluator built from
one game's experts keeps that game's state type.  All this module needs of a
state is its side to move (`Position`), so it stands below the game protocol.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import Generic, Protocol, TypeVar

from .options import check_number


class Position(Protocol):
    """What an evaluator may rely on in any state: the side to move (0 or 1)."""

    @property
    def to_move(self) -> int:
        """The player to move (0 or 1)."""


#: The state type of an evaluator (a game's own State subclass).
S = TypeVar("S", bound=Position)

#: `state -> float`, scored for `state.to_move`.
Evaluator = Callable[[S], float]
#: `(state, player) -> float`: one named feature of a `Linear` evaluator.
Feature = Callable[[S, int], float]

#: Evaluations are expected to lie inside +-MAX_EVAL; wins score more.
MAX_EVAL = 10_000_000


class Linear(Generic[S]):
    """Sum of weight x feature(state, side to move)."""

    def __init__(
        self, features: Mapping[Feature[S], float] | Iterable[tuple[Feature[S], float]]
    ) -> None:
        items = features.items() if isinstance(features, Mapping) else features
        self.terms: list[tuple[Feature[S], float]] = [(f, float(w)) for f, w in items]

    @property
    def weights(self) -> dict[str, float]:
        """The weight of each feature, by the feature's name."""
        return {f.__name__: w for f, w in self.terms}

    def __call__(self, state: S) -> float:
        """The weighted sum of the features, for the side to move."""
        player = state.to_move
        return sum(w * f(state, player) for f, w in self.terms if w)

    def __repr__(self) -> str:
        return f"Linear({self.weights})"


class Weighted(Generic[S]):
    """Sum of weight x expert(state)."""

    def __init__(self, experts: Iterable[tuple[Evaluator[S], float]]) -> None:
        self.experts: list[tuple[Evaluator[S], float]] = [(e, float(w)) for e, w in experts]

    def __call__(self, state: S) -> float:
        """The weighted sum of the experts' scores."""
        return sum(w * e(state) for e, w in self.experts if w)

    def __repr__(self) -> str:
        return f"Weighted({self.experts})"


class RandomExpert:
    """Uniform noise in [-scale, scale): breaks ties, reproducible for a seed."""

    def __init__(self, scale: float = 1.0, seed: int | None = None) -> None:
        self.scale = check_number("noise", scale)
        self.rng = random.Random(seed)

    def __call__(self, state: object) -> float:
        """A uniformly random score in [-scale, scale)."""
        return self.scale * (2.0 * self.rng.random() - 1.0)

    def __repr__(self) -> str:
        return f"RandomExpert({self.scale})"


def with_noise(evaluator: Evaluator[S], scale: float, seed: int | None) -> Evaluator[S]:
    """`evaluator` plus a RandomExpert of `scale` (no wrapper when scale is 0)."""
    if not check_number("noise", scale):
        return evaluator
    noise: Evaluator[S] = RandomExpert(scale, seed)
    return Weighted([(evaluator, 1.0), (noise, 1.0)])
