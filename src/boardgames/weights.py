"""Tunable evaluator weights: declared once, checked like options, kept in params files.

An evaluator whose weights may be tuned declares them once as `Weights`:
the game and evaluator they belong to, and per weight its name, its
hand-set default and its range.  The declaration gives the AIs that use
the evaluator their options (`options()`), checks any values
(`check`), and reads and writes a *params file*: JSON naming the game and
the evaluator and holding any subset of the weights,

    {"format": "boardgames-params", "version": 1, "game": "squatter",
     "evaluator": "territory", "weights": {"tempo": 71.5, "fork": 22.0}}

which every AI of that evaluator loads with `params=FILE`.  A file for
another game or evaluator, an unknown name, NaN or a value out of range is
refused in one line (`BadFileError`).

A declaration may also say how to `build` the evaluator from weights and
which weights it is `linear` in: with the others held, its value is
`sum(w * f)` over those weights, where a position's features `f` are the
values of evaluators built with one such weight 1 and the rest 0 (where
all of them 0 still scores something, a win found statically, the
position is not linear and a tuner leaves it out).  The Texel tuner fits
those weights to game results (`boardgames.tuning.texel`); the hot
evaluation itself is not touched.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import BadFileError, NotationError, OptionError, quote
from .io import atomic_write_text, parse_json, read_text
from .options import Option, check_real

#: The `format` of a params file.
FORMAT = "boardgames-params"
VERSION = 1

#: The option of every AI that plays with declared weights: a params file.
PARAMS = Option("params", "path", None, "params file of tuned weights (boardgames tune)")

#: `build(weights) -> evaluator`: the evaluator with every declared weight given.
Build = Callable[[dict[str, float]], Callable[[Any], float]]


@dataclass(frozen=True)
class Weight:
    """One tunable weight: its name, hand-set default and range [low, high]."""

    name: str
    default: float
    low: float
    high: float
    help: str = ""

    def __post_init__(self) -> None:
        if not self.low <= self.default <= self.high:
            raise ValueError(f"{self.name}: default outside [{self.low}, {self.high}]")

    def option(self) -> Option:
        """The weight as an AI option: a number in its range, None when not
        given (so that a params file's value is not overridden by the default)."""
        what = self.help or "weight"
        return Option(self.name, "number", None, f"{what} [{self.default:g}]", self.low, self.high)

    def check(self, value: Any) -> float:
        """`value`, a finite number in range; OptionError naming the weight otherwise."""
        return check_real(self.name, value, self.low, self.high)


@dataclass(frozen=True)
class Weights:
    """The tunable weights of one evaluator of one game.

    `build` and `linear` are for the tuners: `build(weights)` makes the
    evaluator as the AIs use it, and the evaluation is linear in the
    weights named in `linear` (the others held).  `random_plies` and
    `solve_from` are the Texel tuner's defaults for the game: random moves
    that open a self-play game, and the legal moves from which the exact
    solver labels a position.
    """

    game: str
    evaluator: str
    weights: tuple[Weight, ...]
    build: Build | None = field(default=None, compare=False)
    linear: tuple[str, ...] = ()
    random_plies: int = 4
    solve_from: int = 0

    def __post_init__(self) -> None:
        names = [w.name for w in self.weights]
        if len(set(names)) != len(names) or not set(self.linear) <= set(names):
            raise ValueError(f"{self.evaluator}: duplicate or undeclared weight names")

    @property
    def names(self) -> tuple[str, ...]:
        """The weights' names, in declaration order."""
        return tuple(w.name for w in self.weights)

    def weight(self, name: str) -> Weight:
        """The declared weight `name`; OptionError naming the declared ones otherwise."""
        for w in self.weights:
            if w.name == name:
                return w
        raise OptionError(
            f"unknown weight {quote(name)} of {self.describe()} (its weights: "
            f"{', '.join(self.names)})"
        )

    def defaults(self) -> dict[str, float]:
        """Every weight at its hand-set default."""
        return {w.name: w.default for w in self.weights}

    def options(self) -> tuple[Option, ...]:
        """The weights as AI options (see `Weight.option`)."""
        return tuple(w.option() for w in self.weights)

    def check(self, values: Mapping[str, Any]) -> dict[str, float]:
        """Any subset of the weights, each checked (unknown names, NaN, infinities
        and values out of range raise OptionError)."""
        return {name: self.weight(name).check(value) for name, value in values.items()}

    def complete(self, values: Mapping[str, Any]) -> dict[str, float]:
        """Every weight: `values` (checked) over the defaults."""
        return {**self.defaults(), **self.check(values)}

    def describe(self) -> str:
        """'the territory evaluator of squatter'."""
        return f"the {self.evaluator} evaluator of {self.game}"

    # --- params files ---------------------------------------------------------------------

    def to_json(self, values: Mapping[str, Any], **extra: Any) -> dict[str, Any]:
        """A params file's data for `values` (checked); `extra` adds fields (how it was made)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "evaluator": self.evaluator,
            "weights": self.check(values),
            **extra,
        }

    def save(self, path: str | Path, values: Mapping[str, Any], **extra: Any) -> None:
        """Write a params file (atomically: a failed write leaves no half file)."""
        data = self.to_json(values, **extra)
        atomic_write_text(path, json.dumps(data, indent=2, allow_nan=False) + "\n")

    def read(self, data: Any, source: str) -> dict[str, float]:
        """The weights of a params file's data; BadFileError (one line) when the
        file is not one, is for another game or evaluator, or holds a bad value."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BadFileError(source, f"not a params file (no \"format\": \"{FORMAT}\")")
        game, evaluator = data.get("game"), data.get("evaluator")
        if game != self.game or evaluator != self.evaluator:
            raise BadFileError(
                source,
                f"params for the {quote(evaluator)} evaluator of {quote(game)},"
                f" not for {self.describe()}",
            )
        weights = data.get("weights")
        if not isinstance(weights, dict):
            raise BadFileError(source, "\"weights\" must be an object of names and numbers")
        try:
            return self.check(weights)
        except OptionError as exc:
            raise BadFileError(source, str(exc)) from None

    def load(self, path: str | Path) -> dict[str, float]:
        """The weights a params file holds (any subset), checked (see `read`)."""
        try:
            text = read_text(path)
        except OSError as exc:
            raise NotationError(str(path), f"cannot read params file: {exc.strerror}") from None
        return self.read(parse_json(text, str(path)), str(path))

    def resolve(self, params: str | None, given: Mapping[str, Any]) -> dict[str, float]:
        """The weights an AI plays with: the defaults, then the file `params`,
        then the options `given` (None: not given)."""
        values = self.defaults()
        if params is not None:
            values.update(self.load(params))
        values.update(self.check({k: v for k, v in given.items() if v is not None}))
        return values
