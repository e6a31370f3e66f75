"""Hadron's tuner: natural selection of Aenigma's weights (the seed 002 authors' run).

Aenigma's evaluation weighs two features per phase (`w1`, `w2` in the
opening and the end) and switches phase at `t` legal moves; the seed drew
each weight in [0, 1] and t in [0, cells + 1].  The game's registration
names `AENIGMA` as its tuner, so `boardgames tune hadron` finds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..game import Game
from .selection import (
    ParamRange,
    ParamSpace,
    SelectionResult,
    Tuner,
    ai_spec,
)


def aenigma_space(game: Game[Any]) -> ParamSpace:
    """The seed's ranges: each weight in [0, 1], t in [0, cells + 1] (82 on 9 x 9)."""
    weight = ParamRange(0.0, 1.0)
    cells = game.num_moves
    return ParamSpace({
        "w1_open": weight, "w2_open": weight, "w1_end": weight, "w2_end": weight,
        "t": ParamRange(0, cells + 1, integer=True),
    })  # fmt: skip


#: `boardgames tune hadron` (declared by the game's registration).
AENIGMA = Tuner("hadron", "aenigma", aenigma_space, "Aenigma's w1, w2 and t")


def aenigma_spec(
    params: Mapping[str, float],
    *,
    depth: int | None = None,
    time: float | None = None,
    ai: str = "aenigma",
) -> str:
    """The AI spec of an Aenigma player with these parameters and search limits."""
    return ai_spec(ai, params, depth=depth, time=time)


def tune_aenigma(
    game: Game[Any], *, depth: int | None = 2, time: float | None = None, **options: Any
) -> SelectionResult:
    """Natural selection of Aenigma's (w1, w2) per phase and t on `game` (a Hadron board).

    `depth`/`time` limit each player's search; the rest goes to `natural_selection`.
    """
    return AENIGMA.run(game, depth=depth, time=time, **options)
