"""Connect Four evaluators: one feature, and the EVALUATORS table."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from boardgames.evaluation import Evaluator, Linear

from .rules import ROWS, cell

if TYPE_CHECKING:
    from .rules import C4State


#: The cells of the middle column, bottom to top.
CENTRE = slice(cell(3, 0), cell(3, ROWS))


def centre(state: C4State, player: int) -> float:
    """Stones in the middle column, mine minus theirs."""
    col = state.board[CENTRE]
    return col.count(player) - col.count(1 - player)


def default(weight: float = 1.0) -> Evaluator[C4State]:
    """`weight` x the centre feature, from the side to move."""
    return Linear({centre: weight})


EVALUATORS: dict[str, Callable[..., Evaluator[C4State]]] = {"default": default}
