"""`SolveResult`: the exact value of a position under perfect play.

It sits below the games and the search, so a game's own solver
(`games/<name>/solver.py`) and the generic `search.solve` return the same
type without the games importing the search.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

@dataclass
class SolveResult:
    """The exact value of a position under perfect play (see `solve`).

    `value` is from the side to move at the root: +1 win, 0 draw, -1 loss
    for unscored games; the final score margin (own minus opponent's) for
    scored games.  `winner` is the winning player's index (0 or 1) or None
    for a draw.  `best` holds every optimal root move when solved with
    `all_moves=True`, otherwise one of them (empty when the game is over).
    """

    value: int
    winner: int | None
    best: list[int]
    nodes: int
    time: float

    def summary(self, game: Game) -> str:
        who = "draw" if self.winner is None else f"{game.player_names[self.winner]} wins"
        best = " ".join(game.format_move(m) for m in self.best) or "-"
        return "\n".join(
            [
                f"value:    {self.value:+d} ({who})",
                f"best:     {best}",
                f"nodes:    {self.nodes} in {self.time:.3f} s",
            ]
        )

