"""SPSA: tune an AI's weights on match results (simultaneous perturbation).

Each iteration k perturbs every weight at once by +-c_k (a random sign per
weight, in units of the weight's scale), plays game pairs between the two
perturbed players with colours swapped (same seeds), and moves the weights
towards the side that scored better:

    theta += a_k * (score(+) - score(-)) / (2 * c_k * delta)

with c_k = c / (k + 1) ** 0.101 and a_k = a / (k + 1 + A) ** 0.602
(Spall's exponents), A a tenth of the iterations.  A weight's scale is its
starting value, at least a hundredth of its range, so a 0 can move too; the
weights stay inside their declared ranges.  Every iteration's games run as
one `round_robin` on the executor (worker processes or Dask); the state
after each iteration is JSON (`SpsaState`), so a run can stop and resume.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..errors import BoardgamesError, OptionError
from ..game import Game
from ..options import check_real, check_whole
from ..tournament.run import round_robin
from ..tournament.schedule import TournamentSettings
from ..tournament.tasks import GameResult, derive_seed
from ..weights import Weights
from .selection import ai_spec


@dataclass
class SpsaState:
    """Where a run is: the weights after `iteration` iterations, and per
    iteration the score difference (+) minus (-) in [-1, 1]."""

    weights: dict[str, float]
    iteration: int = 0
    scores: list[float] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON data (a params file's `spsa` field)."""
        return {"iteration": self.iteration, "weights": self.weights, "scores": self.scores}

    @classmethod
    def from_dict(cls, data: Any, weights: Weights) -> SpsaState:
        """The state saved by `to_dict` (weights checked); OptionError otherwise."""
        if not isinstance(data, dict):
            raise OptionError("no SPSA state to resume (\"spsa\" is not an object)")
        iteration, scores = data.get("iteration"), data.get("scores")
        check_whole("iteration", iteration, 0)
        if not isinstance(scores, list) or len(scores) != iteration:
            raise OptionError("the SPSA state's scores do not match its iterations")
        return cls(weights.complete(data.get("weights") or {}), iteration,
                   [check_real("score", s, -1, 1) for s in scores])


def scales(weights: Weights, start: Mapping[str, float]) -> dict[str, float]:
    """Each weight's unit: |start value|, at least a hundredth of its range."""
    return {
        w.name: max(abs(start[w.name]), (w.high - w.low) / 100.0) for w in weights.weights
    }


def spsa(
    game: Game[Any],
    weights: Weights,
    start: Mapping[str, float],
    *,
    ai: str = "default",
    iterations: int = 100,
    pairs: int = 2,
    depth: int | None = 2,
    time: float | None = None,
    c: float = 0.1,
    a: float | None = None,
    seed: int = 0,
    opening_plies: int = 2,
    state: SpsaState | None = None,
    executor: Executor | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    on_iteration: Callable[[SpsaState], None] | None = None,
) -> SpsaState:
    """Run SPSA from `start` (or resume `state`) to `iterations` iterations.

    Players are `ai` with every weight as an option and `depth` or `time`
    per move; `pairs` game pairs per iteration.  `on_iteration(state)` sees
    the state after each (to save it).
    """
    check_whole("iterations", iterations, 1)
    check_whole("pairs", pairs, 1)
    check_real("c", c, 0, 1, open_low=True)
    big_a = iterations / 10
    if a is None:
        a = 4 * c * c * (big_a + 1) ** 0.602
    unit = scales(weights, start)
    state = state or SpsaState(weights.complete(start))
    names = weights.names
    while state.iteration < iterations:
        k = state.iteration
        rng = random.Random(derive_seed(seed, k, 0))
        ck = c / (k + 1) ** 0.101
        ak = a / (k + 1 + big_a) ** 0.602
        delta = {name: rng.choice((-1.0, 1.0)) for name in names}
        plus = _clipped(weights, {n: state.weights[n] + ck * delta[n] * unit[n] for n in names})
        minus = _clipped(weights, {n: state.weights[n] - ck * delta[n] * unit[n] for n in names})
        settings = TournamentSettings(
            game.name, game.params,
            [ai_spec(ai, plus, depth=depth, time=time), ai_spec(ai, minus, depth=depth, time=time)],
            labels=["plus", "minus"], games_per_pair=2 * pairs, seed=derive_seed(seed, k, 1),
            opening_plies=opening_plies,
            time_limit=None if time is None else max(1.0, 2 * time),
        )  # fmt: skip
        table = round_robin(settings, executor, on_result=on_result)
        if table.errors:
            raise BoardgamesError(
                f"iteration {k}: {len(table.errors)} games could not be played"
                f" (first: {table.errors[0].error})"
            )
        wins, _ = table.counts()
        played = sum(r.finished for r in table.results) or 1
        score = (wins[0][1] - wins[1][0]) / played
        moved = {
            n: state.weights[n] + ak * score / (2 * ck * delta[n]) * unit[n] for n in names
        }
        state = SpsaState(_clipped(weights, moved), k + 1, [*state.scores, score])
        if on_iteration is not None:
            on_iteration(state)
    return state


def _clipped(weights: Weights, values: Mapping[str, float]) -> dict[str, float]:
    """Each value inside its weight's range (rounded to 6 significant digits)."""
    out = {}
    for w in weights.weights:
        value = min(max(values[w.name], w.low), w.high)
        out[w.name] = float(f"{value:.6g}")
    return out
