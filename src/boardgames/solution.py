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

#: `SolveResult.bound`: the value is exact, or (a search in a window) only a bound.
EXACT, LOWER, UPPER = "exact", "lower", "upper"

@dataclass
class SolveResult:
    """The exact value of a position under perfect play (see `solve`).

    `value` is from the side to move at the root: +1 win, 0 draw, -1 loss
    for unscored games; the final score margin (own minus opponent's) for
    scored games.  `winner` is the winning player's index (0 or 1) or None
    for a draw.  `best` holds every optimal root move when solved with
    `all_moves=True`, otherwise one of them (empty when the game is over).

    `line` is a principal line: moves of optimal play for both sides from
    the position to the end of the game (extra turns included, so the same
    player may move twice running); replaying it ends the game with
    `value`.  In a won or lost position of an unscored game every move of
    the loser is as good as another, and the line shows one of them.  It
    is None when the solver was not asked for a line or cannot give one
    (never a made-up line), and [] when the game is over.

    `bound` is EXACT unless the solve ran in a window (alpha, beta) and the
    value fell outside it: LOWER means the true value is >= `value`
    (fail high), UPPER that it is <= `value` (fail low).  Only an exact
    result has meaningful `best` and `line`.
    """

    value: int
    winner: int | None
    best: list[int]
    nodes: int
    time: float
    line: list[int] | None = None
    bound: str = EXACT

    def summary(self, game: Game) -> str:
        who = "draw" if self.winner is None else f"{game.player_names[self.winner]} wins"
        best = " ".join(game.format_move(m) for m in self.best) or "-"
        lines = [f"value:    {self.value:+d} ({who})", f"best:     {best}"]
        if self.line is not None:
            line = " ".join(game.format_move(m) for m in self.line) or "-"
            lines.append(f"line:     {line}")
        lines.append(f"nodes:    {self.nodes} in {self.time:.3f} s")
        return "\n".join(lines)

