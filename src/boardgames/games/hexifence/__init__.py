"""HexiFence and dots-and-boxes: one edge-capture engine on two layouts.

`HexiFence(size=N)`: the COMP30024 2016 game, hexagonal cells, N from 1 to 5.
`DotsAndBoxes(rows=R, cols=C)`: the same rules on R x C square boxes.

The package follows the game template; the two games, below, are composed
from its parts:

    rules.py      EdgeGame and EdgeState (the shared rules: claims, captures,
                  extra turns), HexiFenceRules and DotsAndBoxesRules (the layouts)
    geometry.py   the two layouts
    notation.py   edge names, the board text of each game, the Part A answer
    experts.py    chains, loops, evaluators, the `analyse` report and the
                  EVALUATORS table
    render.py     the text board and the SVG picture
    solver.py     the exact solver (chains.py, coins.py, position.py,
                  table.py), declared in boardgames.registry; book.py its
                  opening book

See docs/hexifence.md for rules, notation and conventions.
"""

from __future__ import annotations

from collections.abc import Callable

from . import notation
from .experts import EVALUATORS, report
from .geometry import Layout
from .rules import UNKNOWN, DotsAndBoxesRules, EdgeGame, EdgeState, HexiFenceRules

__all__ = ["HexiFence", "DotsAndBoxes", "EdgeGame", "EdgeParts", "EdgeState", "Layout", "UNKNOWN"]


class EdgeParts(EdgeGame):
    """What both edge games add to their rules: edge names, board text,
    evaluators, report, Part A answer and pictures."""

    def _parse_move(self, text: str) -> int:
        """`A1` (row letter, column number) or `row,col` (0-based) of an edge point."""
        return notation.parse_edge(self, text)

    def _format_move(self, move: int) -> str:
        return notation.format_edge(self, move)

    def _parse_position(self, text: str) -> EdgeState:
        """A board in the game's text format; the text sets the size, so a
        board of another size gives a state of that size's game."""
        return notation.parse_position(self, text)

    def _format_position(self, state: EdgeState) -> str:
        return notation.position_text(state)

    def evaluators(self) -> dict[str, Callable[..., Callable[[EdgeState], float]]]:
        """The evaluators by name (`experts.EVALUATORS`)."""
        return dict(EVALUATORS)

    def analyse(self, state: EdgeState) -> str:
        """The generic report, then safe moves, captures on offer, chains and loops."""
        return f"{super().analyse(state)}\n{report(state)}"

    def part_a(self, state: EdgeState) -> str:
        """The course's Part A answer: empty edges, most cells one move can
        capture, cells with exactly one empty edge."""
        return notation.part_a(state)

    def render_text(self, state: EdgeState, color: bool = False) -> str:
        """The board as text (`render.render_text`)."""
        from . import render

        return render.render_text(state, color)

    def render_svg(self, state: EdgeState) -> str:
        """The board as an SVG picture (`render.render_svg`)."""
        from . import render

        return render.render_svg(state)


class HexiFence(EdgeParts, HexiFenceRules):
    """HexiFence of dimension `size` (official sizes 2 and 3): the rules
    (rules.py) with the edge games' notation, knowledge and pictures."""


class DotsAndBoxes(EdgeParts, DotsAndBoxesRules):
    """Dots-and-boxes with `rows` x `cols` boxes: the rules (rules.py) with
    the edge games' notation, knowledge and pictures."""
