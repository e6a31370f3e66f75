"""Andantino: five in a row or enclose, on a radius-9 hexagonal board.

The package follows the game template: `rules` (the game and its states),
`geometry` (board tables and bitboard helpers), `notation` (cells and move
lists as text), `experts` (evaluators, `EVALUATORS`), `render` (text and SVG
pictures).  See docs/andantino.md for the rules.
"""

from .geometry import CUBES, INDEX
from .rules import BLACK, WHITE, Andantino, AndantinoState

__all__ = ["Andantino", "AndantinoState", "WHITE", "BLACK", "CUBES", "INDEX"]
