"""Evaluators: callables `state -> float`, scored from the side to move.

Three ways to build one:
- `Linear({feature: weight})`: named features of (state, player) times
  plain weights that a tuner can change;
- `Weighted([(expert, weight), ...])`: a weighted sum of game experts;
- `RandomExpert(scale, seed)`: seeded noise to break ties between equal moves.

Scores must stay well inside +-`MAX_EVAL` so that the search's win scores
always dominate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from .options import check_number

if TYPE_CHECKING:
    from .game import State

Evaluator = Callable[["State"], float]
Feature = Callable[["State", int], float]

#: Evaluations are expected to lie inside +-MAX_EVAL; wins score more.
MAX_EVAL = 10_000_000


class Linear:
    """Sum of weight x feature(state, side to move)."""

    def __init__(self, features: Mapping[Feature, float] | Iterable[tuple[Feature, float]]):
        items = features.items() if isinstance(features, Mapping) else features
        self.terms: list[tuple[Feature, float]] = [(f, float(w)) for f, w in items]

    @property
    def weights(self) -> dict[str, float]:
        return {f.__name__: w for f, w in self.terms}

    def with_weights(self, **weights: float) -> Linear:
        """A copy with some weights changed, by feature name."""
        unknown = set(weights) - set(self.weights)
        if unknown:
            raise ValueError(f"unknown feature(s): {', '.join(sorted(unknown))}")
        return Linear([(f, weights.get(f.__name__, w)) for f, w in self.terms])

    def __call__(self, state: State) -> float:
        player = state.to_move
        return sum(w * f(state, player) for f, w in self.terms if w)

    def __repr__(self) -> str:
        return f"Linear({self.weights})"


class Weighted:
    """Sum of weight x expert(state)."""

    def __init__(self, experts: Iterable[tuple[Evaluator, float]]):
        self.experts: list[tuple[Evaluator, float]] = [(e, float(w)) for e, w in experts]

    def __call__(self, state: State) -> float:
        return sum(w * e(state) for e, w in self.experts if w)

    def __repr__(self) -> str:
        return f"Weighted({self.experts})"


class RandomExpert:
    """Uniform noise in [-scale, scale): breaks ties, reproducible for a seed."""

    def __init__(self, scale: float = 1.0, seed: int | None = None):
        self.scale = check_number("noise", scale)
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> float:
        return self.scale * (2.0 * self.rng.random() - 1.0)

    def __repr__(self) -> str:
        return f"RandomExpert({self.scale})"


def with_noise(evaluator: Evaluator, scale: float, seed: int | None) -> Evaluator:
    """`evaluator` plus a RandomExpert of `scale` (no wrapper when scale is 0)."""
    if not check_number("noise", scale):
        return evaluator
    return Weighted([(evaluator, 1.0), (RandomExpert(scale, seed), 1.0)])
