"""Hadron (Mark Steere): balanced-neighbour placement, last player to place wins.

The package follows the game template; `Hadron`, below, composes the game
from its parts:

    rules.py      HadronRules (the rules and tables) and HadronState (one position)
    notation.py   cell names (E5)
    regions.py    the Regions reading (the position as a sum of regions)
    sums.py       the Sums evaluator (Regions with exact small regions)
    experts.py    Aenigma, the `analyse` report and the EVALUATORS table
    render.py     the text board and the SVG picture
    solver.py     the exact solver (cgt.py, values.py, nodes.py), declared
                  in boardgames.registry and imported on first use

See docs/hadron.md.
"""

from __future__ import annotations

from collections.abc import Callable

from ...weights import Weights
from . import notation
from .experts import EVALUATORS, Aenigma, AenigmaParams, Specials, report, scan_specials
from .rules import BLACK, EMPTY, WHITE, HadronRules, HadronState
from .sums import SUMS_WEIGHTS

__all__ = [
    "BLACK", "EMPTY", "WHITE", "Aenigma", "AenigmaParams", "Hadron", "HadronRules",
    "HadronState", "Specials", "scan_specials",
]


class Hadron(HadronRules):
    """Hadron: the rules (rules.py) with their cell names, evaluators, report and pictures."""

    def _parse_move(self, text: str) -> int:
        return notation.parse_cell(text, self.rows, self.cols)

    def _format_move(self, move: int) -> str:
        return notation.cell_names(self.rows, self.cols)[move]

    def evaluators(self) -> dict[str, Callable[..., Callable[[HadronState], float]]]:
        """The evaluators by name (`experts.EVALUATORS`)."""
        return dict(EVALUATORS)

    def tunable_weights(self) -> Weights:
        """The default AI's evaluator's weights (`SUMS_WEIGHTS`)."""
        return SUMS_WEIGHTS

    def analyse(self, state: HadronState) -> str:
        """The generic report, and while the game goes on both sides' special
        moves and the regions' reading (experts.py)."""
        return "\n".join(part for part in (super().analyse(state), report(state)) if part)

    def render_text(self, state: HadronState, color: bool = False) -> str:
        """The board as text (`render.render_text`)."""
        from . import render

        return render.render_text(state, color)

    def render_svg(self, state: HadronState) -> str:
        """The board as an SVG picture (`render.render_svg`)."""
        from . import render

        return render.render_svg(state)
