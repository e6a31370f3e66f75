"""The evaluation graph's numbers: the game's static evaluation of every position.

Values are from the first player's point of view; a finished game scores
+-1e9 (or 0 for a draw); None where the game has no evaluator or it fails.
"""

from __future__ import annotations

import math
from typing import Any

from ..game import Game, State

#: Positions an evaluator judges before a fresh one takes over: an evaluator
#: may cache what it learns (Squatter's does, up to tens of megabytes on big
#: boards), and a game that is played again and again must not keep that much.
FRESH_EVALUATOR = 256


class Evaluations:
    """One value per position of a game, in order (the page's graph)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game
        self.values: list[float | None] = []
        self.evaluator = self._fresh()
        self.judged = 0

    def _fresh(self) -> Any:
        try:
            return self.game.default_evaluator()
        except Exception:  # a plugin without evaluators: no graph, nothing else lost
            return None

    def append(self, state: State[Any]) -> None:
        """The value of `state`, the position after the last one."""
        self.values.append(self.value(state))

    def pop(self) -> None:
        """Forget the value of the last position."""
        self.values.pop()

    def value(self, state: State[Any]) -> float | None:
        """The position's static value from the first player's point of view."""
        outcome = state.outcome()
        if outcome is not None:
            return 0.0 if outcome.winner is None else (1e9 if outcome.winner == 0 else -1e9)
        if self.evaluator is None:
            return None
        self.judged += 1
        if self.judged % FRESH_EVALUATOR == 0:
            self.evaluator = self._fresh()
        try:
            value = float(self.evaluator(state))
        except Exception:
            return None
        if not math.isfinite(value):
            return None
        return value if state.to_move == 0 else -value
