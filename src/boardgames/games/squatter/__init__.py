"""Squatter (Melbourne COMP30024, 2015): place stones, enclose loops, capture territory.

The package follows the game template; `Squatter`, below, composes the game
from its parts:

    rules.py      SquatterRules (the rules and tables) and SquatterState (one position)
    geometry.py   board tables (rings, rays, symmetries) and cell names
    notation.py   the course's Part A board text and answer
    territory.py  the library's own evaluator and its features
    experts.py    the seed evaluators, move orders, the `analyse` report and
                  the EVALUATORS table
    potential.py  bounds for the solver and the AI (dead cells)
    book.py       the opening book
    render.py     the text board and the SVG picture
    solver.py     the exact solver (solver_node.py), declared in
                  boardgames.registry and imported on first use

See docs/squatter.md for the rules.
"""

from __future__ import annotations

from collections.abc import Callable

from ...weights import Weights
from . import notation
from .experts import EVALUATORS, TERRITORY_WEIGHTS, report
from .notation import parse_board, part_a, write_board
from .rules import BLACK, WHITE, SquatterRules, SquatterState

__all__ = [
    "BLACK", "WHITE", "Squatter", "SquatterRules", "SquatterState", "parse_board", "part_a",
    "write_board",
]


class Squatter(SquatterRules):
    """Squatter: the rules (rules.py) with their board text, evaluators,
    report and pictures."""

    def _parse_move(self, text: str) -> int:
        return self.geometry.parse_cell(text)

    def _format_move(self, move: int) -> str:
        return self.geometry.format_cell(move)

    def _parse_position(self, text: str) -> SquatterState:
        """A position from the course's Part A board text.

        The size comes from the text, so a 7 x 7 board read through a 6 x 6
        game gives a state of the 7 x 7 game.
        """
        return notation.parse_board(text, self)

    def _format_position(self, state: SquatterState) -> str:
        """The position as Part A board text."""
        return notation.write_board(state)

    def evaluators(self) -> dict[str, Callable[..., Callable[[SquatterState], float]]]:
        """The evaluators by name (`experts.EVALUATORS`)."""
        return dict(EVALUATORS)

    def tunable_weights(self) -> Weights:
        """Territory's weights (`experts.TERRITORY_WEIGHTS`)."""
        return TERRITORY_WEIGHTS

    def default_evaluator(self) -> Callable[[SquatterState], float]:
        """A new instance of the evaluator named "default"."""
        return self.evaluator("default")

    def analyse(self, state: SquatterState) -> str:
        """The generic report, then stones, threats and half diamonds of each side."""
        return f"{super().analyse(state)}\n{report(state)}"

    def part_a(self, state: SquatterState) -> str:
        """The course's Part A answer: winner line, White's and Black's captured counts."""
        return notation.part_a(state)

    def render_text(self, state: SquatterState, color: bool = False) -> str:
        """The board as text (`render.render_text`)."""
        from . import render

        return render.render_text(state, color)

    def render_svg(self, state: SquatterState) -> str:
        """The board as an SVG picture (`render.render_svg`)."""
        from . import render

        return render.render_svg(state)
