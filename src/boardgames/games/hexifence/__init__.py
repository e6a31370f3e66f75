"""HexiFence and dots-and-boxes: one edge-capture engine on two layouts.

`HexiFence(size=N)`: the COMP30024 2016 game, hexagonal cells, N from 1 to 5.
`DotsAndBoxes(rows=R, cols=C)`: the same rules on R x C square boxes.
`rules` (both games, `EdgeGame`/`EdgeState`), `geometry` (the layouts),
`notation` (board text, the Part A answer), `experts` (chains, loops,
evaluators), `render`, `solver` (the exact solver).
See docs/hexifence.md for rules, notation and conventions.
"""

from .geometry import Layout
from .rules import UNKNOWN, DotsAndBoxes, EdgeGame, EdgeState, HexiFence

__all__ = ["HexiFence", "DotsAndBoxes", "EdgeGame", "EdgeState", "Layout", "UNKNOWN"]
