"""`SolveResult`: the exact value of a position under perfect play, and its line.

It sits below the games and the search, so a game's own solver
(`games/<name>/solver.py`) and the generic `search.solve` return the same
type without the games importing the search.
"""

from __future__ import annotations

import time as _time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import SearchStopped

if TYPE_CHECKING:
    from .game import Game, State

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


def line_by_solving(
    state: State[Any],
    solved: SolveResult,
    solve: Callable[[State[Any], float | None], SolveResult],
    deadline: float | None = None,
) -> list[int] | None:
    """A principal line from `state`, whose exact solve is `solved`: the first
    move is `solved.best[0]`, each later one the best move of a solve of the
    position reached (`solve(state, seconds_left)`).  Where a solver names no
    best move (a lost position of an unscored game: every move loses) the
    first legal move is played.  None if a solver names no move elsewhere."""
    work = state.copy()
    line: list[int] = []
    result = solved
    scored = state.game.scored
    while not work.is_over():
        if result.best:
            move = result.best[0]
        elif not scored and result.value < 0:
            move = work.legal_moves()[0]  # lost whatever is played
        else:
            return None
        work.make(move)
        line.append(move)
        if work.is_over():
            break
        left = None if deadline is None else deadline - _time.perf_counter()
        if left is not None and left <= 0:
            raise SearchStopped("the principal line ran out of time")
        result = solve(work, left)
    return line
