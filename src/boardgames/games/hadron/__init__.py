"""Hadron (Mark Steere): balanced-neighbour placement, last player to place wins.

The package follows the game template: `rules` (the game and its states),
`notation` (cell names), `experts` (Aenigma, Regions, `EVALUATORS`),
`render` (text and SVG pictures) and `solver` (the exact solver, imported
by the AI layer).  See docs/hadron.md.
"""

from .experts import Aenigma, AenigmaParams, Specials, scan_specials
from .rules import BLACK, EMPTY, WHITE, Hadron, HadronState

__all__ = [
    "BLACK", "EMPTY", "WHITE", "Aenigma", "AenigmaParams", "Hadron", "HadronState",
    "Specials", "scan_specials",
]
