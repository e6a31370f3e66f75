"""Connect Four (7 x 6), written only against the public game protocol.

A worked example of a game package (docs/write-a-game.md), laid out like the
library's own games:

    rules.py      ConnectFourRules (the rules and tables) and C4State (one
                  position: make/undo, incremental frame hashes, the outcome)
    notation.py   moves as text: a column is a letter a-g (or 1-7)
    experts.py    evaluators, in one EVALUATORS table
    render.py     the text board and the SVG picture
    __init__.py   `ConnectFour`, the game: the rules with the other three
                  modules' hooks; and its registration

Importing the package registers the game as "connect4", so it works as a
plugin: `boardgames play connect4 --plugin examples/connect_four`.  Run it to
see a board: `python examples/connect_four`.
"""

from collections.abc import Callable

from boardgames.evaluation import Evaluator
from boardgames.registry import register_game

from . import notation, render
from .experts import EVALUATORS, centre
from .rules import COLS, ROWS, C4State, ConnectFourRules, cell

__all__ = ["COLS", "EVALUATORS", "ROWS", "C4State", "ConnectFour", "cell", "centre"]


class ConnectFour(ConnectFourRules):
    """Connect Four: the rules with their notation, evaluators and pictures."""

    def _parse_move(self, text: str) -> int:
        return notation.parse_column(text)

    def _format_move(self, move: int) -> str:
        return notation.format_column(move)

    def evaluators(self) -> dict[str, Callable[..., Evaluator[C4State]]]:
        return dict(EVALUATORS)

    def render_text(self, state: C4State, color: bool = False) -> str:
        return render.render_text(state, color)

    def render_svg(self, state: C4State) -> str:
        return render.render_svg(state)


register_game("connect4", ConnectFour, observation=f"{__name__}.planes:ConnectFourPlanes")
