"""Andantino: five in a row or enclose, on a radius-9 hexagonal board.

The package follows the game template; `Andantino`, below, composes the
game from its parts:

    rules.py      AndantinoRules (the rules and tables) and AndantinoState
                  (one position), with tallies.py (the incremental counts)
    geometry.py   board tables and bitboard helpers
    notation.py   cells (J10, cube x,y,z) and move lists as text
    threats.py    the threat counts from scratch and the `analyse` report
    experts.py    evaluators and move orders, and the EVALUATORS table
    ladders.py    forcing lines (threat sequences) for the AIs
    openings.py   the opening book
    render.py     the text board and the SVG picture

See docs/andantino.md for the rules.
"""

from __future__ import annotations

from collections.abc import Callable

from ...weights import Weights
from . import notation
from .experts import EVALUATORS, THREAT_WEIGHTS
from .geometry import CUBES, INDEX
from .rules import BLACK, WHITE, AndantinoRules, AndantinoState
from .threats import describe

__all__ = [
    "Andantino", "AndantinoRules", "AndantinoState", "WHITE", "BLACK", "CUBES", "INDEX",
]


class Andantino(AndantinoRules):
    """Andantino: the rules (rules.py) with their notation, evaluators, report
    and pictures."""

    def _parse_move(self, text: str) -> int:
        return notation.parse_cell(text)

    def _format_move(self, move: int) -> str:
        return notation.format_cell(move)

    def format_cube(self, move: int) -> str:
        """A move in cube coordinates `x,y,z`."""
        return notation.format_cube(self.check_index(move))

    def _parse_position(self, text: str) -> AndantinoState:
        """A position from its move list (`J10` cells or cube `x,y,z`, White
        first; the Black centre stone is implied)."""
        return notation.parse_position(self, text)

    def evaluators(self) -> dict[str, Callable[..., Callable[[AndantinoState], float]]]:
        """The evaluators by name (`experts.EVALUATORS`)."""
        return dict(EVALUATORS)

    def tunable_weights(self) -> Weights:
        """The default AI's evaluator's weights (`THREAT_WEIGHTS`)."""
        return THREAT_WEIGHTS

    def analyse(self, state: AndantinoState) -> str:
        """The generic report and both sides' threats (lines, enclosures, bridges)."""
        return f"{super().analyse(state)}\n{describe(state)}"

    def render_text(self, state: AndantinoState, color: bool = False) -> str:
        """The board as text (`render.render_text`)."""
        from . import render

        return render.render_text(state, color)

    def render_svg(self, state: AndantinoState) -> str:
        """The board as an SVG picture (`render.render_svg`)."""
        from . import render

        return render.render_svg(state)
